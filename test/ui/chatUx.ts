// The chat panel's UX (issue 17) through the UI: following the reply, the draft kept after an
// error, narrow widths and themes, per-message actions, the context meter, Ask About Selection.
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { openChatThroughTheUi } from './chat';
import type { ArtifactsFolder, EmulatorHandle } from './handles';
import { addConnectionThroughTheUi, runCommand, setWebviewWidth, useTheme } from './workbench';

/** The chat page's frame (for reading layout), found by its conversation element. */
async function chatPageFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const f of page.frames()) if (await f.$('#messages').catch(() => null)) return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the chat page frame was not found');
}

/** How far the conversation is scrolled from its end, in px. */
const distanceToEnd = (frame: Frame): Promise<number> => frame.evaluate(() => {
  const log = document.getElementById('messages')!;
  return Math.round(log.scrollHeight - log.scrollTop - log.clientHeight);
});

export async function chatUxThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  // The chat alone in the editor area: the sidebar closed, so narrow widths are the panel's own.
  await runCommand(page, 'View: Close Primary Side Bar');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  const { chat, input } = await openChatThroughTheUi(page, 'gpt-4o-mini');
  const frame = await chatPageFrame(page);
  // The empty chat offers example prompts (one fills the box) and points to the system prompt.
  await chat.locator('.empty .example').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'chat-first-run.png') });
  await chat.locator('.empty .example').first().click();
  if (!(await input.inputValue()).startsWith('Explain what this regular expression')) throw new Error('an example prompt did not fill the message box');
  await chat.locator('.empty [data-action="open-settings"]').click();
  await chat.locator('#system-prompt').waitFor({ state: 'visible' });
  await chat.locator('details.settings summary').click();
  await input.fill('');
  const finishedReplies = () => chat.locator('.turn.assistant:not(.streaming)').count();
  const waitForReplies = async (n: number): Promise<void> => {
    for (let i = 0; i < 300 && (await finishedReplies()) < n; i++) await page.waitForTimeout(200);
    if ((await finishedReplies()) < n) throw new Error(`expected ${n} finished replies`);
  };

  // Enough history to scroll, then an 8-line message from the end of the list: the view shows
  // the message right after sending, and the end of the reply when it is done.
  await input.fill('/long 300');
  await input.press('Enter');
  await waitForReplies(1);
  await input.fill(['/long 200', ...Array.from({ length: 7 }, (_, i) => `line ${i + 2} of a long question`)].join('\n'));
  await input.press('Enter');
  await chat.locator('.turn.user', { hasText: 'line 8 of a long question' }).waitFor();
  const afterSend = await distanceToEnd(frame);
  if (afterSend > 40) throw new Error(`after sending, the view is ${afterSend} px above the end`);
  await waitForReplies(2);
  await page.waitForTimeout(300);
  const afterReply = await distanceToEnd(frame);
  if (afterReply > 40) throw new Error(`after the reply, the view is ${afterReply} px above the end`);

  // Scrolled up while a reply streams: the view stays where the user is, "Jump to latest" appears,
  // is reachable from the keyboard, and brings the view back to following the reply.
  await input.fill('/long 1500');
  await input.press('Enter');
  await chat.locator('.turn.assistant.streaming .turn-body p').first().waitFor({ timeout: 30_000 });
  // While it streams: elapsed time and tokens so far.
  await chat.locator('.turn.assistant.streaming .turn-foot', { hasText: /Generating… \d+ s · about \d+ tokens/ }).waitFor({ timeout: 30_000 });
  const log = chat.locator('#messages');
  await log.hover();
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -400);
  const jump = chat.locator('#jump-latest');
  await jump.waitFor({ state: 'visible', timeout: 30_000 });
  const readingAt = await frame.evaluate(() => document.getElementById('messages')!.scrollTop);
  await page.waitForTimeout(1500);
  const stillAt = await frame.evaluate(() => document.getElementById('messages')!.scrollTop);
  if (Math.abs(stillAt - readingAt) > 2) throw new Error(`the view moved from ${readingAt} to ${stillAt} while the user was reading`);
  const announced = await chat.locator('#announcer').innerText();
  if (!/Jump to latest/.test(announced)) throw new Error(`the button was not announced (live region: "${announced}")`);
  await page.screenshot({ path: join(artifacts, 'chat-jump-to-latest.png') });
  await jump.focus();
  await page.keyboard.press('Enter');
  await jump.waitFor({ state: 'hidden' });
  await page.waitForTimeout(1000);
  const following = await distanceToEnd(frame);
  if (following > 40) throw new Error(`after Jump to latest the view is ${following} px above the end`);
  await chat.locator('#stop').click();
  await waitForReplies(3);
  // A stopped reply still tells its size, counted locally.
  await chat.locator('.turn.assistant .turn-foot', { hasText: /stopped/ }).filter({ hasText: /about \d+ \+ \d+ = \d+ tokens \(estimated\)/ }).waitFor();

  // A refused message comes back to the box; the refusal offers Edit (Retry would fail the same
  // way), and sending the rephrased message replaces the refused one.
  await input.fill('/filter please');
  await input.press('Enter');
  const refusal = chat.locator('.turn.assistant .error', { hasText: 'content filter' });
  await refusal.waitFor({ timeout: 30_000 });
  if ((await refusal.locator('button', { hasText: 'Retry' }).count()) !== 0) throw new Error('a content-filter refusal offers Retry');
  await refusal.locator('button', { hasText: 'Edit' }).waitFor();
  await chat.locator('#edit-banner').waitFor({ state: 'visible' });
  const draft = await input.inputValue();
  if (draft !== '/filter please') throw new Error(`the message box holds "${draft}" after the refusal`);
  await page.screenshot({ path: join(artifacts, 'chat-draft-after-refusal.png') });
  await input.fill('please, kindly');
  await input.press('Enter');
  await chat.locator('.turn.assistant .turn-body', { hasText: 'You said: please, kindly' }).waitFor({ timeout: 30_000 });
  if ((await chat.locator('.turn.user', { hasText: '/filter please' }).count()) !== 0) throw new Error('the refused message is still in the conversation');

  // Export and Clear live in the panel's title bar, not in the page.
  for (const title of ['Export Chat as Markdown', 'Export Chat as JSON', 'Clear Chat']) {
    await page.locator(`.editor-actions [aria-label="${title}"]`).first().waitFor({ timeout: 30_000 });
  }
  // Each message's actions appear on hover: edit the first message, and the conversation
  // continues from it (what followed is replaced).
  const first = chat.locator('.turn.user').first();
  await first.hover();
  const tools = first.locator('.turn-tools');
  const opacity = await tools.evaluate((el) => getComputedStyle(el).opacity);
  if (opacity !== '1') throw new Error(`the message's actions are not shown on hover (opacity ${opacity})`);
  if ((await first.locator('time').count()) !== 1) throw new Error('the message shows no time');
  await page.screenshot({ path: join(artifacts, 'chat-message-actions.png') });
  await tools.locator('[data-action="edit"]').click();
  if ((await input.inputValue()) !== '/long 300') throw new Error('Edit did not put the first message in the box');
  await input.fill('a new start');
  await input.press('Enter');
  await chat.locator('.turn.assistant .turn-body', { hasText: 'You said: a new start' }).waitFor({ timeout: 30_000 });
  const turns = await chat.locator('.turn').count();
  if (turns !== 2) throw new Error(`after editing the first message the conversation has ${turns} messages, not 2`);

  // The context meter tells how much of gpt-4o-mini's 128k window the conversation uses.
  await chat.locator('#context', { hasText: /\/ 128k \(\d+%\)/ }).waitFor({ timeout: 30_000 });

  // Ask About Selection from an editor: the chat comes back with the selection as a removable chip.
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').waitFor();
  await page.keyboard.type('File: New Untitled Text File');
  await page.locator('.quick-input-widget .monaco-list-row[aria-label^="File: New Untitled Text File"]').first().click();
  await page.locator('.editor-instance .monaco-editor').first().waitFor();
  await page.keyboard.type('function secretSauce() { return 42; }');
  await page.keyboard.press('ControlOrMeta+a');
  await runCommand(page, 'Azure OpenAI: Ask About Selection');
  const chip = chat.locator('#chips .chip', { hasText: /Untitled-\d+ \(line 1\)/ });
  await chip.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'chat-selection-attached.png') });
  await input.fill('what does this do?');
  await input.press('Enter');
  await chat.locator('.turn.assistant .turn-body', { hasText: 'secretSauce' }).waitFor({ timeout: 30_000 });
  await chat.locator('.turn.user .turn-attachments .chip', { hasText: /Untitled-\d+ \(line 1\)/ }).waitFor();
  if ((await chat.locator('#chips .chip').count()) !== 0) throw new Error('the chip stayed in the composer after sending');
  // The meter follows the conversation: the last reply's prompt and completion are the next prompt.
  const lastFoot = await chat.locator('.turn.assistant .turn-foot').last().innerText();
  const total = Number(/= (\d+) tokens/.exec(lastFoot)?.[1]);
  if (total > 0 && total < 1000) await chat.locator('#context', { hasText: new RegExp(`^${total} / 128k`) }).waitFor({ timeout: 30_000 });

  // Usable from 300 px on, in light, dark and high-contrast themes: one header row with the whole picker, a message
  // box at least three lines tall, nothing wider than the panel.
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    await useTheme(page, frame, theme);
    for (const width of [300, 360, 900, 1200]) {
      await setWebviewWidth(page, frame, width, true);
      // No named function inside a page function: tsx (keepNames) would wrap it in a `__name` helper the page lacks.
      const layout = await frame.evaluate(() => {
        const input = document.getElementById('input')!;
        const line = parseFloat(getComputedStyle(input).lineHeight);
        return {
          width: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          header: document.querySelector('header')!.getBoundingClientRect().height,
          picker: document.getElementById('deployment')!.getBoundingClientRect(),
          inputLines: (input.clientHeight - 6) / line,
          send: document.getElementById('send')!.getBoundingClientRect(),
        };
      });
      const where = `at ${width} px (${theme})`;
      if (layout.scrollWidth > layout.width + 1) throw new Error(`the page is ${layout.scrollWidth} px wide ${where}`);
      if (layout.picker.right > layout.width || layout.picker.width < 120) throw new Error(`the deployment picker is clipped ${where}: ${JSON.stringify(layout.picker)}`);
      if (layout.header > layout.picker.height + 20) throw new Error(`the header wraps (${layout.header} px tall) ${where}`);
      if (layout.inputLines < 2.9) throw new Error(`the message box shows ${layout.inputLines.toFixed(1)} lines ${where}`);
      if (layout.send.right > layout.width) throw new Error(`Send is cut off ${where}`);
      await page.screenshot({ path: join(artifacts, `chat-${theme}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  }
}
