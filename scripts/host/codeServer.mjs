// Starts code-server (VS Code's server) on loopback with a fresh profile, offline and quiet.
// Shared by the host test runner and `npm start`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
 * @param {{ port?: number, env?: Record<string,string>, extraArgs?: string[], folder?: string, keepOutput?: boolean }} opts
 * @returns {Promise<{ url: string, port: number, root: string, folder: string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startCodeServer(opts = {}) {
  const p = ensureInstalled({ quiet: true });
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
        'security.workspace.trust.enabled': false,
        'chat.disableAIFeatures': true,
      },
      null,
      2,
    ),
  );
  const port = opts.port ?? (await freePort());
  const args = [
    p.codeServerEntry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--extensions-dir', dirs.extensions,
    '--user-data-dir', dirs.userData,
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
  };
  return { url, port, root, folder, output: () => output, stop };
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** The workbench URL that loads an extension under development (and optionally its tests). */
export function workbenchUrl(server, { extensionPath, testsPath, env, folder }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionPath)], ['skipWelcome', 'true']];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  if (env) payload.push(['extensionEnvironment', JSON.stringify(env)]);
  return `${server.url}/?folder=${encodeURIComponent(folder ?? server.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
