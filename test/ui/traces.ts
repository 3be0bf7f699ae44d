// Traces through the UI (issue 39): another extension runs a turn with a tool call through VS
// Code's Language Model API (./lmConsumer, as a chat participant would); Show Trace from the
// command palette lists the newest first, and its timeline page lists the tool run's span beside
// the request that brought the result back; keyboard, light and dark, 300 px. With UPDATE_MEDIA=1
// the README's picture of it is written into media/.
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { ArtifactsFolder, EmulatorHandle } from './handles';
import { frameWith } from './jobs';
import { expectNotification, readmePicture, reloadWithModelConsumer } from './walkthrough';
import { addConnectionThroughTheUi, runCommand, setWebviewWidth, useTheme } from './workbench';

/** The timeline page's frame, once it drew its spans. */
const traceFrame = (page: Page): Promise<Frame> => frameWith(page, 'body[data-ready="true"] .span');

export async function tracesThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  await reloadWithModelConsumer(page);
  await runCommand(page, 'View: Close Primary Side Bar');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');

  // A turn with a tool call, by another extension: asked, run by it, answered.
  // Not titled like the walkthrough's 'Ask an Azure OpenAI Model': typed there, the palette listed both, this one first once used.
  await runCommand(page, 'LM Consumer: Use a Tool Through an Azure OpenAI Model');
  await expectNotification(page, /LM Consumer: 1 tool call, then \d+ characters/, 60_000);

  // Show Trace: the newest first, the request that brought the tool's result.
  await runCommand(page, 'Azure OpenAI: Show Trace');
  const newest = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'turn gpt-4o-mini' }).first();
  await newest.waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  const frame = await traceFrame(page);
  const tool = frame.locator('.span', { hasText: 'execute_tool get_weather' });
  await tool.waitFor({ timeout: 30_000 });
  await frame.locator('.span', { hasText: 'chat gpt-4o-mini' }).first().waitFor();
  // Its attributes: the call's id and the result's size, never the result.
  const text = await frame.locator('body').innerText();
  if (text.includes('snow over the fjord')) throw new Error('the tool result itself is on the trace page');
  // Keyboard: Enter on a span shows its attributes (the GenAI names, the call's id, the result's size).
  await tool.locator('.span-row').focus();
  await page.keyboard.press('Enter');
  await tool.locator('dl', { hasText: 'gen_ai.tool.call.id' }).waitFor();
  await frame.locator('.span', { hasText: 'chat gpt-4o-mini' }).first().locator('.span-row').click();
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.screenshot({ path: join(artifacts, 'trace-tool.png') });
  await readmePicture(page, artifacts, 'trace');

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, frame, theme);
    await setWebviewWidth(page, frame, 300);
    const wide = await frame.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    if (wide) throw new Error(`the trace page scrolls sideways at 300 px (${theme})`);
    await page.screenshot({ path: join(artifacts, `trace-${theme}-300.png`) });
  }
}
