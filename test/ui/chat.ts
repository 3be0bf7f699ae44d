// The chat panel through the UI: streamed Markdown, Stop, a reload, reasoning and background replies.
import { join } from 'node:path';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { ArtifactsFolder, EmulatorHandle } from './handles';
import { addConnectionThroughTheUi, runCommand } from './workbench';

/** The chat page inside the webview's nested iframes. */
export function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

/** Open Chat from the palette on a deployment, as a person picks it; the page and its message box. */
export async function openChatThroughTheUi(page: Page, deployment: string): Promise<{ chat: FrameLocator; input: Locator }> {
  await runCommand(page, 'Azure OpenAI: Open Chat');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: deployment }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.type(deployment);
  await page.keyboard.press('Enter');
  const chat = chatFrame(page);
  const input = chat.locator('#input');
  await input.waitFor({ timeout: 30_000 });
  return { chat, input };
}

export async function chatThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  const { chat, input } = await openChatThroughTheUi(page, 'gpt-4o-mini');

  // A streamed reply, with usage.
  await input.fill('/markdown');
  await input.press('Enter');
  await chat.locator('.turn.assistant:not(.streaming) .turn-foot', { hasText: 'tokens' }).first().waitFor({ timeout: 30_000 });
  await chat.locator('.turn.assistant h1', { hasText: 'Emulator reply' }).waitFor();
  await chat.locator('.turn.assistant .code-block .hljs-keyword').first().waitFor();

  // Model output with HTML executes nothing and loads nothing.
  const attack = 'Look: <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> [x](javascript:window.__pwned=3)';
  await input.fill(attack);
  await input.press('Enter');
  await chat.locator('.turn.assistant:not(.streaming)', { hasText: 'You said: Look:' }).last().locator('.turn-foot', { hasText: 'tokens' }).waitFor({ timeout: 30_000 });
  const reply = chat.locator('.turn.assistant', { hasText: 'You said: Look:' }).last();
  if ((await reply.locator('img, script').count()) !== 0) throw new Error('an <img> or <script> from the reply reached the DOM');
  if ((await reply.locator('a[href^="javascript"]').count()) !== 0) throw new Error('a javascript: link was rendered');
  const replyText = await reply.locator('.turn-body').innerText();
  if (!replyText.includes('<img src=x onerror=')) throw new Error('the HTML should show as text');
  await reply.locator('.turn-body').click();
  let chatPage: Frame | undefined;
  for (const f of page.frames()) if (await f.$('#messages').catch(() => null)) chatPage = f;
  if (!chatPage) throw new Error('the chat page frame was not found');
  const pwned = await chatPage.evaluate(() => (window as Window & { __pwned?: unknown }).__pwned);
  if (pwned !== undefined) throw new Error(`injected code ran (window.__pwned = ${pwned})`);

  // Stop mid-stream: the reply ends, marked stopped, and the composer is usable again.
  await input.fill('/long 3000');
  await input.press('Enter');
  const stop = chat.locator('#stop');
  await stop.waitFor({ state: 'visible', timeout: 30_000 });
  await chat.locator('.turn.assistant.streaming .turn-body p').first().waitFor({ timeout: 30_000 });
  await stop.click();
  await chat.locator('.turn.assistant .turn-foot', { hasText: 'stopped' }).waitFor({ timeout: 30_000 });
  await chat.locator('#send').waitFor({ state: 'visible' });
  await stop.waitFor({ state: 'hidden' });
  await page.screenshot({ path: join(artifacts, 'chat-light.png') });

  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'chat-dark.png') });

  // A window reload brings the panel back with its history (webview serializer + saved conversation).
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const restored = chatFrame(page);
  await restored.locator('.turn.user', { hasText: '/long 3000' }).waitFor({ timeout: 60_000 });
  await restored.locator('.turn.assistant h1', { hasText: 'Emulator reply' }).waitFor();
  await page.screenshot({ path: join(artifacts, 'chat-after-reload.png') });
}

export async function reasoningThroughTheUi(page: Page, emulator: EmulatorHandle, artifacts: ArtifactsFolder): Promise<void> {
  await addConnectionThroughTheUi(page, emulator, artifacts);
  const { chat, input } = await openChatThroughTheUi(page, 'gpt-5-codex');
  await input.fill('/code python');
  await input.press('Enter');
  // The summary streams into a collapsed section above the answer; the usage line counts reasoning tokens.
  const reply = chat.locator('.turn.assistant').last();
  await reply.locator('.turn-foot', { hasText: 'reasoning)' }).waitFor({ timeout: 30_000 });
  const section = reply.locator('details.reasoning');
  if (await section.evaluate((d: HTMLDetailsElement) => d.open)) throw new Error('the reasoning section should start collapsed');
  await section.locator('summary').click();
  await section.locator('.reasoning-text', { hasText: 'The user asked' }).waitFor();
  await reply.locator('.code-block').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'chat-reasoning.png') });

  // In the background: the status line counts the time while the service works, then the answer fills in.
  await chat.locator('details.settings > summary').click();
  await chat.locator('#background').check();
  await input.fill('later please');
  await input.press('Enter');
  await chat.locator('#status', { hasText: 'Background reply' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'chat-background-running.png') });
  const later = chat.locator('.turn.assistant', { hasText: 'You said: later please' });
  await later.locator('.turn-foot', { hasText: 'tokens' }).waitFor({ timeout: 30_000 });
  await chat.locator('details.settings > summary').click();
  await later.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, 'chat-background-done.png') });
}
