// Checks, before anything else runs, the system packages `npm test` or `npm start` needs, and
// names them all in one message with the one command that installs them. As root with apt
// (CI, a fresh container) it installs them itself. Usage: node scripts/prereqs.mjs test|start
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './host/codeServer.mjs';
import { isInstalled } from './host/install.mjs';

const purpose = process.argv[2] === 'start' ? 'start' : 'test';
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** [what it is for, Debian package, present?] */
const needs = [];
if (purpose === 'test') {
  needs.push(['Chromium, the browser that drives VS Code in the host tests', 'chromium', existsSync(chromiumPath())]);
  needs.push(['openssl, for the test identity provider\'s throwaway CA', 'openssl', has('openssl')]);
}
if (!isInstalled()) {
  // Only the first run compiles code-server's native add-ons; after that nothing is built.
  needs.push(['a C/C++ compiler and make, to compile code-server\'s native add-ons on its first install', 'build-essential', has('make') && (has('c++') || has('g++'))]);
  needs.push(['Python 3, which node-gyp runs for those builds', 'python3', has('python3')]);
}
const missing = needs.filter(([, , present]) => !present);
if (missing.length === 0) process.exit(0);

const packages = [...new Set(missing.map(([, pkg]) => pkg))];
const apt = has('apt-get');
if (apt && process.getuid?.() === 0) {
  console.log(`[prereqs] installing ${packages.join(', ')} with apt-get (running as root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (run(['update', '-qq']) && run(['install', '-y', '-qq', '--no-install-recommends', ...packages])) process.exit(0);
  console.error('[prereqs] apt-get could not install them: see its message above.');
  process.exit(1);
}
const command = `${process.getuid?.() === 0 ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
console.error(`npm ${purpose} needs what this machine does not have:
${missing.map(([what]) => `  - ${what}`).join('\n')}
Install ${missing.length === 1 ? 'it' : 'them'} with:
  ${apt ? command : `your package manager (on Debian or Ubuntu: ${command})`}
then run npm ${purpose} again.`);
process.exit(1);
