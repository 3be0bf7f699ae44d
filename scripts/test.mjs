// `npm test`: every check, in order, stopping at the first that fails (as a chain of npm scripts
// would), then where the time went: each stage's time and the ten slowest tests of all runners
// (mocha's from its reporter, the host tests' and UI journeys' from scripts/host/run-tests.mjs).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timingSummary } from './test/timings.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = join(root, '.test-artifacts');
const nodeTimes = join(artifacts, 'node-times.json');
const hostSummary = join(artifacts, 'host-summary.json');
// npm's own script when npm started this (no shell, so no quoting of paths with spaces on Windows).
const npmCli = process.env.npm_execpath;
const npm = npmCli ? process.execPath : process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npmArgs = (...args) => (npmCli ? [npmCli, ...args] : args);

/** [stage, command, args]: the host stage's own time is split into host tests and UI journeys. */
const STAGES = [
  ['prerequisites', process.execPath, ['scripts/prereqs.mjs', 'test']],
  ['typecheck', npm, npmArgs('run', 'typecheck')],
  ['lint', npm, npmArgs('run', 'lint')],
  ['test:node', npm, npmArgs('run', 'test:node', '--', '--reporter', './scripts/test/timedSpec.cjs', '--reporter-option', `out=${nodeTimes}`)],
  ['package', npm, npmArgs('run', 'package')],
  ['host', process.execPath, ['scripts/host/run-tests.mjs']],
];

function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: command.endsWith('.cmd') });
    child.on('error', (err) => {
      console.error(err.message);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

mkdirSync(artifacts, { recursive: true });
for (const f of [nodeTimes, hostSummary]) rmSync(f, { force: true });
const stages = [];
let code = 0;
for (const [name, command, args] of STAGES) {
  const started = Date.now();
  code = await run(command, args);
  const ms = Date.now() - started;
  const status = code === 0 ? '' : `failed (exit ${code})`;
  const split = name === 'host' ? readJson(hostSummary)?.stages : undefined;
  if (split?.length) {
    // What the host runner did not count in its stages (installing, starting) goes to the host tests.
    const counted = split.reduce((sum, s) => sum + s.ms, 0);
    stages.push(...split.map((s, i) => ({ ...s, ms: i === 0 ? s.ms + Math.max(0, ms - counted) : s.ms, status })));
  } else stages.push({ name: name === 'host' ? 'host tests' : name, ms, status });
  if (code !== 0) break;
}
const tests = [...(readJson(nodeTimes) ?? []).map((t) => ({ ...t, where: 'node' })), ...(readJson(hostSummary)?.tests ?? [])];
console.log(timingSummary(stages, tests));
process.exit(code);
