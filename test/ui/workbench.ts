// The workbench as a person drives it in Chromium: the command palette, quick inputs, the Add
// Connection wizard, settings files as the Settings editor writes them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';

/**
 * Types into the open quick input and presses Enter there. A loaded CI machine once left the
 * walkthrough's input open after Enter, as if the key had gone elsewhere: Enter is pressed again
 * while the input is still open with the text and without the focus (never while it has it: a
 * wizard slow to show its next step must not get Enter twice). A single input (`single`: nothing
 * follows it) is typed into and entered again whenever it is still open. A failure prints the window's state.
 */
export async function answer(page: Page, titlePart: string, text: string, options: { single?: boolean } = {}): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const title = widget.locator('.quick-input-title', { hasText: titlePart });
  await title.waitFor({ timeout: 30_000 });
  const input = widget.locator('input.input');
  await input.fill(text);
  await input.press('Enter');
  for (let i = 0; i < 3; i++) {
    if (await title.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false)) return;
    if (options.single) {
      await input.fill(text);
    } else {
      const lostFocus = await input.evaluate((el, t) => el !== document.activeElement && (el as HTMLInputElement).value === t, text).catch(() => false);
      if (!lostFocus) return;
    }
    await input.press('Enter');
  }
}

export async function addConnectionThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activity = page.locator('.activitybar [aria-label^="Azure OpenAI"]').first();
  await activity.waitFor({ timeout: 60_000 });
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } });

  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type('Azure OpenAI: Add Connection');
  // "Add Connection from Azure…" matches too: pick the plain one.
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Add Connection…' }).filter({ hasNotText: 'from Azure' }).first();
  await row.waitFor();
  await row.click();

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
  await connectionRow.waitFor({ timeout: 30_000 });
  const deploymentsRow = page.locator('.monaco-list-row', { hasText: 'Deployments' }).first();
  await expandRow(connectionRow, deploymentsRow);
  await expandRow(deploymentsRow, page.locator('.monaco-list-row', { hasText: 'gpt-4o-mini' }).first());
  const webhooksRow = page.locator('.monaco-list-row', { hasText: 'Webhook endpoints' }).first();
  await expandRow(webhooksRow, page.locator('.monaco-list-row', { hasText: 'No webhook endpoints yet' }).first());
  await tree.waitFor();
  await page.screenshot({ path: join(artifacts, 'ui-add-connection.png') });
  // The key the user typed is nowhere on screen.
  const text = await page.locator('body').innerText();
  if (text.includes(emulator.key)) throw new Error('the API key is visible in the workbench');
}

/**
 * Opens a tree row until `child` shows. A click toggles: a row the tree expanded by itself (a new
 * connection is revealed) would close, so a row is clicked only while it says it is collapsed.
 * A click can also land on a neighbour while rows above are still loading (a CI run's click on
 * "Webhook endpoints" left it closed): the row is clicked again while it stays collapsed.
 */
export async function expandRow(row: Locator, child: Locator): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if ((await row.getAttribute('aria-expanded')) !== 'true') {
      // A row's tooltip, shown while the pointer rested on the row above, can cover this one (a
      // loaded run's click waited 30 s under it): the pointer leaves the tree first.
      await row.page().mouse.move(0, 0);
      await row.page().locator('.context-view .workbench-hover, .context-view .monaco-hover').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      await row.click({ timeout: 10_000 }).catch(() => undefined);
    }
    // 20 s a try: a loaded run (one core busy) once took over 30 s to list a connection's groups.
    const shown = await child.waitFor({ timeout: 20_000 }).then(() => true, () => false);
    if (shown) return;
    if (attempt === 2) {
      const state = await row.getAttribute('aria-expanded');
      throw new Error(`the child row never showed under "${await row.innerText()}" (aria-expanded ${state})`);
    }
  }
}

export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type(title);
  const name = title.split(': ').pop();
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first();
  await row.waitFor();
  // Enter runs the focused row, and a recently used command can sit above the one typed: then the row is clicked.
  if (await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).count()) await page.keyboard.press('Enter');
  else await row.click();
}

/**
 * Changes settings as the Settings editor would: `User` ones, or `Machine` ones (machine-scoped
 * settings of an extension running on the server, "Remote Settings" in the editor).
 */
export function updateSettings(server: CodeServerHandle, kind: 'User' | 'Machine', changes: Record<string, unknown>): void {
  const dir = join(server.root, 'user-data', kind);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'settings.json');
  const old = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...old, ...changes }, null, 2));
}

/** Switches the workbench to the Dark High Contrast theme through the theme picker. */
export async function highContrast(page: Page): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type('Preferences: Color Theme');
  await page.locator('.quick-input-widget .monaco-list-row[aria-label^="Preferences: Color Theme"]').first().click();
  await page.locator('.quick-input-widget input[placeholder*="Color Theme"]').waitFor();
  await page.keyboard.type('Dark High Contrast');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Dark High Contrast' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-workbench.hc-black').waitFor({ timeout: 30_000 });
}

/**
 * Resizes the browser until the webview in `frame` is `width` px wide (the panels beside it take
 * the rest). With `mustFit`, a width it cannot reach is an error.
 */
export async function setWebviewWidth(page: Page, frame: Frame, width: number, mustFit = false): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const inner = await frame.evaluate(() => window.innerWidth);
    if (Math.abs(inner - width) <= 2) return;
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width + (width - inner), height: viewport.height });
    await page.waitForTimeout(500);
  }
  const inner = await frame.evaluate(() => window.innerWidth);
  if (mustFit && Math.abs(inner - width) > 2) throw new Error(`the webview is ${inner} px wide, wanted ${width}`);
}

/**
 * Switches the workbench to `theme` (from light, in this order) and waits until the webview in
 * `frame` shows it: VS Code sets the theme's class on the page's body.
 */
export async function useTheme(page: Page, frame: Frame, theme: 'light' | 'dark' | 'high-contrast'): Promise<void> {
  if (theme === 'dark') await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  if (theme === 'high-contrast') await highContrast(page);
  await frame.waitForFunction((kind) => document.body.classList.contains(`vscode-${kind}`), theme, { timeout: 30_000 }).catch(() => {
    throw new Error(`waited 30 s for the webview to show the ${theme} theme`);
  });
}
