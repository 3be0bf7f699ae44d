/**
 * Screenshots of every page in Chromium, in each theme, wide and at 300 px, after its scenario's
 * last state with keyboard focus on a button: for looking at a style change before and after.
 * `npx tsx test/support/pageShots.ts <folder>` (writes <page>-<theme>-<width>.png there).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatBodyHtml } from '../../src/webview/chat/markup';
import { compareBodyHtml } from '../../src/webview/compare/markup';
import { fineTuningBodyHtml } from '../../src/webview/fineTuning/markup';
import { inspectorBodyHtml } from '../../src/webview/inspector/markup';
import { usageBodyHtml } from '../../src/webview/usage/markup';
import { FINE_TUNING } from './jobPageScenarios';
import { buildPageScript, launch, markupIn, openPage, type PageScript } from './pageHarness';
import { CHAT, COMPARE, INSPECTOR, USAGE, type Scenario } from './pageScenarios';
import { THEMES, themeCss, type ThemeName } from './pageThemes';

const root = join(__dirname, '..', '..');
const PAGES: { name: string; style: string; script: PageScript; page?: string; markup: () => string; scenario: Scenario }[] = [
  { name: 'chat', style: 'chat.css', script: 'pages', page: 'chat', markup: chatBodyHtml, scenario: CHAT },
  { name: 'compare', style: 'compare.css', script: 'pages', page: 'compare', markup: compareBodyHtml, scenario: COMPARE },
  { name: 'inspector', style: 'inspector.css', script: 'inspector', markup: inspectorBodyHtml, scenario: INSPECTOR },
  { name: 'usage', style: 'usage.css', script: 'usage', markup: usageBodyHtml, scenario: USAGE },
  { name: 'fineTuning', style: 'fineTuning.css', script: 'pages', page: 'fineTuning', markup: fineTuningBodyHtml, scenario: FINE_TUNING },
];

async function main(out: string) {
  mkdirSync(out, { recursive: true });
  const media = (f: string) => (existsSync(join(root, 'media', f)) ? readFileSync(join(root, 'media', f), 'utf8') : '');
  const browser = await launch();
  try {
    for (const p of PAGES) {
      const script = await buildPageScript(p.script);
      for (const theme of Object.keys(THEMES) as ThemeName[]) {
        const css = [themeCss(theme), media('controls.css'), media(p.style)].join('\n');
        const page = await openPage(browser, { script, markup: markupIn(undefined, p.markup), page: p.page, css });
        try {
          await p.scenario.run(page, async () => {});
          for (let i = 0; i < 12 && !(await page.page.evaluate('document.activeElement?.tagName === "BUTTON"')); i++) await page.page.keyboard.press('Tab');
          for (const width of [800, 300]) {
            await page.page.setViewportSize({ width, height: 700 });
            await page.page.screenshot({ path: join(out, `${p.name}-${theme}-${width}.png`), fullPage: true });
          }
          if (page.problems.length) console.log(p.name, theme, page.problems);
        } finally {
          await page.page.context().close();
        }
      }
    }
  } finally {
    await browser.close();
  }
}

void main(process.argv[2] ?? 'shots');
