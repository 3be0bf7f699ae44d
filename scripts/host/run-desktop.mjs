// `npm run test:desktop`: the same host test entry under desktop VS Code via @vscode/test-electron,
// where VS Code can be downloaded (not on these offline machines: use `npm run test:host`).
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { startEmulatorProcess } from './emulatorProcess.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const emulator = await startEmulatorProcess(root, [], { stderr: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'aoai-desktop-'));
const userData = join(dir, 'user-data');
const workspace = join(dir, 'workspace');
mkdirSync(workspace);
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'dist', 'test', 'host', 'index.js'),
    extensionTestsEnv: {
      AZURE_OPENAI_ENDPOINT: `${emulator.url}/openai/v1/`,
      AZURE_OPENAI_API_KEY: emulator.key,
      AOAI_TEST_USER_DATA: userData,
      AOAI_WORKBENCH_TEST_INTERNALS: '1',
      AOAI_TEST_ARTIFACTS: join(root, '.test-artifacts'),
    },
    launchArgs: [workspace, '--user-data-dir', userData, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`Desktop host tests failed: ${err?.message ?? err}`);
  process.exitCode = 1;
} finally {
  emulator.stop();
}
