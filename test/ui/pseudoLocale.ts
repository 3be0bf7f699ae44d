// The extension in another language, in the real workbench: the display language is the
// pseudo-locale (qps-ploc: every letter of every translated text accented), made from the English
// texts at test time (scripts/host/pseudoLocale.mjs). A user adds a connection, listens, receives
// a delivery, inspects it and chats; at each step every text of ours on screen (the sidebar, the
// status bar, the panels' tabs and pages) must be translated. What is left in plain Latin letters
// must be data: names, ids, URLs, JSON, numbers, times.
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { backgroundResponse, inspectorFrame } from './webhooks';
import { expandRow, runCommand } from './workbench';

/** The connection's name, typed by the user: data (its dash makes it one). */
const CONNECTION = 'QPS-Emulator';
/** Words of data with nothing that marks them so: the clock's AM/PM. */
const DATA_WORDS = new Set(['AM', 'PM']);
/** VS Code's own words beside ours (it has no pseudo-locale pack here, so they stay English). */
const VSCODE_OWN = ["(Press 'Enter' to confirm or 'Escape' to cancel)", "Press 'Enter' to confirm your input or 'Escape' to cancel"];

/** What a quick input shows of ours: title, prompt or validation message, the rows, the box's placeholder (its buttons are VS Code's). */
const QUICK_INPUT_OURS = '.quick-input-title, .quick-input-message, .quick-input-list .monaco-list-row, .quick-input-box';

/** Visible text (and placeholders) under `roots` in `frame`, outside elements that show data (code, JSON, model output). */
async function visibleTexts(frame: Page | Frame, roots: string, dataElements: string): Promise<string[]> {
  return frame.evaluate(
    // No named function inside: the journey is compiled with esbuild's keepNames, whose helper the page lacks.
    ([rootSelector, skip]) => {
      const out: string[] = [];
      for (const root of document.querySelectorAll(rootSelector)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          const text = n.textContent?.trim();
          if (!text || !el || (skip && el.closest(skip))) continue;
          if (el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden') out.push(text);
        }
        for (const input of root.querySelectorAll('input[placeholder], textarea[placeholder]')) {
          if (input.getClientRects().length > 0 && getComputedStyle(input).visibility !== 'hidden') out.push((input as HTMLInputElement).placeholder);
        }
      }
      return out;
    },
    [roots, dataElements] as const,
  );
}

/** The English words in `text`: Latin-letter words that are not data-shaped (digits, dots, slashes, dashes…) nor data. */
export function englishWords(text: string): string[] {
  return VSCODE_OWN.reduce((rest, own) => rest.split(own).join(' '), text)
    .split(/\s+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => /[A-Za-z]/.test(word) && !/[\d._/:@#=\\-]/.test(word) && !DATA_WORDS.has(word));
}

/** Collects, per place on screen, the texts with English left in them. */
class Leaks {
  readonly found = new Map<string, Set<string>>();
  add(where: string, texts: string[]): void {
    for (const text of texts) {
      if (!englishWords(text).length) continue;
      if (!this.found.has(where)) this.found.set(where, new Set());
      this.found.get(where)!.add(text.length > 120 ? `${text.slice(0, 120)}…` : text);
    }
  }
  report(): string {
    return [...this.found].map(([where, texts]) => `${where}:\n      ${[...texts].join('\n      ')}`).join('\n    ');
  }
}

export async function pseudoLocaleThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  const pseudo = server.pseudoLocale;
  if (!pseudo) throw new Error('this journey runs in the pseudo-locale (locale: qps-ploc in journeys.ts)');
  const nls = (key: string) => pseudo.nls[key] ?? fail(`package.nls.json has no "${key}"`);
  const t = (message: string) => pseudo.bundle[message] ?? fail(`the l10n bundle has no "${message}"`);
  const before = (message: string) => t(message).split('{0}')[0].trim();
  const leaks = new Leaks();
  const sidebar = async (step: string) => leaks.add(`sidebar (${step})`, await visibleTexts(page, '.part.sidebar', '.monaco-hover'));

  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activity = page.locator(`.activitybar [aria-label^="${nls('viewsContainer.aoaiWorkbench.title')}"]`).first();
  await activity.waitFor({ timeout: 60_000 });
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } });
  await activity.click();
  // No connection yet: the welcome view, with its buttons.
  const addConnection = /\[([^\]]+)\]\(command:aoaiWorkbench\.addConnection\)/.exec(nls('viewsWelcome.resources.noConnection'))![1];
  // Exactly it: "Add Connection from Azure" begins with the same words.
  const addButton = page.locator('.welcome-view-content .monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(addConnection)}\\s*$`) }).first();
  await addButton.waitFor({ timeout: 30_000 });
  await sidebar('welcome');
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-welcome.png') });

  // Add Connection, from the welcome view's button: the wizard's steps, in the pseudo-locale. The
  // walkthrough may open at this first look at the sidebar: its editor comes first, then the wizard.
  await page.locator('.tab', { hasText: 'Welcome' }).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(1_000);
  await addButton.click();
  const widget = page.locator('.quick-input-widget');
  const step = async (n: string, text?: string) => {
    await widget.locator('.quick-input-title', { hasText: n }).waitFor({ timeout: 30_000 });
    leaks.add(`quick input ${n}`, await visibleTexts(page, QUICK_INPUT_OURS, ''));
    if (text !== undefined) await widget.locator('input.input').fill(text);
    await page.keyboard.press('Enter');
  };
  await step('(1/4)', `${emulator.url}/openai/v1/`);
  await step('(2/4)');
  await step('(3/4)', emulator.key);
  await step('(4/4)', CONNECTION);

  // The connection, its deployments and its (empty) webhook endpoints.
  const treeRow = (text: string) => page.locator('.monaco-list-row', { hasText: text }).first();
  await treeRow(CONNECTION).waitFor({ timeout: 30_000 });
  await expandRow(treeRow(CONNECTION), treeRow(t('Deployments')));
  await expandRow(treeRow(t('Deployments')), treeRow('gpt-4o-mini'));
  await expandRow(treeRow(t('Webhook endpoints')), treeRow(t('No webhook endpoints yet: click to create one')));
  await sidebar('connection');

  // Start Listening from the palette; a delivery arrives, verified, and opens in the inspector.
  await runCommand(page, `${nls('command.category')}: ${nls('command.startListening.title')}`);
  await widget.locator('.quick-input-title', { hasText: t('Listening: point a webhook endpoint here?') }).waitFor({ timeout: 30_000 });
  leaks.add('quick input (listening)', await visibleTexts(page, QUICK_INPUT_OURS, ''));
  await widget.locator('.monaco-list-row', { hasText: t('Create a webhook endpoint') }).first().click();
  await widget.locator('.quick-input-title', { hasText: t('Events to receive') }).waitFor();
  await page.keyboard.press('Enter');
  const status = page.locator('.statusbar-item', { hasText: before('Listening · {0}') }).first();
  await status.waitFor({ timeout: 30_000 });
  leaks.add('status bar', [await status.innerText()]);
  await backgroundResponse(emulator, 'notify me');
  // In the Webhook Events view (the closed events picker keeps rows of that name in the page too).
  const eventsPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: nls('view.events.name') }) });
  const row = eventsPane.locator('.monaco-list-row', { hasText: 'response.completed' }).first();
  await row.waitFor({ timeout: 30_000 });
  await sidebar('a delivery');
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-sidebar.png') });
  await row.click();
  const inspector = await inspectorFrame(page);
  await inspector.locator('#title', { hasText: 'response.completed' }).waitFor({ timeout: 30_000 });
  // The delivery's own headers and body are data.
  leaks.add('delivery inspector', await visibleTexts(inspector, 'body', 'pre, code, textarea, .mono'));
  leaks.add('editor tabs', await visibleTexts(page, '.tabs-container .tab.active .label-name', ''));
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-inspector.png') });

  // A chat: the panel, then a reply (the reply itself is the model's: data).
  await runCommand(page, `${nls('command.category')}: ${nls('command.openChat.title')}`);
  await widget.locator('.monaco-list-row', { hasText: 'gpt-4o-mini' }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.type('gpt-4o-mini');
  await page.keyboard.press('Enter');
  // The chat page's frame (the inspector's is open too).
  let chatPage: Frame | undefined;
  for (let i = 0; i < 150 && !chatPage; i++) {
    for (const f of page.frames()) if (await f.$('#messages').catch(() => null)) chatPage = f;
    if (!chatPage) await page.waitForTimeout(200);
  }
  if (!chatPage) throw new Error('the chat page did not open');
  const input = chatPage.locator('#input');
  await input.waitFor({ timeout: 30_000 });
  // Its text names the chat's tab: a data-shaped one, so the tab's title counts as data.
  await input.fill('qps-hello');
  await input.press('Enter');
  await chatPage.locator('.turn.assistant:not(.streaming) .turn-foot').first().waitFor({ timeout: 30_000 });
  leaks.add('chat panel', await visibleTexts(chatPage, 'body', 'pre, code, textarea, .turn-body'));
  leaks.add('editor tabs', await visibleTexts(page, '.tabs-container .tab.active .label-name', ''));
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-chat.png') });

  if (leaks.found.size) throw new Error(`English left on screen in the pseudo-locale:\n    ${leaks.report()}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fail(message: string): never {
  throw new Error(message);
}
