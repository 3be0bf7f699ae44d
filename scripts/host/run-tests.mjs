// Runs the extension's host tests inside a real VS Code extension host (code-server + headless
// Chromium), then the end-to-end UI test, against the extension installed from the .vsix that
// `npm run package` built: what users install, so a file missing from the package fails a test.
// Exits non-zero when a test fails or the host never starts.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { CHROMIUM_ARGS, chromiumPath, startCodeServer, testHarnessExtension, workbenchUrl } from './codeServer.mjs';
import { startEmulatorProcess } from './emulatorProcess.mjs';
import { ensureInstalled } from './install.mjs';
import { startIdentityProvider } from './localAzure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = join(root, '.test-artifacts');
const HOST_TIMEOUT_MS = Number(process.env.HOST_TEST_TIMEOUT_MS ?? 10 * 60_000);

/**
 * The local identity provider `npm start` uses too (localAzure.mjs), with what the Entra ID tests
 * need to know of it to start emulators that accept its tokens.
 */
async function startIssuer() {
  const { issuer, env } = await startIdentityProvider();
  const testIssuer = {
    authorityHost: issuer.authorityHost,
    tenantId: issuer.tenantId,
    issuer: issuer.issuer,
    jwksUri: issuer.jwksUri,
    caFile: issuer.caFile,
    oid: issuer.clients[0].oid,
  };
  return { issuer, env: { ...env, AOAI_TEST_ISSUER: JSON.stringify(testIssuer) } };
}

/** A localtunnel server on loopback: the real tunnel the in-host listener test goes through. */
async function startTunnelServer() {
  const { tsImport } = await import('tsx/esm/api');
  const { startLocaltunnelServer } = await tsImport('../../test/support/localtunnelServer.ts', import.meta.url);
  return startLocaltunnelServer();
}

/** The package `npm run package` wrote; refused when older than the bundle it should contain. */
export function packagedVsix() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const vsix = join(root, `${pkg.name}-${pkg.version}.vsix`);
  const bundle = join(root, 'dist', 'extension.js');
  if (!existsSync(vsix) || (existsSync(bundle) && statSync(vsix).mtimeMs < statSync(bundle).mtimeMs)) {
    throw new Error(`${vsix} is missing or older than dist/extension.js: run "npm run package" first (npm run test:host does).`);
  }
  return vsix;
}

/**
 * The workbench's own console lines that say nothing about the extension: connection set-up, and
 * failures this offline, gallery-less set-up causes on purpose (the gallery is 127.0.0.1:9, no
 * GitHub sign-in). Kept in .test-artifacts/host-console.log, not shown.
 */
const WORKBENCH_CHATTER = [
  /^\[(AgentHost|AccountPolicyGate|reconnection-grace-time|Service Worker)/,
  /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin extensions cache)/,
  /ECONNREFUSED 127\.0\.0\.1:9\b/,
  /Timed out waiting for authentication provider 'github'/,
  /^DialogService: Dialog requested during smoke test/,
];
const consoleLog = join(artifacts, 'host-console.log');

async function runHostTests(chromium, vsix) {
  writeFileSync(consoleLog, '');
  const emulator = await startEmulatorProcess(root);
  const entra = await startIssuer();
  const tunnelServer = await startTunnelServer();
  const server = await startCodeServer({ env: { ...entra.env, AOAI_TEST_LOCALTUNNEL: tunnelServer.url }, extraArgs: ['--vscode-option', 'enable-smoke-test-driver'], vsix });
  try {
    const env = {
      AZURE_OPENAI_ENDPOINT: `${emulator.url}/openai/v1/`,
      AZURE_OPENAI_API_KEY: emulator.key,
      // The package under test: the activation test checks its size and contents.
      AOAI_TEST_VSIX: vsix,
    };
    return await driveHostTests(chromium, server, env);
  } finally {
    await server.stop();
    emulator.stop();
    await entra.issuer.close();
    tunnelServer.stop();
  }
}

/**
 * Opens the workbench in Chromium with the test entry as extensionTestsPath and waits for it to
 * finish: the tests' lines go to the console, the workbench's own chatter to host-console.log.
 */
async function driveHostTests(chromium, server, testEnv) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  let result = { code: 1, passed: 0, failed: 0 };
  try {
    const page = await (await browser.newContext()).newPage();
    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      appendFileSync(consoleLog, `${line}\n`);
      const m = /HOST-RESULT passed=(\d+) failed=(\d+)/.exec(line);
      if (m) result = { ...result, passed: Number(m[1]), failed: Number(m[2]) };
      else if (!WORKBENCH_CHATTER.some((re) => re.test(line))) (type === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    const env = {
      ...testEnv,
      // Lets the tests reach the extension's parts through a command no user ever has.
      AOAI_WORKBENCH_TEST_INTERNALS: '1',
      AOAI_TEST_ARTIFACTS: artifacts,
      AOAI_TEST_USER_DATA: join(server.root, 'user-data'),
      // `HOST_GREP=pattern npm run test:host` runs only the host tests whose titles match.
      ...(process.env.HOST_GREP ? { AOAI_HOST_GREP: process.env.HOST_GREP } : {}),
    };
    await page.goto(workbenchUrl(server, { extensionPath: testHarnessExtension(server), testsPath: join(root, 'dist', 'test', 'host', 'index.js'), env }));
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), HOST_TIMEOUT_MS));
    const code = await Promise.race([exited, timeout]);
    if (code === 'timeout') {
      console.error(`The extension host did not finish within ${HOST_TIMEOUT_MS / 1000} s. code-server's log:\n${server.output()}`);
      await page.screenshot({ path: join(artifacts, 'host-timeout.png') }).catch(() => {});
      result.code = 1;
    } else {
      result.code = Number(code);
    }
  } finally {
    await browser.close();
  }
  return result;
}

/** What a repository could bring into the untrusted folder of the Restricted Mode tests (test/host/restrictedMode.test.ts). */
const REPOSITORY_FILES = {
  '.vscode/launch.json': {
    configurations: [{ type: 'azure-openai-webhooks', request: 'launch', name: 'Webhooks from the repository', forwardTo: 'http://127.0.0.1:9/webhook' }],
  },
  '.vscode/settings.json': {
    'aoaiWorkbench.webhooks.toleranceSeconds': 86400,
    'aoaiWorkbench.tunnel.provider': 'ngrok',
    'aoaiWorkbench.pageSize': 2,
  },
};

/**
 * The Restricted Mode tests, in a code-server of their own: workspace trust on (the other runs
 * turn it off) and a folder it never trusts. They run when HOST_GREP is unset or names them.
 */
async function runRestrictedModeTests(chromium, vsix) {
  const grep = process.env.HOST_GREP;
  if (grep && !new RegExp(grep).test('Restricted Mode: an untrusted folder')) return { code: 0, passed: 0, failed: 0 };
  const server = await startCodeServer({ extraArgs: ['--vscode-option', 'enable-smoke-test-driver'], vsix, workspaceTrust: true });
  try {
    for (const [file, content] of Object.entries(REPOSITORY_FILES)) {
      mkdirSync(dirname(join(server.folder, file)), { recursive: true });
      writeFileSync(join(server.folder, file), JSON.stringify(content, null, 2));
    }
    return await driveHostTests(chromium, server, { AOAI_HOST_RESTRICTED: '1' });
  } finally {
    await server.stop();
  }
}

/** Each host test's time, as the test entry (test/host/index.ts) wrote it; none when it never finished. */
function hostTimes(file, where) {
  try {
    return JSON.parse(readFileSync(join(artifacts, file), 'utf8')).map((t) => ({ ...t, where }));
  } catch {
    return [];
  }
}

async function main() {
  mkdirSync(artifacts, { recursive: true });
  await ensureInstalled();
  const vsix = packagedVsix();
  const { chromium } = await import('playwright-core');
  for (const f of ['host-times.json', 'host-times-restricted.json']) rmSync(join(artifacts, f), { force: true });
  const started = Date.now();
  // The UI journeys run beside the host tests: one lane from the start, a second once the host
  // tests are done (UI_LANES=1: one after another). Each journey has its own servers and browser.
  const { runUiTests } = process.env.HOST_SKIP_UI ? {} : await import('./ui-e2e.mjs');
  let hostDone;
  const hostFinished = new Promise((r) => (hostDone = r));
  const lanes = process.env.UI_LANES === '1' ? [hostFinished] : [Promise.resolve(), hostFinished];
  const uiRun = runUiTests?.(chromium, root, artifacts, vsix, lanes);
  const trusted = await runHostTests(chromium, vsix);
  const restricted = await runRestrictedModeTests(chromium, vsix);
  const hostMs = Date.now() - started;
  hostDone();
  const host = { code: trusted.code || restricted.code, passed: trusted.passed + restricted.passed, failed: trusted.failed + restricted.failed };
  const ui = (await uiRun) ?? { passed: 0, failed: 0, times: [] };
  // Side by side, the UI stage is what the journeys added after the host tests ended.
  const stages = [{ name: 'host tests', ms: hostMs }];
  if (uiRun) stages.push({ name: process.env.UI_LANES === '1' ? 'UI journeys' : 'UI journeys (after host tests)', ms: Date.now() - started - hostMs });
  const passed = host.passed + ui.passed;
  const failed = host.failed + ui.failed + (host.code !== 0 && host.failed === 0 ? 1 : 0);
  const tests = [...hostTimes('host-times.json', 'host'), ...hostTimes('host-times-restricted.json', 'host, Restricted Mode'), ...ui.times.map((t) => ({ ...t, where: 'UI' }))];
  // scripts/test.mjs reads the stages and tests for the summary at the end of `npm test`.
  writeFileSync(join(artifacts, 'host-summary.json'), JSON.stringify({ host, ui: { passed: ui.passed, failed: ui.failed }, stages, tests }, null, 2));
  console.log(`\nhost: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
