/**
 * The pages in another language: each page, in Chromium, with the bundle `npm run l10n` exports
 * from src pseudo-localized as `l10n-dev generate-pseudo` does (every letter accented), handed to the
 * page in its HTML as the extension hands it. Driven through its states by the extension's
 * messages, a page may show no Latin letter left but the data (names, URLs, JSON, ids). The same
 * pages without a bundle speak English, the words of each state on screen: so each state was
 * reached, and the check does see English where it is left.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { StringsBundle } from '../../src/webview/shared/l10nBundle';
import { chatBodyHtml } from '../../src/webview/chat/markup';
import { compareBodyHtml } from '../../src/webview/compare/markup';
import { fineTuningBodyHtml } from '../../src/webview/fineTuning/markup';
import { inspectorBodyHtml } from '../../src/webview/inspector/markup';
import { usageBodyHtml } from '../../src/webview/usage/markup';
import { buildPageScript, englishLeft, launch, markupIn, openPage, pseudoBundle, type OpenPage, type PageScript } from '../support/pageHarness';
import { FINE_TUNING } from '../support/jobPageScenarios';
import { CHAT, COMPARE, INSPECTOR, USAGE, type Scenario } from '../support/pageScenarios';

interface PageCase {
  name: string;
  script: PageScript;
  page?: string;
  markup: () => string;
  scenario: Scenario;
}

const PAGES: PageCase[] = [
  { name: 'chat', script: 'pages', page: 'chat', markup: chatBodyHtml, scenario: CHAT },
  { name: 'compare', script: 'pages', page: 'compare', markup: compareBodyHtml, scenario: COMPARE },
  { name: 'delivery inspector', script: 'inspector', markup: inspectorBodyHtml, scenario: INSPECTOR },
  { name: 'usage', script: 'usage', markup: usageBodyHtml, scenario: USAGE },
  { name: 'fine-tuning job', script: 'pages', page: 'fineTuning', markup: fineTuningBodyHtml, scenario: FINE_TUNING },
];

describe('the pages in another language (Chromium, the exported bundle pseudo-localized)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let bundle: StringsBundle;
  const scripts = new Map<PageScript, string>();

  before(async () => {
    [browser, bundle] = await Promise.all([launch(), pseudoBundle()]);
    for (const s of ['pages', 'inspector', 'usage'] as const) scripts.set(s, await buildPageScript(s));
  });
  after(() => browser?.close());

  /** Every string the page shows through the scenario's states, with or without the bundle. */
  async function stringsOf(c: PageCase, withBundle: StringsBundle | undefined): Promise<{ strings: string[]; problems: string[] }> {
    const markup = markupIn(withBundle, c.markup);
    const page: OpenPage = await openPage(browser, { script: scripts.get(c.script)!, markup, bundle: withBundle, page: c.page });
    try {
      const strings = new Set<string>(await page.strings());
      await c.scenario.run(page, async () => (await page.strings()).forEach((s) => strings.add(s)));
      return { strings: [...strings], problems: page.problems };
    } finally {
      await page.page.context().close();
    }
  }

  for (const c of PAGES) {
    it(`the ${c.name} page says every word of its own in the bundle's language, and only data is left as it came`, async () => {
      const english = await stringsOf(c, undefined);
      for (const words of c.scenario.english) assert.ok(english.strings.some((s) => s.includes(words)), `without a bundle the page should say "${words}"`);
      assert.ok(englishLeft(english.strings, c.scenario.data).length >= c.scenario.english.length, 'the check sees English on an English page');

      const translated = await stringsOf(c, bundle);
      assert.deepEqual(englishLeft(translated.strings, c.scenario.data), [], 'strings of the page not in the bundle');
      assert.deepEqual([...english.problems, ...translated.problems], [], 'script errors or CSP violations');
    });
  }

  it('the bundle block is data under the strict CSP: a page reads it, and a `</script>` in a message cannot end it', async () => {
    const hostile: StringsBundle = { ...bundle, Send: '</script><script>window.__ran = 1</script>' };
    const page = await openPage(browser, { script: scripts.get('pages')!, markup: markupIn(hostile, chatBodyHtml), bundle: hostile, page: 'chat' });
    try {
      await page.post({ type: 'init', conversation: CHAT_EMPTY, deployments: [], busy: false });
      assert.equal(await page.page.evaluate('window.__ran'), undefined);
      assert.equal(await page.page.locator('#send').textContent(), '</script><script>window.__ran = 1</script>');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.page.context().close();
    }
  });
});

const CHAT_EMPTY = { id: 'c', title: 'x', connectionId: 'c1', connectionLabel: 'Emulator', deployment: 'gpt-4o', params: { systemPrompt: '', route: 'v1' }, turns: [] };
