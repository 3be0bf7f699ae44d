// Inline suggestions through the UI (issue #38): the deployment chosen from the palette, ghost text
// in a TypeScript file from the emulator's deployment, the status bar item naming it, Tab takes it.
// With UPDATE_MEDIA=1 the README's picture of it is written into media/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { readmePicture } from './walkthrough';
import { addConnectionThroughTheUi, runCommand, updateSettings } from './workbench';

const CLAMP = 'export function clamp(value: number, low: number, high: number): number {';
/** A function written once, and its signature again: the emulator suggests the body it had. */
const FILE = `${CLAMP}\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n}\n\n${CLAMP}\n  \n}\n`;

export async function inlineThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  updateSettings(server, 'User', { 'workbench.colorTheme': 'Default Light Modern' });
  writeFileSync(join(server.folder, 'clamp.ts'), FILE);
  await page.reload();
  await addConnectionThroughTheUi(page, emulator, artifacts);
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');

  await runCommand(page, 'Azure OpenAI: Use Deployment for Inline Suggestions…');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Use a deployment for inline suggestions' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'gpt-4o-mini' }).first().click();
  const status = page.locator('.statusbar-item', { hasText: 'gpt-4o-mini' }).first();
  await status.waitFor({ timeout: 30_000 });

  // The file, the cursor on the empty line of the second function.
  await page.keyboard.press('Control+P');
  await widget.locator('input.input').waitFor();
  await page.keyboard.type('clamp.ts');
  await widget.locator('.monaco-list-row', { hasText: 'clamp.ts' }).first().waitFor();
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-line', { hasText: 'if (value > high) return high;' }).first().waitFor({ timeout: 30_000 });
  await runCommand(page, 'Go to Line/Column...');
  await page.keyboard.type('8:3');
  await page.keyboard.press('Enter');

  // The ghost text: asked for from the palette (typing would ask too, and change the file).
  const ghost = editor.locator('.ghost-text-decoration, .ghost-text').first();
  for (let attempt = 0; attempt < 3 && !(await ghost.isVisible()); attempt++) {
    await runCommand(page, 'Trigger Inline Suggestion');
    await ghost.waitFor({ timeout: 10_000 }).catch(() => undefined);
  }
  await ghost.waitFor({ timeout: 10_000 });
  const shown = await editor.locator('.ghost-text-decoration, .ghost-text').allInnerTexts();
  // The editor draws the ghost text's spaces as no-break spaces, a token to a span.
  if (!shown.join('').replace(/\s+/g, '').includes('if(value<low)returnlow;')) throw new Error(`the ghost text is not the repeated body: ${JSON.stringify(shown)}`);
  const tooltip = (await status.getAttribute('aria-label')) ?? '';
  await page.mouse.move(1, 1);
  await page.screenshot({ path: join(artifacts, 'inline-ghost-text.png') });
  await readmePicture(page, artifacts, 'inline');

  // Tab takes it: both functions now have the body.
  await page.keyboard.press('Tab');
  await page.waitForFunction(
    (line) => [...document.querySelectorAll('.view-line')].filter((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ').includes(line)).length === 2,
    'if (value > high) return high;',
    { timeout: 20_000 },
  );
  if (!/gpt-4o-mini/.test(tooltip + (await status.innerText()))) throw new Error(`the status bar item does not name the deployment: ${tooltip}`);
}
