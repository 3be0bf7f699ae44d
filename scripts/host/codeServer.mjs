// Starts code-server (VS Code's server) on loopback with a fresh profile, offline and quiet.
// Shared by the host test runner and `npm start`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureInstalled, node24Env } from './install.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * @param {{ port?: number, env?: Record<string,string>, extraArgs?: string[], folder?: string, vsix?: string | string[], workspaceTrust?: boolean,
 *   locale?: string, afterInstall?: (extensionsDir: string) => void, settings?: Record<string, unknown> }} opts
 *   vsix: the package(s) to install into this run's extensions folder first, as a user would.
 *   locale: the display language (code-server's --locale); afterInstall: adds files to the installed extensions.
 *   workspaceTrust: VS Code's workspace trust on, the folder never trusted: Restricted Mode.
 *   (Off otherwise, so that no trust prompt stands in the tests' way.)
 * @returns {Promise<{ url: string, port: number, root: string, folder: string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startCodeServer(opts = {}) {
  const p = await ensureInstalled({ quiet: true });
  removeAbandonedRuns(p.base);
  const root = mkdtempSync(join(p.base, 'run-'));
  const dirs = { config: join(root, 'config'), data: join(root, 'data'), tmp: join(root, 'tmp'), userData: join(root, 'user-data'), extensions: join(root, 'extensions') };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const folder = opts.folder ?? join(root, 'workspace');
  mkdirSync(folder, { recursive: true });
  // Without these the extension host tries to reach telemetry and update hosts.
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': !!opts.workspaceTrust,
        // Restricted Mode from the start, without the prompt that would ask to leave it.
        ...(opts.workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false } : {}),
        'chat.disableAIFeatures': true,
        ...opts.settings,
      },
      null,
      2,
    ),
  );
  if (opts.vsix) installVsix(p, dirs, opts.vsix);
  opts.afterInstall?.(dirs.extensions);
  const port = opts.port ?? (await freePort());
  const args = [
    p.codeServerEntry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--extensions-dir', dirs.extensions,
    '--user-data-dir', dirs.userData,
    ...(opts.locale ? ['--locale', opts.locale] : []),
    ...(opts.extraArgs ?? []),
  ];
  const env = node24Env(p, {
    ...opts.env,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    TMPDIR: dirs.tmp,
    EXTENSIONS_GALLERY: '{"serviceUrl":"http://127.0.0.1:9/gallery"}',
  });
  let output = '';
  const child = spawn(p.node, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const collect = (d) => {
    output += d;
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}) before it was ready:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`code-server did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    await stopGroup(child);
    // Per-run folders are throwaway: without this the cache grows by one folder per run.
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
  return { url, port, root, folder, output: () => output, stop };
}

/**
 * Per-run folders left by a run that was killed before it could clean up: those no running
 * process names on its command line (code-server gets --user-data-dir inside its run folder).
 */
function removeAbandonedRuns(base) {
  let cmdlines = '';
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      cmdlines += readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      /* exited meanwhile */
    }
  }
  for (const name of readdirSync(base).filter((n) => n.startsWith('run-'))) {
    const dir = join(base, name);
    // A folder made a moment ago may belong to a run whose code-server is not started yet.
    if (cmdlines.includes(dir) || Date.now() - statSync(dir).mtimeMs < 120_000) continue;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** code-server's own `--install-extension`, the way a user installs a .vsix. */
function installVsix(p, dirs, vsix) {
  const packages = [vsix].flat().flatMap((v) => ['--install-extension', v]);
  const args = [p.codeServerEntry, ...packages, '--extensions-dir', dirs.extensions, '--user-data-dir', dirs.userData];
  try {
    execFileSync(p.node, args, { env: node24Env(p), stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`code-server could not install ${vsix}:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

async function stopGroup(child) {
  if (child.exitCode !== null) return;
  // The whole process group: extension hosts otherwise linger for hours.
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  await new Promise((r) => {
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      r();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(t);
      r();
    });
  });
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * The folder to give as extensionDevelopmentPath when the extension under test is the installed
 * .vsix: VS Code runs extensionTestsPath only in development mode, so an empty extension stands in.
 */
export function testHarnessExtension(server) {
  const dir = join(server.root, 'test-harness');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'host-test-harness', publisher: 'aoai-workbench-tests', version: '0.0.0', engines: { vscode: '*' } }));
  return dir;
}

/** The workbench URL, optionally with an extension under development and its tests. */
export function workbenchUrl(server, { extensionPath, testsPath, env, folder }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['skipWelcome', 'true']];
  if (extensionPath) payload.push(['extensionDevelopmentPath', remote(extensionPath)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  if (env) payload.push(['extensionEnvironment', JSON.stringify(env)]);
  return `${server.url}/?folder=${encodeURIComponent(folder ?? server.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
