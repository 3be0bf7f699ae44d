// Compare Deployments… through the UI: three deployments picked in the multi-select QuickPick,
// one prompt, replies side by side with their figures; Run again ×2 shows medians; then light,
// dark, high contrast and 300 px (the columns stack), with screenshots.
import { join } from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { ArtifactsFolder, EmulatorHandle } from './handles';
import { addConnectionThroughTheUi, runCommand, setWebviewWidth, useTheme } from './workbench';

const comparePage = (page: Page): FrameLocator => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

async function compareFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const f of page.frames()) if (await f.$('#columns').catch(() => null)) return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the compare page frame was not found');
}

async function pickDeployments(page: Page, artifacts: ArtifactsFolder, names: string[]): Promise<void> {
  await runCommand(page, 'Azure OpenAI: Compare Deployments');
  const input = page.locator('.quick-input-widget input.input');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: names[0] }).first().waitFor({ timeout: 30_000 });
  for (const name of names) {
    await input.fill(name);
    const row = page.locator(`.quick-input-widget .monaco-list-row[aria-label^="${name}, "], .quick-input-widget .monaco-list-row[aria-label="${name}"]`).first();
    await row.waitFor();
    await row.click();
  }
  await input.fill('');
  await page.screenshot({ path: join(artifacts, 'compare-pick.png') });
  await page.keyboard.press('Enter');
}

export async function compareThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await runCommand(page, 'View: Close Primary Side Bar');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  await pickDeployments(page, artifacts, ['gpt-4o', 'gpt-4o-mini', 'gpt-5-codex']);
  const view = comparePage(page);
  await view.locator('.column').nth(2).waitFor({ timeout: 30_000 });
  const frame = await compareFrame(page);
  await view.locator('#prompt').fill('/markdown');
  await view.locator('#prompt').press('Control+Enter');
  // Every column ends with its figures; replies are drawn as Markdown (a table, a code block).
  await view.locator('.column .figures dd', { hasText: /estimate|no price/ }).nth(2).waitFor({ timeout: 60_000 });
  await view.locator('#send:not([disabled])').waitFor({ timeout: 30_000 });
  if ((await view.locator('.column .reply table').count()) < 3) throw new Error('the replies were not drawn as Markdown');
  if ((await view.locator('.column .reply script, .column .reply [onerror]').count()) > 0) throw new Error('a reply put raw HTML on the page');
  await view.locator('.column .figures', { hasText: 'Tokens/s' }).first().waitFor();
  await page.screenshot({ path: join(artifacts, 'compare-replies.png') });

  // A refused prompt: each column says why, in that column (announced as an alert).
  await view.locator('#prompt').fill('/filter');
  await view.locator('#send').click();
  await view.locator('.column .error[role="alert"]', { hasText: /content/i }).nth(2).waitFor({ timeout: 30_000 });
  await view.locator('#send:not([disabled])').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'compare-filtered.png') });

  // Run again ×2: medians and ranges per column.
  await view.locator('#prompt').fill('/markdown');
  await view.locator('#runs').fill('2');
  await view.locator('#again').click();
  await view.locator('.column .median', { hasText: 'of 2/2 runs' }).nth(2).waitFor({ timeout: 90_000 });
  await view.locator('#send:not([disabled])').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'compare-medians.png') });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    await useTheme(page, frame, theme);
    for (const width of [300, 1200]) {
      await setWebviewWidth(page, frame, width);
      const layout = await frame.evaluate(() => {
        const cols = [...document.querySelectorAll('.column')].map((c) => c.getBoundingClientRect());
        const lefts = new Set(cols.map((c) => Math.round(c.left))).size;
        return { width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth, lefts, n: cols.length };
      });
      const where = `at ${width} px (${theme})`;
      if (layout.scrollWidth > layout.width + 1) throw new Error(`the page is ${layout.scrollWidth} px wide ${where}`);
      if (width === 300 && layout.lefts !== 1) throw new Error(`the columns do not stack ${where}`);
      if (width === 1200 && layout.lefts !== layout.n) throw new Error(`the columns are not side by side ${where}`);
      await page.screenshot({ path: join(artifacts, `compare-${theme}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  }
  // Export as Markdown opens the table and the replies beside the panel.
  await view.locator('#export').click();
  await page.locator('.monaco-editor .view-lines', { hasText: '| Deployment | Model | First token' }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'compare-export.png') });
}
