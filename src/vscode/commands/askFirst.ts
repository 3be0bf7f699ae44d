/**
 * Commands that act on the user's resource or write a file ask first when run with plain
 * arguments: a `command:` link (in a notification, a Markdown preview), a task or another
 * extension can pass any. Tree rows and arguments our own UI marks (`owned` in args.ts) ask
 * nothing more than the command itself does. One table: what each such command will do and where,
 * said in a modal; Cancel and the command does nothing.
 */
import * as vscode from 'vscode';
import { Commands, type CommandId } from '../contributions';
import type { Services } from '../services';
import { isOwned } from './args';
import { command, confirmed } from './registry';

type Plain = Record<string, unknown>;
/** The question, or undefined when these arguments leave every choice to the command's own pickers. */
type Describe = (a: Plain, on: string) => string | undefined;

/** A value from the arguments, as text, short enough for a dialog. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const has = (a: Plain, ...keys: string[]) => keys.some((k) => a[k] !== undefined);

/** What each command does with plain arguments: the resource (`on`), the URL, the path, the size. */
const ASKS: Partial<Record<CommandId, Describe>> = {
  [Commands.addConnection]: (a) =>
    has(a, 'endpoint') ? vscode.l10n.t('Add a connection to {0} and keep the key it was given in VS Code?', shown(a.endpoint)) : undefined,
  [Commands.addConnectionFromAzure]: (a) =>
    has(a, 'subscriptionId', 'account') ? vscode.l10n.t('Add a connection to the Azure resource {0} of subscription {1}?', shown(a.account ?? '?'), shown(a.subscriptionId ?? '?')) : undefined,
  // A new endpoint without a new key would take the stored key there: the address is named.
  [Commands.editConnection]: (a, on) =>
    has(a, 'endpoint')
      ? vscode.l10n.t('Point the connection {0} at {1}?', on, shown(a.endpoint))
      : has(a, 'apiKey', 'label', 'apiVersion')
        ? vscode.l10n.t('Change the connection {0}?', on)
        : undefined,
  [Commands.removeConnection]: (a, on) => (has(a, 'connectionId') ? vscode.l10n.t('Remove the connection {0} and its stored key?', on) : undefined),
  [Commands.createWebhookEndpoint]: (a, on) =>
    has(a, 'url') ? vscode.l10n.t('Create a webhook endpoint on {0} that sends its events to {1}?', on, shown(a.url)) : undefined,
  [Commands.editWebhookEndpoint]: (a, on) =>
    has(a, 'url')
      ? vscode.l10n.t('Change the webhook endpoint {0} on {1} to send its events to {2}?', shown(a.endpointId), on, shown(a.url))
      : has(a, 'name', 'eventTypes')
        ? vscode.l10n.t('Change the webhook endpoint {0} on {1}?', shown(a.endpointId), on)
        : undefined,
  [Commands.deleteWebhookEndpoint]: (a, on) => (has(a, 'endpointId') ? vscode.l10n.t('Delete the webhook endpoint {0} on {1}?', shown(a.endpointId), on) : undefined),
  [Commands.rotateSigningSecret]: (a, on) =>
    has(a, 'endpointId') ? vscode.l10n.t('Rotate the signing secret of the webhook endpoint {0} on {1} (a new endpoint is created)?', shown(a.endpointId), on) : undefined,
  [Commands.handOverRotatedSecret]: (a, on) => {
    const file = (a.handOver as { file?: unknown } | undefined)?.file;
    return file !== undefined ? vscode.l10n.t('Write the new signing secret of a webhook endpoint on {0} into {1}?', on, shown(file)) : undefined;
  },
  [Commands.finishRotation]: (a, on) => (has(a, 'endpointId') ? vscode.l10n.t('Finish the secret rotation of {0} on {1}: the old endpoint is deleted?', shown(a.endpointId), on) : undefined),
  [Commands.cancelRotation]: (a, on) => (has(a, 'endpointId') ? vscode.l10n.t('Cancel the secret rotation of {0} on {1}: the new endpoint is deleted?', shown(a.endpointId), on) : undefined),
  [Commands.deleteConversation]: (a) => (has(a, 'conversationId') ? vscode.l10n.t('Delete the saved conversation {0}?', shown(a.conversationId)) : undefined),
  [Commands.startListening]: (a, on) =>
    has(a, 'connectionId') ? vscode.l10n.t('Listen for webhooks of {0}: open a public tunnel to this machine and point a webhook endpoint of the resource at it?', on) : undefined,
  [Commands.stopListening]: (a) => (a.deleteEndpoint === true ? vscode.l10n.t('Stop listening and delete the webhook endpoint created for it?') : undefined),
  [Commands.checkVerifier]: (a) => (has(a, 'url') ? vscode.l10n.t('Send three test deliveries signed with your signing secret to {0}?', shown(a.url)) : undefined),
  [Commands.saveAsFixture]: (a) => (has(a, 'eventId') ? vscode.l10n.t('Save the received delivery {0} as a fixture file in your workspace?', shown(a.eventId)) : undefined),
  [Commands.sendFixture]: (a) =>
    has(a, 'uri') ? vscode.l10n.t("Sign the fixture {0} with your webhook endpoint's secret and send it to your app?", shown(String(a.uri))) : undefined,
  [Commands.sendFixturesInOrder]: (a) =>
    has(a, 'folder') ? vscode.l10n.t("Sign every fixture in {0} with your webhook endpoint's secret and send them to your app?", shown(a.folder)) : undefined,
  [Commands.newFixtureFromCatalog]: (a) => (has(a, 'type') ? vscode.l10n.t('Write a new {0} fixture file into your workspace?', shown(a.type)) : undefined),
  [Commands.checkHandler]: (a) => (has(a, 'url') ? vscode.l10n.t('Send about 26 test deliveries signed with your signing secret to {0}?', shown(a.url)) : undefined),
  [Commands.copyFixtureAsTest]: (a) => (has(a, 'path') ? vscode.l10n.t('Write a webhook test to {0}?', shown(a.path)) : undefined),
  [Commands.clearEvents]: (a) => (a.confirm === false ? vscode.l10n.t('Delete every received delivery kept on this machine?') : undefined),
  [Commands.createBatch]: (a, on) => (has(a, 'file') ? vscode.l10n.t('Upload {0} to {1} and start a batch (billed)?', shown(a.file), on) : undefined),
  [Commands.cancelBatch]: (a, on) => vscode.l10n.t('Cancel the batch {0} on {1}?', shown(a.batchId), on),
  [Commands.exportBatchResults]: (a) => (has(a, 'path') ? vscode.l10n.t('Write the results of the batch {0} to {1}?', shown(a.batchId), shown(a.path)) : undefined),
  [Commands.createFineTuningJob]: (a, on) =>
    has(a, 'trainingFile') ? vscode.l10n.t('Upload {0} to {1} and start fine-tuning {2} (billed)?', shown(a.trainingFile), on, shown(a.model ?? '?')) : undefined,
  [Commands.cancelFineTuningJob]: (a, on) => vscode.l10n.t('Cancel the fine-tuning job {0} on {1}?', shown(a.jobId), on),
  [Commands.pauseFineTuningJob]: (a, on) => vscode.l10n.t('Pause the fine-tuning job {0} on {1}?', shown(a.jobId), on),
  [Commands.resumeFineTuningJob]: (a, on) => vscode.l10n.t('Resume the fine-tuning job {0} on {1} (billed)?', shown(a.jobId), on),
  [Commands.deployFineTunedModel]: (a, on) =>
    has(a, 'capacity')
      ? vscode.l10n.t('Deploy the model of the fine-tuning job {0} on {1} at a capacity of {2} (billed while it runs)?', shown(a.jobId), on, shown(a.capacity))
      : vscode.l10n.t('Deploy the model of the fine-tuning job {0} on {1} (billed while it runs)?', shown(a.jobId), on),
  [Commands.acceptCall]: (a, on) =>
    has(a, 'instructions')
      ? vscode.l10n.t('Answer the call {0} on {1} with a realtime model told: "{2}"?', shown(a.callId), on, shown(a.instructions))
      : vscode.l10n.t('Answer the call {0} on {1} with a realtime model?', shown(a.callId), on),
  [Commands.rejectCall]: (a, on) => vscode.l10n.t('Reject the call {0} on {1}?', shown(a.callId), on),
  [Commands.transferCall]: (a, on) =>
    has(a, 'targetUri') ? vscode.l10n.t('Transfer the call {0} on {1} to {2}?', shown(a.callId), on, shown(a.targetUri)) : vscode.l10n.t('Transfer the call {0} on {1}?', shown(a.callId), on),
  [Commands.hangUpCall]: (a, on) => vscode.l10n.t('Hang up the call {0} on {1}?', shown(a.callId), on),
};

/** The connection the arguments name, as the user knows it: its name and its address. */
function resourceOf(s: Services, a: Plain): string {
  const id = a.connectionId;
  const conn = typeof id === 'string' ? s.store.get(id) : undefined;
  if (conn) return `"${conn.label}" (${conn.endpoint})`;
  return id === undefined ? vscode.l10n.t('your connection') : shown(id);
}

/** Whether a command run with `arg` may go on: yes from our own UI or without arguments, else the user says. */
export async function mayAct(s: Services, id: CommandId, arg: unknown): Promise<boolean> {
  const describe = ASKS[id];
  if (!describe || arg === undefined || isOwned(arg)) return true;
  const a: Plain = arg && typeof arg === 'object' ? (arg as Plain) : {};
  const question = describe(a, resourceOf(s, a));
  if (question === undefined) return true;
  const detail = vscode.l10n.t("A link, a task or another extension asked for this, not the Azure OpenAI Workbench's own views. Continue only if you meant to do it.");
  return confirmed(question, vscode.l10n.t('Continue'), detail);
}

/** `command` (registry.ts) for the command list: the commands in the table ask first when run with plain arguments. */
export function askingFirst(s: Services) {
  return <T>(id: CommandId, failure: string, fn: (arg: unknown) => Promise<T> | T): vscode.Disposable =>
    command(id, failure, async (arg) => ((await mayAct(s, id, arg)) ? fn(arg) : undefined));
}
