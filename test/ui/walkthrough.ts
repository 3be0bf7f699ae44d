// The Get Started walkthrough as a new user meets it: it opens the first time they open the
// sidebar, and each step checks itself as they do what it says, from its own buttons. With
// UPDATE_MEDIA=1 it also writes the walkthrough's pictures and the README's into media/.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { answer, runCommand, updateSettings } from './workbench';

const MEDIA = new URL('../../media/', import.meta.url);
const UPDATE_MEDIA = process.env.UPDATE_MEDIA === '1';

/** The walkthrough page's step whose title is `title`. */
function step(page: Page, title: string): Locator {
  return page.locator('.getting-started-step', { hasText: title }).first();
}

/**
 * Back to the walkthrough's tab, and the step's button `button` pressed from the keyboard. (A
 * mouse click through Playwright scrolls the page's sliding container and sends it back to the
 * list; and the steps' headers, disabled after a theme change here, do not take clicks.)
 */
/**
 * `opens`: what the button shows when it worked. On a loaded machine the step can take the focus
 * back between the check and Enter (seen: the input below never came, the header focused): the
 * button is pressed again, at most twice more, while nothing of `opens` or a quick input shows.
 */
async function pressStepButton(page: Page, title: string, button: string, opens?: Locator): Promise<void> {
  for (let press = 0; ; press++) {
    await pressStepButtonOnce(page, title, button);
    if (!opens || press === 2) return;
    const shown = await opens.waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (shown || (await page.locator('.quick-input-widget:visible').count())) return;
  }
}

async function pressStepButtonOnce(page: Page, title: string, button: string): Promise<void> {
  await openWalkthrough(page);
  const s = step(page, title);
  await s.waitFor({ timeout: 30_000 });
  // Opened from the keyboard, as its header's button.
  if ((await s.getAttribute('aria-expanded')) !== 'true') {
    await s.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'true', await s.elementHandle(), { timeout: 30_000 });
  }
  const b = s.locator('.monaco-button', { hasText: button }).first();
  // On a loaded machine the step may still be laying out and take the focus back to its header
  // (where Enter does nothing: CI's failure showed the header focused): Enter only on the button.
  for (let attempt = 0; ; attempt++) {
    await b.focus();
    const focused = await page
      .waitForFunction((el) => el === document.activeElement, await b.elementHandle(), { timeout: 5_000 })
      .then(() => true, () => false);
    if (focused) break;
    if (attempt === 5) throw new Error(`the "${button}" button of "${title}" never kept the focus`);
  }
  await page.keyboard.press('Enter');
}

/**
 * The walkthrough shown again as a user finds it: Welcome: Open Walkthrough…, then ours. (Its tab
 * alone is not enough: a theme change sends the page back to the list of walkthroughs.)
 */
async function openWalkthrough(page: Page): Promise<void> {
  const shown = page.locator('.gettingStarted.showDetails', { hasText: WALKTHROUGH_TITLE }).first();
  if (await shown.isVisible()) return;
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: WALKTHROUGH_TITLE }).first();
  // Further tries when the palette lost the typing to a notification that took the focus, or a
  // loaded machine was slow to list the command.
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await page.keyboard.press('Escape');
    const listed = await runCommand(page, 'Welcome: Open Walkthrough')
      .then(() => row.waitFor({ timeout: 10_000 }))
      .then(() => true, (err: unknown) => (attempt < 2 ? false : Promise.reject(err instanceof Error ? err : new Error(String(err)))));
    if (listed) break;
  }
  await row.click();
  await shown.waitFor({ timeout: 30_000 });
}

const WALKTHROUGH_TITLE = 'Get Started with Azure OpenAI Workbench';

/** The step shows as done (its check mark), on the walkthrough's page. */
async function expectChecked(page: Page, title: string): Promise<void> {
  await openWalkthrough(page);
  const s = step(page, title);
  await s.waitFor({ timeout: 30_000 });
  // As a screen reader hears it: the step's check box, ticked.
  await page.waitForFunction((el) => el?.getAttribute('aria-checked') === 'true', await s.elementHandle(), { timeout: 30_000 }).catch(() => {
    throw new Error(`waited 30 s for the step "${title}" to show as checked`);
  });
}

async function toggleTheme(page: Page): Promise<void> {
  const dark = await page.locator('.monaco-workbench.vs-dark').count();
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await page.locator(dark ? '.monaco-workbench.vs:not(.vs-dark)' : '.monaco-workbench.vs-dark').waitFor({ timeout: 30_000 });
  await page.waitForTimeout(800);
}

/** Parts of the workbench window a picture shows, or any other element of it. */
type Part = 'sidebar' | 'editor' | 'auxiliarybar' | 'statusbar' | 'titlebar' | Locator;

/**
 * The picture of a step as the window shows it now, in the light theme and the dark one: into the
 * artifacts folder, and with UPDATE_MEDIA=1 into media/walkthrough/ as small WebP files. `again`
 * brings back what the theme change closed (a picker) before the second picture.
 */
async function stepPicture(page: Page, artifacts: ArtifactsFolder, name: string, parts: readonly Part[], again?: () => Promise<void>): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForTimeout(500);
  // Only the parts of the window the step is about: the picture stays legible and small.
  const boxes = await Promise.all(
    parts.map(async (part) => {
      const box = await (typeof part === 'string' ? page.locator(`.part.${part}`) : part).first().boundingBox();
      if (!box) throw new Error(`the picture "${name}" cannot be taken: ${String(part)} is not shown`);
      return box;
    }),
  );
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const clip = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
  const shots: Record<string, Buffer> = { light: await page.screenshot({ clip }) };
  // What the picture shows (a picker) would take the command palette's keys: closed meanwhile.
  if (again) await page.keyboard.press('Escape');
  await toggleTheme(page);
  await again?.();
  shots.dark = await page.screenshot({ clip });
  if (again) await page.keyboard.press('Escape');
  await toggleTheme(page);
  for (const [theme, png] of Object.entries(shots)) {
    writeFileSync(join(artifacts, `walkthrough-${name}-${theme}.png`), png);
    if (!UPDATE_MEDIA) continue;
    const { default: sharp } = await import('sharp');
    const dir = new URL('walkthrough/', MEDIA);
    mkdirSync(dir, { recursive: true });
    const file = new URL(`${name}-${theme}.webp`, dir);
    await sharp(png).resize({ width: 480, height: 480, fit: 'inside', withoutEnlargement: true }).webp({ quality: 45, effort: 6 }).toFile(file.pathname);
    console.log(`    media/walkthrough/${name}-${theme}.webp: ${statSync(file).size} bytes`);
  }
}

/**
 * VS Code's chat with its model picker open on the deployments of the local emulator, as the
 * walkthrough's "Choose the Model" shows it: every deployment listed as "deployment (connection)".
 */
async function openModelPicker(page: Page): Promise<Locator> {
  const picker = page.locator('.action-widget', { has: page.locator('input[placeholder="Search models"]') }).first();
  // Further tries when the picker opened during a change of focus or layout: then it shows empty,
  // out of place, and the workbench closes it.
  for (let attempt = 0; ; attempt++) {
    if (!(await picker.isVisible())) await page.locator('.part.auxiliarybar .model-picker-name').first().click({ timeout: 20_000 });
    await picker.waitFor({ timeout: 30_000 });
    await page.keyboard.type('Local emulator');
    // Our deployments are what the search finds, each with its connection.
    const listed = await picker
      .locator('.monaco-list-row.action', { hasText: 'gpt-4o-mini (Local emulator)' })
      .first()
      .waitFor({ timeout: 8_000 })
      .then(() => picker.locator('.monaco-list-row.action', { hasText: 'o3-mini (Local emulator)' }).first().waitFor({ timeout: 8_000 }))
      .then(
        () => true,
        (err: unknown) => (attempt < 2 ? false : Promise.reject(err instanceof Error ? err : new Error(String(err)))),
      );
    if (listed) return picker;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
  }
}

/**
 * The workbench again, with another extension beside ours that uses the models through VS Code's
 * Language Model API (./lmConsumer), as a developer's own tools or other AI extensions do.
 */
export async function reloadWithModelConsumer(page: Page): Promise<void> {
  const url = new URL(page.url());
  const consumer = new URL('./lmConsumer', import.meta.url).pathname;
  const payload = JSON.parse(url.searchParams.get('payload') ?? '[]') as [string, string][];
  payload.push(['extensionDevelopmentPath', `vscode-remote://${url.host}${consumer}`]);
  url.searchParams.set('payload', JSON.stringify(payload));
  await page.goto(url.href);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="Azure OpenAI"]').first().waitFor({ timeout: 60_000 });
}

/**
 * A notification with `text`, as a toast or, once the toast is gone (an information message hides
 * itself after a while), in the notification center.
 */
export async function expectNotification(page: Page, text: RegExp, toastMs = 20_000): Promise<void> {
  const item = page.locator('.notification-list-item', { hasText: text }).first();
  const shown = await item.waitFor({ timeout: toastMs }).then(() => true, () => false);
  if (shown) return;
  await runCommand(page, 'Notifications: Show Notifications');
  await item.waitFor({ timeout: 30_000 }).catch(async () => {
    const all = await page.locator('.notification-list-item').allInnerTexts();
    throw new Error(`no notification says ${String(text)}; the notifications: ${JSON.stringify(all)}`);
  });
}

/** A README picture: the whole window, downscaled and quantized to a small PNG (UPDATE_MEDIA=1). */
export async function readmePicture(page: Page, artifacts: ArtifactsFolder, name: string): Promise<void> {
  const png = await page.screenshot();
  writeFileSync(join(artifacts, `readme-${name}.png`), png);
  if (!UPDATE_MEDIA) return;
  const { default: sharp } = await import('sharp');
  const file = new URL(`readme-${name}.png`, MEDIA);
  await sharp(png).resize({ width: 1100 }).png({ palette: true, colours: 64, effort: 10, compressionLevel: 9 }).toFile(file.pathname);
  console.log(`    media/readme-${name}.png: ${statSync(file).size} bytes`);
}

export async function walkthroughThroughTheUi(page: Page, _emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  // VS Code's chat on (the runner's profile turns AI features off), in the light theme.
  updateSettings(server, 'User', { 'chat.disableAIFeatures': false, 'workbench.colorTheme': 'Default Light Modern', 'workbench.welcomePage.walkthroughs.openOnInstall': true });
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activity = page.locator('.activitybar [aria-label^="Azure OpenAI"]').first();
  await activity.waitFor({ timeout: 60_000 });

  // The first look at the sidebar after install opens the walkthrough, once.
  await activity.click();
  const title = page.locator('.gettingStartedContainer', { hasText: 'Get Started with Azure OpenAI Workbench' });
  await title.first().waitFor({ timeout: 30_000 });

  // 1. No account: the local emulator, started from the step's button, becomes a connection.
  // No `opens`: a slow start must not be pressed into a second one.
  await pressStepButton(page, 'Connect: no account needed', 'Start the Local Emulator');
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Local emulator' }).first().waitFor({ timeout: 30_000 });
  await expectChecked(page, 'Connect: no account needed');
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Local emulator' }).first().click();
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Deployments' }).first().click();
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'gpt-4o-mini' }).first().waitFor({ timeout: 30_000 });
  await stepPicture(page, artifacts, 'connect', ['sidebar']);

  // 2. A chat with a deployment: the step checks itself when the reply is in.
  await pressStepButton(page, 'Chat with a deployment', 'Open Chat', page.locator('.quick-input-widget .monaco-list-row', { hasText: /gpt-4o-mini(?!-)/ }).first());
  // Picked with the mouse: the keyboard's focus may still be on the walkthrough's button.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: /gpt-4o-mini(?!-)/ }).first().click({ timeout: 20_000 });
  const chat = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  const input = chat.locator('#input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('/markdown');
  await input.press('Enter');
  await chat.locator('.turn.assistant:not(.streaming) .turn-foot', { hasText: 'tokens' }).first().waitFor({ timeout: 30_000 });
  await stepPicture(page, artifacts, 'chat', ['editor']);
  await readmePicture(page, artifacts, 'chat');
  await expectChecked(page, 'Chat with a deployment');

  // 3. Listening, with a new webhook endpoint pointed at the listener.
  const widget = page.locator('.quick-input-widget');
  await pressStepButton(page, 'Start listening for webhooks', 'Start Listening', widget.locator('.quick-input-title', { hasText: 'Listening: point a webhook endpoint here?' }));
  await widget.locator('.quick-input-title', { hasText: 'Listening: point a webhook endpoint here?' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'Create a webhook endpoint' }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Events to receive' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: 'Listening' }).first().waitFor({ timeout: 30_000 });
  await expectChecked(page, 'Start listening for webhooks');
  await stepPicture(page, artifacts, 'listen', ['sidebar', 'statusbar']);

  // 4. A test event, opened from its row in the inspector.
  // Seen on a loaded machine: the header took the focus back and the picker never came.
  await pressStepButton(page, 'Send a test event and inspect it', 'Send Test Event', widget.locator('.quick-input-title', { hasText: 'Send a test event of type' }));
  await widget.locator('.quick-input-title', { hasText: 'Send a test event of type' }).waitFor({ timeout: 30_000 });
  await widget.locator('.monaco-list-row', { hasText: 'response.completed' }).first().click();
  const events = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Webhook Events' }) });
  const row = events.locator('.monaco-list-row[aria-label^="response.completed, verified"]').first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
  let inspector = false;
  for (let i = 0; i < 150 && !inspector; i++) {
    for (const f of page.frames()) if (await f.$('#delivery #title').catch(() => null)) inspector = true;
    if (!inspector) await page.waitForTimeout(200);
  }
  if (!inspector) throw new Error('the delivery inspector did not open');
  await stepPicture(page, artifacts, 'inspect', ['sidebar', 'editor']);
  await readmePicture(page, artifacts, 'webhooks');
  await expectChecked(page, 'Send a test event and inspect it');

  // 6. Debugging with webhooks, from the step's own button: no launch.json and no debugger picker
  // (VS Code's picker closed before it was answered in one run in three); the session starts,
  // forwarding to the app's URL, and stops from the debug toolbar as a user would.
  const forwardInput = page.locator('.quick-input-widget .quick-input-title', { hasText: 'forward verified deliveries to' });
  await pressStepButton(page, 'Debug your app with webhooks', 'Start Debugging with Webhooks', forwardInput);
  await answer(page, 'forward verified deliveries to', 'http://127.0.0.1:3000/webhook', { single: true });
  const toolbar = page.locator('.debug-toolbar');
  await toolbar.waitFor({ timeout: 30_000 });
  await stepPicture(page, artifacts, 'debug', ['sidebar', 'editor']);
  await expectChecked(page, 'Debug your app with webhooks');
  await toolbar.locator('.action-label.codicon-debug-stop, .action-label.codicon-debug-disconnect').first().click();
  await toolbar.waitFor({ state: 'hidden', timeout: 30_000 });

  // 5. VS Code's chat: the deployments in its model picker, from the step's button. Its chat sends
  // nothing until the user signs in to GitHub Copilot (a sign-in dialog, offline here), so the step
  // checks itself from another use of the models: an extension asking one through vscode.lm.
  // Pressed again if the step's header took the focus back before Enter (the focus left there, as seen once in a whole run).
  const chatFocused = page.locator('.part.auxiliarybar .interactive-input-part:focus-within, input[placeholder="Search models"]');
  await pressStepButton(page, "Use a deployment in VS Code's chat", 'Choose the Model', chatFocused);
  // The button opens VS Code's chat, puts the focus in its input and opens the model picker (a
  // picker opened before the focus got there closes): once the focus is in either, the picker,
  // from its button in the input when it is not open (openModelPicker tries again if it closes).
  await page.waitForFunction(
    () => !!document.activeElement?.closest('.part.auxiliarybar .interactive-input-part') || document.activeElement?.getAttribute('placeholder') === 'Search models',
    undefined,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(500);
  const picker = await openModelPicker(page);
  const chatInput = page.locator('.part.auxiliarybar .interactive-input-part').first();
  await stepPicture(page, artifacts, 'vscodeChat', [picker, chatInput], async () => void (await openModelPicker(page)));
  await page.keyboard.press('Escape');
  // For the README: the same picker beside a chat of ours in the editor.
  await page.locator('.tabs-container .tab', { hasText: 'Chat with gpt-4o-mini' }).first().click();
  await page.locator('.tabs-container .tab.active', { hasText: 'Chat with gpt-4o-mini' }).first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1000);
  await openModelPicker(page);
  await readmePicture(page, artifacts, 'vscode-chat');
  await page.keyboard.press('Escape');
  // Choosing a model is not using it: the step waits for a reply.
  await openWalkthrough(page);
  if ((await step(page, "Use a deployment in VS Code's chat").getAttribute('aria-checked')) === 'true') throw new Error("VS Code's chat step is checked before any reply");
  await reloadWithModelConsumer(page);
  // The local emulator went with the window: started again for the models to answer. (The icon
  // only when the sidebar is not showing ours already: a second click would hide it.)
  const resources = page.locator('.part.sidebar .pane-header', { hasText: 'Resources' }).first();
  // Right after the reload the sidebar may still be restoring ours: given a moment before deciding (clicking then would hide it).
  await resources.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
  if (!(await resources.isVisible())) await page.locator('.activitybar [aria-label^="Azure OpenAI"]').first().click();
  await page.locator('.part.sidebar .monaco-button', { hasText: 'Start Local Emulator' }).first().click({ timeout: 30_000 });
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Local emulator' }).first().waitFor({ timeout: 30_000 });
  // The walkthrough open again first, as the user following it has it: VS Code starts watching for
  // its steps' events when a walkthrough is first shown, and does not count what came before.
  await openWalkthrough(page);
  await runCommand(page, 'LM Consumer: Ask an Azure OpenAI Model');
  // The consumer may wait up to 30 s for the models of the emulator started again, then asks: its
  // first word, an answer or why not, and then what it was (a failure lists the notifications).
  await expectNotification(page, /LM Consumer: /, 60_000);
  await expectNotification(page, /LM Consumer: gpt-4o-mini \(Local emulator\) answered [1-9]\d* characters/);
  await expectChecked(page, "Use a deployment in VS Code's chat");

  // Every step checked: the finished walkthrough.
  await openWalkthrough(page);
  const steps = page.locator('.getting-started-step');
  const n = await steps.count();
  const done = await page.locator('.getting-started-step[aria-checked="true"]').count();
  if (n !== 6 || done !== 6) throw new Error(`${done} of ${n} steps checked: every step should be`);
  // The picture of it: no notifications over it, the list of steps in view from the first.
  await runCommand(page, 'Notifications: Clear All Notifications');
  await step(page, 'Connect: no account needed').click();
  // The terminal panel the debug step opened, out of the way (Ctrl+J toggles it).
  if (await page.locator('.part.panel').first().isVisible()) await page.keyboard.press('Control+j');
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(artifacts, 'walkthrough-finished.png') });
}
