// Webhooks through the UI: Start Listening, deliveries in the Webhook Events view, a reload and
// Listen Again, the delivery inspector with the app's answer, replays, themes and narrow widths.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { addConnectionThroughTheUi, runCommand, updateSettings } from './workbench';

/** Start Listening from the palette: a local service needs no tunnel; a new endpoint for the response events. */
async function startListeningThroughTheUi(page: Page): Promise<void> {
  await runCommand(page, 'Azure OpenAI: Start Listening');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Listening: point a webhook endpoint here?' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'Create a webhook endpoint' }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Events to receive' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 30_000 });
}

/** The service finishes a background response and delivers response.completed. */
export async function backgroundResponse(emulator: EmulatorHandle, input: string): Promise<void> {
  const res = await fetch(`${emulator.url}/openai/v1/responses`, {
    method: 'POST',
    headers: { 'api-key': emulator.key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', input, background: true }),
  });
  if (res.status !== 200) throw new Error(`creating a background response answered ${res.status}`);
}

const eventsPaneOf = (page: Page): Locator => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Events' }) });

/** The Webhook Events view's status line: the whole text, wrapped rather than cut off. */
async function eventsViewMessage(page: Page, text: string | RegExp): Promise<void> {
  const message = eventsPaneOf(page).locator('.message', { hasText: text }).first();
  await message.waitFor({ timeout: 30_000 });
  const cut = await message.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
  if (cut) throw new Error(`the view's message is cut off: ${await message.innerText()}`);
}

export async function listenThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await startListeningThroughTheUi(page);
  await eventsViewMessage(page, /Listening at http:\/\/127\.0\.0\.1:\d+\/webhook for/);
  await backgroundResponse(emulator, 'notify me');
  // The row a screen reader announces: event type and verdict; a click opens the inspector.
  const row = eventsPaneOf(page).locator('.monaco-list-row[aria-label^="response.completed, verified"]').first();
  await row.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'webhook-events.png') });
  await row.click();
  await (await inspectorFrame(page)).locator('#title', { hasText: 'response.completed' }).waitFor({ timeout: 30_000 });

  // After a window reload (a new extension host) the received event is still listed, the
  // inspector comes back on it, and the listener, which ended with the old host, no longer
  // claims to listen: the view says so and offers to listen again. Reloaded as a user does
  // (Developer: Reload Window), which lets the workbench save the open panels' state first.
  await runCommand(page, 'Developer: Reload Window');
  await page.waitForEvent('load', { timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The reload may bring the sidebar back open; clicking its icon then would close it.
  const eventsHeader = page.locator('.pane-header', { hasText: 'Webhook Events' });
  if (!(await eventsHeader.waitFor({ timeout: 10_000 }).then(() => true, () => false))) await page.locator('.activitybar [aria-label^="Azure OpenAI"]').first().click();
  await eventsPaneOf(page).locator('.monaco-list-row[aria-label^="response.completed, verified"]').first().waitFor({ timeout: 30_000 });
  await (await inspectorFrame(page)).locator('#title', { hasText: 'response.completed' }).waitFor({ timeout: 30_000 });
  if (await page.locator('.statusbar-item', { hasText: 'Listening' }).count()) throw new Error('the status bar still says Listening after the reload');
  await eventsViewMessage(page, 'Not listening since the window reloaded');
  // The offer: a toast, or (once the toast has timed out) in the notification centre.
  await runCommand(page, 'Notifications: Show Notifications');
  const offer = page.locator('.notification-list-item', { hasText: 'stopped when the window reloaded' }).first();
  await offer.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'webhook-events-after-reload.png') });
  await offer.locator('.monaco-button', { hasText: 'Listen Again' }).click();
  await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 30_000 });
  await eventsViewMessage(page, /Listening at http:\/\/127\.0\.0\.1:\d+\/webhook for/);
  // The same endpoint now points at the new listener: the next delivery arrives.
  const before = await eventsPaneOf(page).locator('.monaco-list-row[aria-label^="response.completed, verified"]').count();
  await backgroundResponse(emulator, 'again after the reload');
  await page.waitForFunction(
    ([n]) => document.querySelectorAll('.monaco-list-row[aria-label^="response.completed, verified"]').length > n,
    [before],
    { timeout: 30_000 },
  );
  await page.screenshot({ path: join(artifacts, 'webhook-events-listening-again.png') });
}

/** The user's app: refuses the first delivery with a 500 whose body holds HTML, then takes everything. */
async function startUserApp(): Promise<{ url: string; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const first = count++ === 0;
      const body = first ? '<h1>Internal error</h1><img src=x onerror="window.__pwned=1">' : JSON.stringify({ handled: true });
      res.writeHead(first ? 500 : 200, { 'content-type': first ? 'text/html' : 'application/json' }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The delivery inspector inside the webview's nested iframes. */
export async function inspectorFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const f of page.frames()) if (await f.$('#delivery').catch(() => null)) return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the delivery inspector did not open');
}

export async function inspectThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  const app = await startUserApp();
  try {
    // Forward to the app, set as a user would in settings.json (a reload makes sure it is read).
    updateSettings(server, 'Machine', { 'aoaiWorkbench.webhooks.forwardTo': app.url });
    updateSettings(server, 'User', { 'workbench.colorTheme': 'Default Light Modern' });
    await page.reload();
    await addConnectionThroughTheUi(page, emulator, artifacts);
    await startListeningThroughTheUi(page);
    await backgroundResponse(emulator, 'inspect me');

    // The row says the app refused it; a click opens the inspector.
    const row = eventsPaneOf(page).locator('.monaco-list-row[aria-label*="the app answered 500"]').first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const frame = await inspectorFrame(page);
    await frame.locator('#title', { hasText: 'response.completed' }).waitFor({ timeout: 30_000 });
    await frame.locator('.answer.fail .status', { hasText: '500' }).waitFor();
    await frame.locator('#tried td.match').first().waitFor();
    await frame.locator('#headers dt', { hasText: 'webhook-signature' }).waitFor();
    // The app's HTML shows as text and runs nothing.
    const answerText = await frame.locator('.answer.fail pre').innerText();
    if (!answerText.includes('<img src=x onerror=')) throw new Error(`the app's HTML should show as text, got: ${answerText}`);
    if ((await frame.locator('#delivery img, #delivery h1 + h1').count()) !== 0) throw new Error("the app's HTML reached the DOM");
    if ((await frame.evaluate(() => (window as Window & { __pwned?: unknown }).__pwned)) !== undefined) throw new Error('injected code ran');
    await page.screenshot({ path: join(artifacts, 'inspector-light.png') });

    // Edit and replay: the app takes it now; the new answer shows beside the old.
    await frame.locator('[data-action="edit"]').click();
    const editor = frame.locator('#edit-body');
    await editor.waitFor();
    const edited = JSON.parse(await editor.inputValue());
    edited.data.note = 'edited in the UI';
    await editor.fill(JSON.stringify(edited, null, 2));
    await frame.locator('[data-action="send-edited"]').click();
    await frame.locator('.answer.ok', { hasText: 'Replay 1 (edited body)' }).locator('.status', { hasText: '200' }).waitFor({ timeout: 30_000 });
    // The editor closes, and the new answer is announced and brought into view beside the old one.
    await frame.locator('#editor').waitFor({ state: 'hidden' });
    await frame.locator('#notice', { hasText: 'The app answered 200' }).waitFor();
    await page.screenshot({ path: join(artifacts, 'inspector-replayed-light.png') });

    // A notice is about the delivery it came with: another delivery shown drops it.
    await backgroundResponse(emulator, 'inspect another');
    const rows = eventsPaneOf(page).locator('.monaco-list-row[aria-label^="response.completed"]');
    await rows.nth(1).waitFor({ timeout: 30_000 });
    await rows.first().click();
    await frame.locator('#notice').waitFor({ state: 'hidden' });
    // Back to the replayed one, with the focus in the inspector as before.
    await rows.nth(1).click();
    await frame.locator('.answer.ok', { hasText: 'Replay 1 (edited body)' }).waitFor({ timeout: 30_000 });
    await frame.locator('#title').click();

    for (const [theme, shot] of [['Dark Modern', 'inspector-dark.png'], ['Dark High Contrast', 'inspector-high-contrast.png']]) {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.type('Preferences: Color Theme');
      // Not "Browse Color Themes in Marketplace".
      await page.locator('.quick-input-widget .monaco-list-row[aria-label^="Preferences: Color Theme"]').first().click();
      await page.locator('.quick-input-widget input.input').fill(theme);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: theme }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1500);
      await page.screenshot({ path: join(artifacts, shot) });
    }

    // Narrow: the panel about 300 px wide scrolls down, never sideways.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.waitForTimeout(1000);
    const { width, scroll } = await frame.evaluate(() => ({ width: window.innerWidth, scroll: document.documentElement.scrollWidth }));
    if (scroll > width + 1) throw new Error(`at ${width} px the inspector scrolls sideways (${scroll} px wide)`);
    await page.screenshot({ path: join(artifacts, 'inspector-narrow.png') });
  } finally {
    await app.close();
  }
}

// ── Chat panel UX (issue 17): following the reply, draft kept after an error, narrow widths ──

/** Runs a command from a row's context menu, as a person right-clicking it would. */
async function fromContextMenu(page: Page, row: Locator, label: string): Promise<void> {
  await row.click({ button: 'right' });
  const item = page.locator('.context-view .monaco-menu .action-item', { hasText: label }).first();
  await item.waitFor({ timeout: 30_000 });
  // Hovering focuses the item; Enter runs it (a click can land while the menu is still settling).
  await item.hover();
  await page.keyboard.press('Enter');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached', timeout: 30_000 });
}

/** Confirms a modal dialog with the button named `button`. */
async function confirmDialog(page: Page, button: string): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  await dialog.locator('.monaco-button', { hasText: button }).first().click();
}

export async function rotateThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await startListeningThroughTheUi(page);
  // The endpoint Start Listening created, in the Resources view.
  const endpointRow = () => page.locator('.monaco-list-row', { hasText: 'VS Code listener' });
  await endpointRow().first().waitFor({ timeout: 30_000 });
  await fromContextMenu(page, endpointRow().first(), 'Rotate Signing Secret');
  await confirmDialog(page, 'Rotate');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Give the new signing secret' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'Copy the new secret' }).first().click();
  // Both rows say which side of the rotation they are on, at the start of the label where a narrow sidebar does not cut it.
  const newRow = page.locator('.monaco-list-row', { hasText: 'New secret: VS Code listener' }).first();
  const oldRow = page.locator('.monaco-list-row', { hasText: 'Old secret: VS Code listener' }).first();
  await newRow.waitFor({ timeout: 30_000 });
  await oldRow.waitFor();
  for (const row of [newRow, oldRow]) {
    const label = row.locator('.label-name').first();
    if (await label.evaluate((e) => e.scrollWidth > e.clientWidth + 1 && !/^(New|Old) secret: VS/.test(e.textContent ?? ''))) throw new Error('the rotation side is cut off');
  }
  await page.screenshot({ path: join(artifacts, 'rotation-overlap.png') });
  await fromContextMenu(page, oldRow, 'Finish Rotation');
  await confirmDialog(page, 'Finish Rotation');
  // The list reloads: one endpoint, no longer marked.
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.monaco-list-row')].map((r) => r.textContent ?? '');
    return rows.filter((t) => t.includes('VS Code listener')).length === 1 && !rows.some((t) => /New secret|Old secret/.test(t));
  }, undefined, { timeout: 20_000 });
  await page.screenshot({ path: join(artifacts, 'rotation-finished.png') });
}
