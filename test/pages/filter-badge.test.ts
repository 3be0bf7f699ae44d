/**
 * The content filter's badge on a reply (Chromium, the chat page's own script): a protected-material
 * verdict says which source the reply matched, and the citation's URL and license (the service's
 * text) are shown as text, never as a link or markup, even when they look like HTML.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { chatBodyHtml } from '../../src/webview/chat/markup';
import { buildPageScript, launch, markupIn, openPage } from '../support/pageHarness';

const HOSTILE_URL = 'https://github.com/contoso/x"><a id="injected" href="javascript:window.__ran=1">click</a>';
const verdict = (filtered: boolean, url: string) => ({
  category: 'protected_material_code',
  key: 'protected_material_code',
  where: 'reply',
  filtered,
  citation: { url, license: '<b>MIT</b>' },
});
const conversation = (filterVerdicts: unknown[]) => ({
  ...{ id: 'c', title: 'x', connectionId: 'c1', connectionLabel: 'Emulator', deployment: 'gpt-4o', params: { systemPrompt: '', route: 'v1' } },
  turns: [
    { id: 'u1', role: 'user', content: 'fib please', createdAt: 1 },
    { id: 'a1', role: 'assistant', content: 'def fib(n): ...', createdAt: 2, deployment: 'gpt-4o', finishReason: 'stop', filterVerdicts },
  ],
});

describe('the content filter badge on a reply (Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let script: string;
  before(async () => {
    [browser, script] = await Promise.all([launch(), buildPageScript('pages')]);
  });
  after(() => browser?.close());

  it('an annotation of protected material (code) says the reply tripped it, with its cited URL and license as text, never a link', async () => {
    const page = await openPage(browser, { script, markup: markupIn(undefined, chatBodyHtml), page: 'chat' });
    try {
      await page.post({ type: 'init', conversation: conversation([verdict(false, HOSTILE_URL)]), deployments: [], busy: false });
      const badge = page.page.locator('.filter-badge');
      await badge.waitFor({ state: 'attached', timeout: 10_000 });
      const rows = await badge.locator('div').allTextContents();
      assert.ok(
        rows.includes(`The reply tripped protected material (code): it matches published code at ${HOSTILE_URL} (license: <b>MIT</b>).`),
        `the badge's rows: ${JSON.stringify(rows)}`,
      );
      assert.equal(await badge.locator('a, b').count(), 0, 'no link or markup inside the badge');
      assert.equal(await page.page.locator('#injected').count(), 0);
      assert.equal(await page.page.evaluate('window.__ran'), undefined);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.page.context().close();
    }
  });
});
