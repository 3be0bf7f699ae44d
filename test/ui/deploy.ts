// Deploy with no account, as `npm start` sets it up (scripts/host/localAzure.mjs: a local identity
// provider, the emulator accepting its tokens, a Custom cloud in the user settings): "Add Connection
// from Azure" signed in with DefaultAzureCredential, a fine-tuning job on that connection, Deploy
// from its page, and a chat with the new deployment from the notification's Open Chat.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { chatFrame } from './chat';
import type { ArtifactsFolder, CodeServerHandle, EmulatorHandle } from './handles';
import { closeNotifications, frameWith, notification, row } from './jobs';
import { expandRow, runCommand } from './workbench';

/**
 * One step of a wizard: waits for the quick input titled `titlePart`, acts, and waits for the step to
 * be gone, acting once more if it is not: on a loaded machine a key pressed as the step appears can
 * be dropped, and the wizard would wait for ever.
 */
async function step(page: Page, titlePart: string, act: () => Promise<void>): Promise<void> {
  const title = page.locator('.quick-input-widget .quick-input-title', { hasText: titlePart });
  await title.waitFor({ timeout: 30_000 });
  for (let attempt = 0; ; attempt++) {
    await act();
    const gone = await title.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
    if (gone) return;
    if (attempt === 1) throw new Error(`the step "${titlePart}" did not take the answer`);
  }
}

/** Picks the row holding `text` in the quick pick titled `titlePart`. */
const pick = (page: Page, titlePart: string, text: string) =>
  step(page, titlePart, () => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first().click());

/** Types `text` into the input box titled `titlePart` and presses Enter. */
const answer = (page: Page, titlePart: string, text: string) =>
  step(page, titlePart, async () => {
    await page.locator('.quick-input-widget input.input').fill(text);
    await page.keyboard.press('Enter');
  });

/** "Add Connection from Azure…" from the palette, every step picked as a person would. */
export async function addConnectionFromAzureThroughTheUi(page: Page, label: string): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activity = page.locator('.activitybar [aria-label^="Azure OpenAI"]').first();
  await activity.waitFor({ timeout: 60_000 });
  await activity.click();
  // The walkthrough may open at this first look at the sidebar, and its editor would close a
  // palette opened meanwhile: let it come first.
  await page.locator('.tab', { hasText: 'Welcome' }).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(1_000);
  await runCommand(page, 'Azure OpenAI: Add Connection from Azure');
  await pick(page, 'Add Connection from Azure: sign in with', 'DefaultAzureCredential');
  await pick(page, 'Add Connection from Azure: subscription', 'Emulator Subscription');
  await pick(page, 'Add Connection from Azure: resource', 'emulator-openai');
  await answer(page, 'Add Connection from Azure: name', label);
  await page.locator('.monaco-list-row', { hasText: label }).filter({ hasText: 'Entra ID' }).first().waitFor({ timeout: 30_000 });
}

const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `Capital of country ${i}?` }, { role: 'assistant', content: `City ${i}` }] });

export async function deployThroughTheUi(page: Page, _emulator: EmulatorHandle, artifacts: ArtifactsFolder, server: CodeServerHandle): Promise<void> {
  writeFileSync(join(server.folder, 'train.jsonl'), Array.from({ length: 10 }, (_, i) => example(i)).join('\n') + '\n');
  await addConnectionFromAzureThroughTheUi(page, 'Emulator via Entra ID');
  // Deployments come from Resource Manager on such a connection.
  await expandRow(row(page, 'Emulator via Entra ID'), row(page, /^Deployments/));
  await expandRow(row(page, /^Deployments/), row(page, 'gpt-4o-mini'));
  await page.screenshot({ path: join(artifacts, 'deploy-connection-from-azure.png') });

  await runCommand(page, 'Azure OpenAI: Create Fine-tuning Job');
  await answer(page, 'Create Fine-tuning Job (1/4)', 'gpt-4.1-mini-2025-04-14');
  await pick(page, '(2/4)', 'train.jsonl');
  await pick(page, '(3/4)', 'No validation file');
  await answer(page, '(4/4)', 'capitals');
  await notification(page, /Fine-tuning job ftjob-\S+ created/);
  await closeNotifications(page);
  // "gpt-4.1-mini-2025-04-14 (capitals)" while it trains, its model's name once it has.
  const jobRow = row(page, /capitals/);
  await expandRow(row(page, /^Fine-tuning jobs/), jobRow);
  await jobRow.click();
  const frame = await frameWith(page, '#loss-table');
  await frame.locator('#status-badge', { hasText: 'succeeded' }).waitFor({ timeout: 120_000 });

  // Deploy from the page: the name offered, a SKU, the capacity; Resource Manager does the rest.
  await frame.locator('[data-action="deploy"]').click();
  const name = page.locator('.quick-input-widget input.input');
  await step(page, '(1/3): deployment name', async () => {
    const offered = await name.inputValue();
    if (offered !== 'gpt-4.1-mini-ft-capitals') throw new Error(`the deployment name offered: "${offered}"`);
    await page.keyboard.press('Enter');
  });
  await pick(page, 'Deploy (2/3): SKU', 'standard');
  await answer(page, 'Deploy (3/3)', '1');
  const deployed = await notification(page, /Deployed gpt-4\.1-mini-2025-04-14\.ft-[0-9a-f]+-capitals as gpt-4\.1-mini-ft-capitals\./, 60_000);
  await row(page, 'gpt-4.1-mini-ft-capitals').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'deploy-deployed.png') });

  // Open Chat from the notification: the new deployment answers, through Entra ID tokens.
  await deployed.locator('.monaco-button', { hasText: 'Open Chat' }).click();
  await closeNotifications(page);
  const chat = chatFrame(page);
  const input = chat.locator('#input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('What is the capital of country 3?');
  await input.press('Enter');
  await chat.locator('.turn.assistant:not(.streaming)', { hasText: 'You said: What is the capital of country 3?' }).last().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'deploy-chat.png') });
}
