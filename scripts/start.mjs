// `npm start`: the local emulator, and VS Code (code-server on loopback) with this extension
// installed and AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY pointing at the emulator, so the
// extension offers to import the connection. No account needed. Ctrl-C stops everything.
import { symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCodeServer, freePort } from './host/codeServer.mjs';
import { startEmulatorProcess } from './host/emulatorProcess.mjs';
import { ensureInstalled } from './host/install.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'package.json'), 'utf8')));

async function main() {
  ensureInstalled();
  const emulator = await startEmulatorProcess(root, ['--config', join(root, 'scripts', 'emulator.dev.json')], { stderr: 'inherit' });
  const port = Number(process.env.PORT) || (await freePort());
  const server = await startCodeServer({
    port,
    folder: root,
    env: { AZURE_OPENAI_ENDPOINT: emulator.url, AZURE_OPENAI_API_KEY: emulator.key },
  });
  // Installed by link: after `npm run build`, "Developer: Reload Window" picks up changes.
  symlinkSync(root, join(server.root, 'extensions', `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  const url = `${server.url}/?folder=${encodeURIComponent(root)}`;
  console.log(`
Azure OpenAI Workbench is running.

  VS Code:   ${url}
  Emulator:  ${emulator.url} (its key is in VS Code's environment; accept "Import" when asked)

Open the VS Code address in your browser, then the Azure OpenAI view in the activity bar.
Press Ctrl-C to stop.
`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    emulator.child.kill('SIGTERM');
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  emulator.child.once('exit', () => {
    if (!stopping) {
      console.error('The emulator stopped unexpectedly.');
      void stop();
    }
  });
}

main().catch((err) => {
  console.error(`npm start failed: ${err?.message ?? err}`);
  process.exit(1);
});
