/**
 * The trace timeline page in Chromium, as the extension writes its document (strict CSP, the
 * pages' script, trace.css) in every theme: a 50-span turn renders as bars with their times, the
 * 429 is marked as an error in words, the keyboard moves between spans and opens a span's
 * attributes, a narrow panel needs no sideways scrolling, and a message that is not a trace is dropped.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { traceBodyHtml } from '../../src/webview/trace/markup';
import { pageDocument } from '../../src/webview/shared/pageDocument';
import { buildPageScript, launch, openDocument, type OpenPage } from '../support/pageHarness';
import { THEMES, type ThemeName } from '../support/pageThemes';
import { sampleTrace } from '../support/traces';

const documentFor = (origin: string) =>
  pageDocument({
    ...{ lang: 'en', cspSource: origin, nonce: 'n0nce', title: 'Trace', style: 'trace.css', page: 'trace', script: 'pages.js' },
    asset: (...path) => `${origin}/${path.join('/')}`,
    body: traceBodyHtml(),
  });

describe('the trace timeline page (Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let script: string;
  before(async () => {
    browser = await launch();
    script = await buildPageScript('pages');
  });
  after(() => browser?.close());

  const trace = sampleTrace(50);
  async function open(theme: ThemeName, width = 1000): Promise<OpenPage> {
    const page = await openDocument(browser, { document: documentFor, script, themeVariables: THEMES[theme], width });
    await page.post({ type: 'trace', trace });
    await page.page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    return page;
  }
  const focusedName = (p: OpenPage) => p.page.evaluate("document.activeElement.closest('li').querySelector('.name').textContent");

  for (const theme of ['light', 'dark', 'highContrast'] as ThemeName[]) {
    it(`renders every span as a bar on the time line with its duration, errors in words (${theme})`, async () => {
      const p = await open(theme);
      try {
        assert.equal(await p.page.locator('.span').count(), 50);
        assert.equal(await p.page.locator('#title').textContent(), 'turn gpt-4o');
        const summary = await p.page.locator('#summary').textContent();
        assert.match(summary!, /^50 spans over \d+ ms, [1-9]\d* with errors$/);
        const refused = p.page.locator('.span.error').first();
        assert.match((await refused.locator('.error-text').textContent())!, /^Error: rate limited \(429\)$/);
        assert.equal(await refused.locator('.codicon-error').count(), 1);
        // The bars sit on the trace's line: the first at its start, a later one further right.
        const left = (i: number) => p.page.locator('.bar').nth(i).evaluate((e) => e.getBoundingClientRect().left);
        assert.ok((await left(0)) < (await left(49)), 'later spans start further right');
        const colours = await p.page.evaluate(`[getComputedStyle(document.querySelector('.span:not(.error) .bar')).backgroundColor,
          getComputedStyle(document.querySelector('.span.error .bar')).backgroundColor]`) as string[];
        assert.notEqual(colours[0], colours[1], 'an error bar has a colour of its own');
        assert.deepEqual(p.problems.concat(await p.page.evaluate('window.__problems')), [], 'script errors or CSP violations');
      } finally {
        await p.page.context().close();
      }
    });
  }

  it('the keyboard moves between spans and opens a span\'s attributes; a screen reader hears each row', async () => {
    const p = await open('dark');
    try {
      await p.page.locator('.span-row').first().focus();
      assert.equal(await focusedName(p), 'turn gpt-4o');
      await p.page.keyboard.press('ArrowDown');
      assert.equal(await focusedName(p), 'chat gpt-4o');
      await p.page.keyboard.press('End');
      const lastName = await p.page.locator('.name').nth(49).textContent();
      assert.equal(await focusedName(p), lastName);
      await p.page.keyboard.press('Home');
      await p.page.keyboard.press('ArrowDown');
      await p.page.keyboard.press('Enter');
      const row = p.page.locator('.span-row').nth(1);
      assert.equal(await row.getAttribute('aria-expanded'), 'true');
      const details = p.page.locator(`#${(await row.getAttribute('aria-controls'))!}`);
      assert.ok(await details.isVisible());
      assert.match((await details.textContent())!, /gen_ai\.operation\.namechat.*gen_ai\.request\.modelgpt-4o/);
      const name = await row.evaluate((e) => e.textContent);
      assert.match(name!, /^chat gpt-4o\d+ ms · \+\d+(\.\d)? ms$/, 'the row says its name, duration and start');
      assert.equal(await p.page.locator('.track').first().getAttribute('aria-hidden'), 'true', 'the bar is drawing only');
    } finally {
      await p.page.context().close();
    }
  });

  it('fits a narrow panel without sideways scrolling, and drops a message that is not a trace', async () => {
    const p = await open('light', 320);
    try {
      const overflow = await p.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.ok((overflow as number) <= 0, `${overflow} px sideways scrolling at 320 px`);
      await p.post({ type: 'trace', trace: { ...trace, traceId: 'not hex' } });
      await p.post({ type: 'trace', trace: { ...trace, spans: [{ ...trace.spans[0], name: '<img src=x onerror=alert(1)>', spanId: 'zz' }] } });
      assert.equal(await p.page.locator('.span').count(), 50, 'the bad messages changed nothing');
      await p.post({ type: 'trace', trace: { ...trace, spans: [{ ...trace.spans[0], name: '<img src=x>' }] } });
      assert.equal(await p.page.locator('.name').first().textContent(), '<img src=x>', 'a name is shown as text');
      assert.equal(await p.page.locator('img').count(), 0);
    } finally {
      await p.page.context().close();
    }
  });
});
