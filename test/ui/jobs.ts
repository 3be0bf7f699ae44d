// Jobs and calls through the UI (issue 26): a batch created from a workspace file whose
// batch.completed delivery updates its row and opens its results; an incoming call answered from
// its notification, its SIP headers in the inspector, hung up there; a fine-tuning job's page with
// its loss chart. Light, dark, high contrast and 300 px, with screenshots.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { addConnectionThroughTheUi, answer, expandRow, runCommand, setWebviewWidth, useTheme } from './workbench';

/** The frame of the page that has `selector`. */
export async function frameWith(page: Page, selector: string): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const f of page.frames()) if (await f.$(selector).catch(() => null)) return f;
    await page.waitForTimeout(200);
  }
  throw new Error(`no page with ${selector} was found`);
}

/** Start Listening from the palette with a new endpoint for `types` (ticked in the events picker). */
async function listenFor(page: Page, types: string[]): Promise<void> {
  await runCommand(page, 'Azure OpenAI: Start Listening');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Listening: point a webhook endpoint here?' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'Create a webhook endpoint' }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Events to receive' }).waitFor();
  const input = widget.locator('input.input');
  for (const t of types) {
    await input.fill(t);
    await widget.locator('.monaco-list-row', { hasText: t }).first().click();
    await widget.locator('.monaco-list-row[aria-checked="true"]', { hasText: t }).first().waitFor({ timeout: 30_000 });
  }
  await input.fill('');
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 30_000 });
  // The endpoint is created on the service after the listener starts: events before it reach no one.
  await row(page, 'VS Code listener').waitFor({ timeout: 30_000 });
}

/**
 * A notification, in the notification centre (opened here): in this browser the toasts do not
 * stay on screen long enough to be found reliably. Close the centre with `closeNotifications`.
 */
export async function notification(page: Page, text: string | RegExp, timeout = 30_000): Promise<Locator> {
  if (!(await page.locator('.notifications-center.visible').count())) await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  await item.waitFor({ timeout });
  return item;
}

export async function closeNotifications(page: Page): Promise<void> {
  const hide = page.locator('.notifications-center.visible .notifications-center-header .codicon-notifications-hide');
  if (await hide.count()) await hide.first().click();
}
export const row = (page: Page, text: string | RegExp) => page.locator('.monaco-list-row', { hasText: text }).first();
const eventsPane = (page: Page) => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Events' }) });

/** Screenshots of a webview in light, dark and high contrast, wide and 300 px; at 300 px it must not scroll sideways. */
async function themesAndWidths(page: Page, frame: Frame, artifacts: ArtifactsFolder, name: string, check?: (where: string) => Promise<void>): Promise<void> {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    await useTheme(page, frame, theme);
    for (const width of [300, 900]) {
      await setWebviewWidth(page, frame, width);
      const where = `at ${width} px (${theme})`;
      const layout = await frame.evaluate(() => ({ width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth }));
      if (layout.scrollWidth > layout.width + 1) throw new Error(`the ${name} page is ${layout.scrollWidth} px wide ${where}`);
      await check?.(where);
      await page.screenshot({ path: join(artifacts, `${name}-${theme}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  }
}

const line = (id: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }] } });

export async function batchThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  writeFileSync(join(server.folder, 'questions.jsonl'), ['alpha', 'beta', 'gamma'].map((q) => line(q, `say ${q}`)).join('\n') + '\n');
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await listenFor(page, ['batch.completed']);
  await expandRow(row(page, /^Batches/), row(page, 'No batches yet'));

  await runCommand(page, 'Azure OpenAI: Create Batch');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Create Batch (1/2)' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'questions.jsonl' }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Create Batch (2/2)' }).waitFor();
  await widget.locator('.monaco-list-row', { hasText: '/v1/chat/completions' }).first().click();
  await notification(page, /Batch batch_\S+ created: 3 requests on gpt-4o-mini-batch/);
  await row(page, 'questions.jsonl').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'batch-created.png') });

  // The service delivers batch.completed: the notification offers the results, the row says how it ended.
  const done = await notification(page, /Batch batch_\S+ completed\./, 60_000);
  await page.locator('.monaco-list-row', { hasText: 'questions.jsonl' }).filter({ hasText: /completed · 3\/3/ }).first().waitFor({ timeout: 30_000 });
  await eventsPane(page).locator('.monaco-list-row[aria-label^="batch.completed, verified"]').first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'batch-completed.png') });
  await done.locator('.monaco-button', { hasText: 'Open Results' }).click();
  await closeNotifications(page);
  const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
  await page.locator('.tab', { hasText: 'results' }).first().waitFor({ timeout: 30_000 });
  // Monaco draws spaces as no-break spaces: \s matches both.
  await page.waitForFunction(() => /3\s+rows/.test(document.querySelector('.editor-instance .monaco-editor .view-lines')?.textContent ?? ''), undefined, {
    timeout: 30_000,
  });
  const text = await editor.innerText();
  for (const id of ['alpha', 'beta', 'gamma']) if (!text.includes(id)) throw new Error(`the results do not show ${id}: ${text.slice(0, 400)}`);
  await page.screenshot({ path: join(artifacts, 'batch-results-light.png') });
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'batch-results-dark.png') });
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');

  // The delivery in the inspector leads to the same results.
  await eventsPane(page).locator('.monaco-list-row[aria-label^="batch.completed, verified"]').first().click();
  const inspector = await frameWith(page, '#delivery');
  const open = inspector.locator('[data-action="subject"]', { hasText: 'Open batch results' });
  await open.waitFor({ timeout: 30_000 });
  await themesAndWidths(page, inspector, artifacts, 'batch-inspector');
}

async function callsOnService(emulator: EmulatorHandle): Promise<Array<{ call_id: string; state: string }>> {
  const res = await fetch(`${emulator.url}/emulator/calls`, { headers: { 'api-key': emulator.key } });
  return ((await res.json()) as { data: Array<{ call_id: string; state: string }> }).data;
}

async function waitForCallState(emulator: EmulatorHandle, id: string, state: string): Promise<void> {
  // Generous: the state ends the wait, and a loaded machine is many times slower than a quiet one.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if ((await callsOnService(emulator)).find((c) => c.call_id === id)?.state === state) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`waited 60 s for the call ${id} to become ${state} on the service`);
}

export async function callThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await listenFor(page, ['realtime.call.incoming']);
  // A call rings, with a header whose value is markup: it must show as text.
  const res = await fetch(`${emulator.url}/emulator/calls`, {
    method: 'POST',
    headers: { 'api-key': emulator.key, 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'sip:+15550100@pstn.example', to: 'sip:support@example.com', headers: { 'X-Note': '<img src=x onerror="window.__pwned=1">' } }),
  });
  if (res.status !== 201) throw new Error(`ringing a call answered ${res.status}`);
  const { call_id: callId } = (await res.json()) as { call_id: string };

  const ringing = await notification(page, 'Incoming call from sip:+15550100@pstn.example to sip:support@example.com');
  await expandRow(row(page, /^Calls/), page.locator('.monaco-list-row', { hasText: 'sip:+15550100@pstn.example' }).filter({ hasText: 'ringing' }).first());
  await page.screenshot({ path: join(artifacts, 'call-ringing.png') });

  // Accept… from the notification: the one realtime deployment, the instructions prefilled.
  await ringing.locator('.monaco-button', { hasText: 'Accept' }).click();
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Instructions for the session that answers' }).waitFor({ timeout: 30_000 });
  if (!(await widget.locator('input.input').inputValue()).includes('phone call')) throw new Error('the instructions are not prefilled from the setting');
  await page.keyboard.press('Enter');
  await closeNotifications(page);
  await waitForCallState(emulator, callId, 'accepted');
  await page.locator('.monaco-list-row', { hasText: 'sip:+15550100@pstn.example' }).filter({ hasText: 'accepted' }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'call-accepted.png') });

  // The delivery in the inspector: the SIP headers as a table, the markup as text.
  await eventsPane(page).locator('.monaco-list-row[aria-label^="realtime.call.incoming, verified"]').first().click();
  const inspector = await frameWith(page, '#sip-table');
  await inspector.locator('#call-section').waitFor({ state: 'visible', timeout: 30_000 });
  const names = await inspector.locator('#sip-rows th').allInnerTexts();
  for (const n of ['From', 'To', 'Call-ID', 'X-Note']) if (!names.includes(n)) throw new Error(`the SIP headers table lacks ${n}: ${names.join(', ')}`);
  const note = await inspector.locator('#sip-rows tr', { hasText: 'X-Note' }).locator('td').innerText();
  if (!note.includes('<img src=x onerror=')) throw new Error(`the header's markup should show as text, got: ${note}`);
  if ((await inspector.locator('#sip-table img').count()) !== 0 || (await inspector.evaluate(() => (window as Window & { __pwned?: unknown }).__pwned)) !== undefined) {
    throw new Error("the caller's markup reached the page");
  }
  await themesAndWidths(page, inspector, artifacts, 'call-inspector', async (where) => {
    const right = await inspector.evaluate(() => document.querySelector('[data-action="call-hangup"]')!.getBoundingClientRect().right);
    if (right > (await inspector.evaluate(() => window.innerWidth))) throw new Error(`Hang up is cut off ${where}`);
  });

  // Hang up from the inspector.
  await inspector.locator('[data-action="call-hangup"]').click();
  await waitForCallState(emulator, callId, 'ended');
  await page.locator('.monaco-list-row', { hasText: 'sip:+15550100@pstn.example' }).filter({ hasText: 'ended' }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'call-ended.png') });
  await linkInFrom(page, emulator, artifacts);
}

/** A caller writes a command link into its From: the notification shows its characters and holds no link (issue 36). */
async function linkInFrom(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  const from = 'sip:[Open Settings](command:workbench.action.files.newUntitledFile)@evil.example';
  const res = await fetch(`${emulator.url}/emulator/calls`, {
    method: 'POST',
    headers: { 'api-key': emulator.key, 'content-type': 'application/json' },
    body: JSON.stringify({ from, to: 'sip:support@example.com' }),
  });
  if (res.status !== 201) throw new Error(`ringing a call answered ${res.status}`);
  // Found by what stays text either way (a rendered link would show only "Open Settings").
  const ringing = await notification(page, /Incoming call from .*evil\.example/);
  await page.screenshot({ path: join(artifacts, 'call-link-in-from.png') });
  // The message, not the buttons (our Accept…, Reject and Transfer… are anchors too).
  const text = ringing.locator('.notification-list-item-message');
  if (await text.locator('a').count()) throw new Error(`the caller's link is a link in the notification: ${await text.locator('a').first().evaluate((a) => a.outerHTML)}`);
  // What the user reads, the invisible joiners aside: the From as the caller typed it.
  const message = (await text.innerText()).replaceAll('\u200D', '');
  if (!message.includes(from)) throw new Error(`the notification should show the From as typed, got: ${message}`);
  await closeNotifications(page);
}

const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `What is ${i} + ${i}?` }, { role: 'assistant', content: String(i + i) }] });

export async function fineTuningThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  writeFileSync(join(server.folder, 'train.jsonl'), Array.from({ length: 10 }, (_, i) => example(i)).join('\n') + '\n');
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await runCommand(page, 'Azure OpenAI: Create Fine-tuning Job');
  await answer(page, 'Create Fine-tuning Job (1/4)', 'gpt-4.1-mini-2025-04-14');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: '(2/4)' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'train.jsonl' }).first().click();
  // The same examples as validation data, so the chart has both lines.
  await widget.locator('.quick-input-title', { hasText: '(3/4)' }).waitFor();
  await widget.locator('.monaco-list-row', { hasText: 'train.jsonl' }).first().click();
  await page.screenshot({ path: join(artifacts, 'fine-tuning-wizard.png') });
  await answer(page, '(4/4)', 'ui');
  await notification(page, /Fine-tuning job ftjob-\S+ created/);
  // Its row opens its page, which follows the job as it trains.
  const jobRow = row(page, 'gpt-4.1-mini-2025-04-14 (ui)');
  await expandRow(row(page, /^Fine-tuning jobs/), jobRow);
  await page.screenshot({ path: join(artifacts, 'fine-tuning-created.png') });
  await closeNotifications(page);
  await jobRow.click();
  const frame = await frameWith(page, '#loss-table');
  await frame.locator('#title', { hasText: 'gpt-4.1-mini-2025-04-14' }).waitFor({ timeout: 30_000 });
  await frame.locator('#status-badge', { hasText: 'succeeded' }).waitFor({ timeout: 90_000 });
  await frame.locator('#title', { hasText: /\.ft-[0-9a-f]+-ui$/ }).waitFor({ timeout: 30_000 });
  const alt = (await frame.locator('#chart svg').getAttribute('aria-label')) ?? '';
  if (!/Training loss from [\d.]+ at step 1 to [\d.]+ at step 30; Validation loss/.test(alt)) throw new Error(`the chart's text alternative: "${alt}"`);
  if ((await frame.locator('#loss-rows tr').count()) !== 30) throw new Error('the loss table does not hold a row per step');
  if ((await frame.locator('#checkpoint-rows tr').count()) !== 3) throw new Error('three epochs, three checkpoints');
  if (!(await frame.locator('[data-action="deploy"]').isVisible())) throw new Error('a job that succeeded offers Deploy');
  await frame.locator('#loss-data summary').click();
  await themesAndWidths(page, frame, artifacts, 'fine-tuning', async (where) => {
    const chart = await frame.evaluate(() => document.querySelector('#chart svg')!.getBoundingClientRect().width);
    if (chart < 200) throw new Error(`the chart is ${chart} px wide ${where}`);
  });
}
