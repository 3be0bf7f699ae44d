// `npm start`: the local emulator, and VS Code (code-server on loopback) with this extension
// installed and AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY pointing at the emulator, so the
// extension offers to import the connection. Beside it a local identity provider stands in for
// Entra ID (scripts/host/localAzure.mjs), so "Add Connection from Azure" and Deploy, which need
// Resource Manager, work too. No account needed. Ctrl-C (or closing the terminal) stops everything.
import { symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCodeServer, freePort } from './host/codeServer.mjs';
import { ensureInstalled } from './host/install.mjs';
import { startLocalAzure } from './host/localAzure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'package.json'), 'utf8')));

/** What is running so far: a signal during start-up stops that much. */
const running = { azure: undefined, server: undefined, stopping: false };

async function stop(exitCode = 0) {
  if (running.stopping) return;
  running.stopping = true;
  console.log('\nStopping…');
  await running.server?.stop();
  await running.azure?.stop();
  process.exit(exitCode);
}

async function main() {
  // SIGHUP: the terminal was closed; code-server runs in its own process group and would stay.
  // Writing to a closed terminal fails with EIO: that must not stop the clean-up.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop());
  await ensureInstalled();
  const azure = await startLocalAzure(root, { configFile: join(root, 'scripts', 'emulator.dev.json'), stderr: 'inherit' });
  running.azure = azure;
  const { emulator } = azure;
  emulator.child.once('exit', () => {
    if (running.stopping) return;
    console.error('The emulator stopped unexpectedly.');
    void stop(1);
  });
  const port = Number(process.env.PORT) || (await freePort());
  const server = await startCodeServer({
    port,
    folder: root,
    env: { ...azure.env, AZURE_OPENAI_ENDPOINT: emulator.url, AZURE_OPENAI_API_KEY: emulator.key },
    // User settings, where a user would put a private cloud: sign-in at the local provider, Resource Manager at the emulator.
    settings: azure.settings,
  });
  running.server = server;
  if (running.stopping) return server.stop();
  // Installed by link: after `npm run build`, "Developer: Reload Window" picks up changes.
  symlinkSync(root, join(server.root, 'extensions', `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  const url = `${server.url}/?folder=${encodeURIComponent(root)}`;
  console.log(`
Azure OpenAI Workbench is running.

  VS Code:   ${url}
  Emulator:  ${emulator.url}/openai/v1/  (VS Code has it in its environment: the Azure OpenAI view offers to import it)
  Key:       ${emulator.key}  (a throwaway key for this emulator run only)
  Entra ID:  ${azure.issuer.authorityHost}  (a local identity provider; VS Code signs in to it as a throwaway service principal)

Open the VS Code address in your browser, then the Azure OpenAI view in the activity bar.
Entra ID and Deploy with no account: run "Azure OpenAI: Add Connection from Azure…", sign in with
DefaultAzureCredential, pick emulator-openai; fine-tune a model on it, then Deploy from the job's page.
Try the emulator beside VS Code:

  curl -s ${emulator.url}/openai/v1/chat/completions -H "api-key: ${emulator.key}" \\
    -H "content-type: application/json" -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'

Press Ctrl-C to stop.
`);
}

main().catch((err) => {
  console.error(`npm start failed: ${err?.message ?? err}`);
  void stop(1);
});
