/**
 * The controls every page shares (media/controls.css) reach every page: the document the
 * extension builds for each page links it before the page's own stylesheet, Chromium loads both
 * under the page's strict CSP, and a button, a secondary button, a toggle's chosen side and a
 * keyboard focus ring take the theme's colours, high contrast's borders included. The stylesheet
 * is packaged (.vscodeignore is an allow-list).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chatBodyHtml } from '../../src/webview/chat/markup';
import { compareBodyHtml } from '../../src/webview/compare/markup';
import { fineTuningBodyHtml } from '../../src/webview/fineTuning/markup';
import { inspectorBodyHtml } from '../../src/webview/inspector/markup';
import { pageDocument } from '../../src/webview/shared/pageDocument';
import { traceBodyHtml } from '../../src/webview/trace/markup';
import { usageBodyHtml } from '../../src/webview/usage/markup';
import { buildPageScript, launch, openDocument, type PageScript } from '../support/pageHarness';
import { THEMES, type ThemeName } from '../support/pageThemes';

const root = join(__dirname, '..', '..');
const PAGES: { style: string; script: PageScript; page?: string; markup: () => string }[] = [
  { style: 'chat.css', script: 'pages', page: 'chat', markup: chatBodyHtml },
  { style: 'compare.css', script: 'pages', page: 'compare', markup: compareBodyHtml },
  { style: 'inspector.css', script: 'inspector', markup: inspectorBodyHtml },
  { style: 'usage.css', script: 'usage', markup: usageBodyHtml },
  { style: 'fineTuning.css', script: 'pages', page: 'fineTuning', markup: fineTuningBodyHtml },
  { style: 'trace.css', script: 'pages', page: 'trace', markup: traceBodyHtml },
];

/** The page's document as the extension builds it, its files served from `origin`. */
const documentFor = (p: (typeof PAGES)[number]) => (origin: string) =>
  pageDocument({
    ...{ lang: 'en', cspSource: origin, nonce: 'n0nce', title: 'Page', style: p.style, page: p.page },
    asset: (...path) => `${origin}/${path.join('/')}`,
    script: `${p.script}.js`,
    body: p.markup(),
  });

/** `#RRGGBB` as the browser's computed colour says it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/** Probes added to the page: what a page's buttons are made of, before the page's own classes refine them. */
const PROBE = `(() => {
  const box = document.createElement('div');
  box.innerHTML = '<button id="p-primary">Go</button><button id="p-secondary" class="secondary">Other</button>'
    + '<button id="p-on" class="secondary" aria-pressed="true">On</button><button id="p-off" disabled>Off</button>';
  document.body.prepend(box);
})()`;

/** An element's computed values of these properties. */
const styleOf = async (page: Page, id: string, props: string[]): Promise<Record<string, string>> =>
  (await page.evaluate(
    `(() => { const s = getComputedStyle(document.getElementById(${JSON.stringify(id)}));
      return Object.fromEntries(${JSON.stringify(props)}.map((p) => [p, s.getPropertyValue(p)])); })()`,
  )) as Record<string, string>;

describe('the controls every page shares (media/controls.css, Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;
  const scripts = new Map<PageScript, string>();

  before(async () => {
    browser = await launch();
    for (const s of ['pages', 'inspector', 'usage'] as const) scripts.set(s, await buildPageScript(s));
  });
  after(() => browser?.close());

  it('every page stylesheet in media/ is one of the pages checked here, and controls.css is packaged', () => {
    const sheets = readdirSync(join(root, 'media')).filter((f) => f.endsWith('.css') && f !== 'controls.css');
    assert.deepEqual(sheets.sort(), PAGES.map((p) => p.style).sort());
    const allowed = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const f of ['controls.css', ...sheets]) assert.ok(allowed.includes(`!media/${f}`), `.vscodeignore ships media/${f}`);
  });

  for (const p of PAGES) {
    it(`the ${p.style.replace('.css', '')} page links controls.css before its own stylesheet, and its buttons take the theme's colours`, async () => {
      const links = [...documentFor(p)('http://o').matchAll(/<link rel="stylesheet" href="http:\/\/o\/media\/([^"]+)">/g)].map((m) => m[1]);
      assert.deepEqual(links, ['controls.css', p.style]);

      for (const theme of ['dark', 'highContrast'] as ThemeName[]) {
        const vars: Record<string, string> = THEMES[theme];
        const page = await openDocument(browser, { document: documentFor(p), script: scripts.get(p.script)!, themeVariables: vars });
        try {
          await page.page.evaluate(PROBE);
          const primary = await styleOf(page.page, 'p-primary', ['background-color', 'color', 'border-top-color', 'cursor']);
          const secondary = await styleOf(page.page, 'p-secondary', ['background-color', 'color']);
          const on = await styleOf(page.page, 'p-on', ['font-weight', 'border-top-color', 'text-decoration-line']);
          const off = await styleOf(page.page, 'p-off', ['opacity']);
          if (theme === 'dark') {
            assert.equal(primary['background-color'], rgb(vars['button-background']), 'a button has the theme button background');
            assert.equal(primary.color, rgb(vars['button-foreground']));
            assert.equal(secondary.color, rgb(vars['button-secondaryForeground']), 'a secondary button has the secondary colours');
          } else {
            assert.equal(primary['background-color'], 'rgba(0, 0, 0, 0)', 'high contrast: no button background');
            assert.equal(primary['border-top-color'], rgb(vars['button-border']), 'high contrast: the button has its border');
            assert.equal(on['border-top-color'], rgb(vars['contrastActiveBorder']), "high contrast: a toggle's chosen side has the active border");
          }
          assert.equal(primary.cursor, 'pointer');
          assert.equal(on['font-weight'], '600', "a toggle's chosen side is bold");
          assert.equal(on['text-decoration-line'], 'underline');
          assert.equal(off.opacity, '0.5', 'a disabled button looks disabled');

          await page.page.keyboard.press('Tab');
          await page.page.evaluate(`document.getElementById('p-primary').focus()`);
          const ring = await styleOf(page.page, 'p-primary', ['outline-style', 'outline-color', 'outline-width']);
          assert.deepEqual(ring, { 'outline-style': 'solid', 'outline-color': rgb(vars.focusBorder), 'outline-width': '1px' }, 'a keyboard focus ring in the focus colour');
          assert.deepEqual(page.problems.concat(await page.page.evaluate('window.__problems')), [], 'script errors or CSP violations');
        } finally {
          await page.page.context().close();
        }
      }
    });
  }
});
