// End-to-end through the real workbench in Chromium, as a person would: command palette →
// Add Connection wizard → the Resources view lists the emulator's deployments. Saves screenshots.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
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

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type(title);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title.split(': ').pop() }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** The chat page inside the webview's nested iframes. */
function chatFrame(page) {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

async function chatThroughTheUi(page, emulator, artifacts) {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await runCommand(page, 'Azure OpenAI: Open Chat');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.monaco-list-row', { hasText: 'gpt-4o-mini' }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.type('gpt-4o-mini');
  await page.keyboard.press('Enter');
  const chat = chatFrame(page);
  const input = chat.locator('#input');
  await input.waitFor({ timeout: 30_000 });

  // A streamed reply, with usage.
  await input.fill('/markdown');
  await input.press('Enter');
  await chat.locator('.turn.assistant .turn-foot', { hasText: 'tokens' }).first().waitFor({ timeout: 30_000 });
  await chat.locator('.turn.assistant h1', { hasText: 'Emulator reply' }).waitFor();
  await chat.locator('.turn.assistant .code-block .hljs-keyword').first().waitFor();

  // Model output with HTML executes nothing and loads nothing.
  const attack = 'Look: <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> [x](javascript:window.__pwned=3)';
  await input.fill(attack);
  await input.press('Enter');
  await chat.locator('.turn.assistant', { hasText: 'You said: Look:' }).last().locator('.turn-foot', { hasText: 'tokens' }).waitFor({ timeout: 30_000 });
  const reply = chat.locator('.turn.assistant', { hasText: 'You said: Look:' }).last();
  if ((await reply.locator('img, script').count()) !== 0) throw new Error('an <img> or <script> from the reply reached the DOM');
  if ((await reply.locator('a[href^="javascript"]').count()) !== 0) throw new Error('a javascript: link was rendered');
  const replyText = await reply.locator('.turn-body').innerText();
  if (!replyText.includes('<img src=x onerror=')) throw new Error('the HTML should show as text');
  await reply.locator('.turn-body').click();
  let chatPage;
  for (const f of page.frames()) if (await f.$('#messages').catch(() => null)) chatPage = f;
  if (!chatPage) throw new Error('the chat page frame was not found');
  const pwned = await chatPage.evaluate(() => window.__pwned);
  if (pwned !== undefined) throw new Error(`injected code ran (window.__pwned = ${pwned})`);

  // Stop mid-stream: the reply ends, marked stopped, and the composer is usable again.
  await input.fill('/long 3000');
  await input.press('Enter');
  const stop = chat.locator('#stop');
  await stop.waitFor({ state: 'visible', timeout: 10_000 });
  await chat.locator('.turn.assistant.streaming .turn-body p').first().waitFor({ timeout: 20_000 });
  await stop.click();
  await chat.locator('.turn.assistant .turn-foot', { hasText: 'stopped' }).waitFor({ timeout: 10_000 });
  await chat.locator('#send').waitFor({ state: 'visible' });
  await stop.waitFor({ state: 'hidden' });
  await page.screenshot({ path: join(artifacts, 'chat-light.png') });

  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(artifacts, 'chat-dark.png') });

  // A window reload brings the panel back with its history (webview serializer + saved conversation).
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const restored = chatFrame(page);
  await restored.locator('.turn.user', { hasText: '/long 3000' }).waitFor({ timeout: 60_000 });
  await restored.locator('.turn.assistant h1', { hasText: 'Emulator reply' }).waitFor();
  await page.screenshot({ path: join(artifacts, 'chat-after-reload.png') });
}

async function reasoningThroughTheUi(page, emulator, artifacts) {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await runCommand(page, 'Azure OpenAI: Open Chat');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.monaco-list-row', { hasText: 'gpt-5-codex' }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.type('gpt-5-codex');
  await page.keyboard.press('Enter');
  const chat = chatFrame(page);
  const input = chat.locator('#input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('/code python');
  await input.press('Enter');
  // The summary streams into a collapsed section above the answer; the usage line counts reasoning tokens.
  const reply = chat.locator('.turn.assistant').last();
  await reply.locator('.turn-foot', { hasText: 'reasoning)' }).waitFor({ timeout: 30_000 });
  const section = reply.locator('details.reasoning');
  if (await section.evaluate((d) => d.open)) throw new Error('the reasoning section should start collapsed');
  await section.locator('summary').click();
  await section.locator('.reasoning-text', { hasText: 'The user asked' }).waitFor();
  await reply.locator('.code-block').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'chat-reasoning.png') });

  // In the background: the status line counts the time while the service works, then the answer fills in.
  await chat.locator('details.settings > summary').click();
  await chat.locator('#background').check();
  await input.fill('later please');
  await input.press('Enter');
  await chat.locator('#status', { hasText: 'Background reply' }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(artifacts, 'chat-background-running.png') });
  const later = chat.locator('.turn.assistant', { hasText: 'You said: later please' });
  await later.locator('.turn-foot', { hasText: 'tokens' }).waitFor({ timeout: 30_000 });
  await chat.locator('details.settings > summary').click();
  await later.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, 'chat-background-done.png') });
}

async function listenThroughTheUi(page, emulator, artifacts) {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await runCommand(page, 'Azure OpenAI: Start Listening');
  const widget = page.locator('.quick-input-widget');
  // A local service needs no tunnel; then: create an endpoint, with the response events picked.
  await widget.locator('.quick-input-title', { hasText: 'Listening at http://127.0.0.1' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'Create a webhook endpoint' }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Events to receive' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 20_000 });

  // The service finishes a background response and delivers response.completed.
  const res = await fetch(`${emulator.url}/openai/v1/responses`, {
    method: 'POST',
    headers: { 'api-key': emulator.key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', input: 'notify me', background: true }),
  });
  if (res.status !== 200) throw new Error(`creating a background response answered ${res.status}`);
  // The row a screen reader announces: event type and verdict.
  const eventsPane = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Events' }) });
  await eventsPane().locator('.monaco-list-row[aria-label^="response.completed, verified"]').first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'webhook-events.png') });

  // After a window reload (a new extension host) the received event is still listed, and the
  // listener, which ended with the old host, no longer claims to listen.
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The reload may bring the sidebar back open; clicking its icon then would close it.
  const eventsHeader = page.locator('.pane-header', { hasText: 'Webhook Events' });
  if (!(await eventsHeader.waitFor({ timeout: 10_000 }).then(() => true, () => false))) await page.locator('.activitybar [aria-label^="Azure OpenAI"]').first().click();
  await eventsPane().locator('.monaco-list-row[aria-label^="response.completed, verified"]').first().waitFor({ timeout: 30_000 });
  if (await page.locator('.statusbar-item', { hasText: 'Listening' }).count()) throw new Error('the status bar still says Listening after the reload');
  await page.screenshot({ path: join(artifacts, 'webhook-events-after-reload.png') });
}

/**
 * Changes settings as the Settings editor would: `User` ones, or `Machine` ones (machine-scoped
 * settings of an extension running on the server, "Remote Settings" in the editor).
 */
function updateSettings(server, kind, changes) {
  const dir = join(server.root, 'user-data', kind);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'settings.json');
  const old = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...old, ...changes }, null, 2));
}

/** The user's app: refuses the first delivery with a 500 whose body holds HTML, then takes everything. */
async function startUserApp() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const first = count++ === 0;
      const body = first ? '<h1>Internal error</h1><img src=x onerror="window.__pwned=1">' : JSON.stringify({ handled: true });
      res.writeHead(first ? 500 : 200, { 'content-type': first ? 'text/html' : 'application/json' }).end(body);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/webhook`, close: () => new Promise((r) => server.close(r)) };
}

/** The delivery inspector inside the webview's nested iframes. */
async function inspectorFrame(page) {
  for (let i = 0; i < 100; i++) {
    for (const f of page.frames()) if (await f.$('#delivery').catch(() => null)) return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the delivery inspector did not open');
}

async function inspectThroughTheUi(page, emulator, artifacts, server) {
  const app = await startUserApp();
  try {
    // Forward to the app, set as a user would in settings.json (a reload makes sure it is read).
    updateSettings(server, 'Machine', { 'aoaiWorkbench.webhooks.forwardTo': app.url });
    updateSettings(server, 'User', { 'workbench.colorTheme': 'Default Light Modern' });
    await page.reload();
    await addConnectionThroughTheUi(page, emulator, artifacts);
    await runCommand(page, 'Azure OpenAI: Start Listening');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Listening at http://127.0.0.1' }).waitFor({ timeout: 30_000 });
    await widget.locator('.monaco-list-row', { hasText: 'Create a webhook endpoint' }).first().click();
    await widget.locator('.quick-input-title', { hasText: 'Events to receive' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 20_000 });
    const res = await fetch(`${emulator.url}/openai/v1/responses`, {
      method: 'POST',
      headers: { 'api-key': emulator.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'inspect me', background: true }),
    });
    if (res.status !== 200) throw new Error(`creating a background response answered ${res.status}`);

    // The row says the app refused it; a click opens the inspector.
    const eventsPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Events' }) });
    const row = eventsPane.locator('.monaco-list-row[aria-label*="the app answered 500"]').first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const frame = await inspectorFrame(page);
    await frame.locator('#title', { hasText: 'response.completed' }).waitFor({ timeout: 20_000 });
    await frame.locator('.answer.fail .status', { hasText: '500' }).waitFor();
    await frame.locator('#tried td.match').first().waitFor();
    await frame.locator('#headers dt', { hasText: 'webhook-signature' }).waitFor();
    // The app's HTML shows as text and runs nothing.
    const answerText = await frame.locator('.answer.fail pre').innerText();
    if (!answerText.includes('<img src=x onerror=')) throw new Error(`the app's HTML should show as text, got: ${answerText}`);
    if ((await frame.locator('#delivery img, #delivery h1 + h1').count()) !== 0) throw new Error("the app's HTML reached the DOM");
    if ((await frame.evaluate(() => window.__pwned)) !== undefined) throw new Error('injected code ran');
    await page.screenshot({ path: join(artifacts, 'inspector-light.png') });

    // Edit and replay: the app takes it now; the new answer shows beside the old.
    await frame.locator('[data-action="edit"]').click();
    const editor = frame.locator('#edit-body');
    await editor.waitFor();
    const edited = JSON.parse(await editor.inputValue());
    edited.data.note = 'edited in the UI';
    await editor.fill(JSON.stringify(edited, null, 2));
    await frame.locator('[data-action="send-edited"]').click();
    await frame.locator('.answer.ok', { hasText: 'Replay 1 (edited body)' }).locator('.status', { hasText: '200' }).waitFor({ timeout: 20_000 });
    // The editor closes, and the new answer is announced and brought into view beside the old one.
    await frame.locator('#editor').waitFor({ state: 'hidden' });
    await frame.locator('#notice', { hasText: 'The app answered 200' }).waitFor();
    await page.screenshot({ path: join(artifacts, 'inspector-replayed-light.png') });

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

export async function runUiTests(chromium, root, artifacts, vsix) {
  const tests = [
    ['UI: add a connection through the command palette wizard and see its deployments in the sidebar', addConnectionThroughTheUi],
    ['UI: chat in the panel: streamed markdown with usage, HTML in a reply executes nothing, Stop ends a reply, the panel survives a reload', chatThroughTheUi],
    ['UI: chat with a Responses-only deployment: the reasoning summary in a collapsed section, reasoning tokens in the usage line, a reply in the background', reasoningThroughTheUi],
    ['UI: Start Listening from the palette, a delivery appears verified in the Webhook Events view and is still there after a reload', listenThroughTheUi],
    [
      "UI: a delivery the app refused opens in the inspector from its row (trace, headers, the app's HTML as text); edit and replay shows the new answer; themes, narrow",
      inspectThroughTheUi,
    ],
  ];
  let passed = 0;
  let failed = 0;
  // HOST_GREP picks UI tests by name too, for iterating on one feature.
  const grep = process.env.HOST_GREP ? new RegExp(process.env.HOST_GREP) : undefined;
  for (const [name, fn] of tests.filter(([name]) => !grep || grep.test(name))) {
    const emulator = await startEmulatorProcess(root, ['--config', join(root, 'scripts', 'emulator.dev.json')]);
    const server = await startCodeServer({ extraArgs: ['--vscode-option', 'enable-smoke-test-driver'], vsix });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    try {
      await page.goto(workbenchUrl(server, {}));
      await fn(page, emulator, artifacts, server);
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
