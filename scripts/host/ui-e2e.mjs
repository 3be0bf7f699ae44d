// End-to-end through the real workbench in Chromium, as a person would: command palette →
// Add Connection wizard → the Resources view lists the emulator's deployments. Saves screenshots.
import { join } from 'node:path';
import { startEmulatorProcess } from './emulatorProcess.mjs';
import { CHROMIUM_ARGS, chromiumPath, startCodeServer, workbenchUrl } from './codeServer.mjs';

/** Types into the open quick input and presses Enter. */
async function answer(page, titlePart, text) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: titlePart }).waitFor({ timeout: 20_000 });
  const input = widget.locator('input.input');
  await input.fill(text);
  await page.keyboard.press('Enter');
}

async function addConnectionThroughTheUi(page, emulator, artifacts) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activity = page.locator('.activitybar [aria-label^="Azure OpenAI"]').first();
  await activity.waitFor({ timeout: 60_000 });
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } });

  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type('Azure OpenAI: Add Connection');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Add Connection' }).first().waitFor();
  await page.keyboard.press('Enter');

  await answer(page, '(1/4): endpoint', `${emulator.url}/openai/v1/`);
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: '(2/4): authentication' }).waitFor();
  await widget.locator('.monaco-list-row', { hasText: 'API key' }).first().waitFor();
  await page.keyboard.press('Enter');
  await answer(page, '(3/4): API key', emulator.key);
  await answer(page, '(4/4): name', 'UI Emulator');

  await activity.click();
  const tree = page.locator('.pane-body .monaco-list').filter({ has: page.locator('.monaco-list-row') }).first();
  const connectionRow = page.locator('.monaco-list-row', { hasText: 'UI Emulator' }).first();
  await connectionRow.waitFor({ timeout: 20_000 });
  await connectionRow.click();
  const deploymentsRow = page.locator('.monaco-list-row', { hasText: 'Deployments' }).first();
  await deploymentsRow.waitFor();
  await deploymentsRow.click();
  await page.locator('.monaco-list-row', { hasText: 'gpt-4o-mini' }).first().waitFor({ timeout: 20_000 });
  const webhooksRow = page.locator('.monaco-list-row', { hasText: 'Webhook endpoints' }).first();
  await webhooksRow.click();
  await page.locator('.monaco-list-row', { hasText: 'No webhook endpoints yet' }).first().waitFor({ timeout: 20_000 });
  await tree.waitFor();
  await page.screenshot({ path: join(artifacts, 'ui-add-connection.png') });
  // The key the user typed is nowhere on screen.
  const text = await page.locator('body').innerText();
  if (text.includes(emulator.key)) throw new Error('the API key is visible in the workbench');
}

export async function runUiTests(chromium, root, artifacts) {
  const tests = [['UI: add a connection through the command palette wizard and see its deployments in the sidebar', addConnectionThroughTheUi]];
  let passed = 0;
  let failed = 0;
  for (const [name, fn] of tests) {
    const emulator = await startEmulatorProcess(root);
    const server = await startCodeServer({ extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    try {
      await page.goto(workbenchUrl(server, { extensionPath: root }));
      await fn(page, emulator, artifacts);
      passed++;
      console.log(`  ✔ ${name}`);
    } catch (err) {
      failed++;
      console.log(`  ✗ ${name}\n    ${err?.message ?? err}`);
      await page.screenshot({ path: join(artifacts, 'ui-failure.png') }).catch(() => {});
    } finally {
      await browser.close();
      await server.stop();
      emulator.stop();
    }
  }
  return { passed, failed };
}
