/**
 * Every command the extension registers, in one list: its id (from `contributions.ts`), the
 * message shown when it fails, and the function that runs it. The functions hold the UI; the
 * work is in the core and in the parts of `Services`.
 */
import * as vscode from 'vscode';
import { loadTrace } from '../layerBundles';
import { Commands } from '../contributions';
import { log } from '../log';
import type { Services } from '../services';
import { GroupNode, type TreeNode } from '../tree/nodes';
import { BatchNode, JobGroupNode } from '../tree/jobNodes';
import { EventNode } from '../webhooks/eventsTree';
import { cancelBatch, createBatch, exportBatchResults, openBatchResultLine, openBatchResults, turnResultsPage } from './batches';
import { acceptCall, hangUpCall, rejectCall, transferCall } from './calls';
import { actOnJob, createFineTuningJob, deployFineTunedModel, openFineTuningJob } from './fineTuning';
import { addConnectionFromAzure } from './azure';
import { cancelRotationCommand, finishRotationCommand, handOverRotatedSecret, rotateSigningSecret } from './rotateSecret';
import { compareDeployments } from './compare';
import { askAboutSelection, clearActiveChat, deleteConversation, exportActiveChat, exportConversation, openChat, openConversation, openLastChat } from './chat';
import { addConnection, editConnection, removeConnection, testConnection, type AddConnectionArgs } from './connections';
import { startLocalEmulator, stopLocalEmulator } from './emulator';
import { importFromEnvironment } from './environment';
import { clearEvents, copyEventAsCurl, eventDocuments, fetchEventResponse, filterEvents, inspectEvent, openEventConversation, openEventPayload, replayEvent } from './events';
import { startWebhookDebugging } from '../webhooks/debugSession';
import { checkVerifier, deleteDownloadedCloudflared, downloadCloudflaredWithProgress, listenerActions, resumeListening, sendTestEvent, startListening, stopListening } from './listener';
import { chooseTunnelProvider } from './tunnelChoice';
import { askingFirst } from './askFirst';
import { fixtureCommands } from './fixtureCommands';
import { copyField, copySecret, createEndpoint, deleteEndpoint, editEndpoint } from './webhookEndpoints';

/** What Show Trace was given: a trace's id (a reply's or a column's button), a batch's row, a delivery's row in Events or the inspector's button. */
function traceOf(arg: unknown): string | { batchId: string } | { deliveryId: string } | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof BatchNode) return { batchId: arg.batch.id };
  if (arg instanceof EventNode) return { deliveryId: arg.summary.id };
  const id = (arg as { deliveryId?: unknown } | undefined)?.deliveryId;
  return typeof id === 'string' ? { deliveryId: id } : undefined;
}

export function registerCommands(s: Services): vscode.Disposable[] {
  // Registers each command; those that act on the resource or write a file ask first when given plain arguments.
  const command = askingFirst(s);
  return [
    // Connections
    command(Commands.addConnection, vscode.l10n.t('Could not add the connection'), (arg) => addConnection(s, arg as AddConnectionArgs | undefined)),
    command(Commands.addConnectionFromAzure, vscode.l10n.t('Could not add the connection from Azure'), (arg) => addConnectionFromAzure(s, arg)),
    command(Commands.editConnection, vscode.l10n.t('Could not update the connection'), (arg) => editConnection(s, arg)),
    command(Commands.removeConnection, vscode.l10n.t('Could not remove the connection'), (arg) => removeConnection(s, arg)),
    command(Commands.testConnection, vscode.l10n.t('Could not test the connection'), (arg) => testConnection(s, arg)),
    command(Commands.importFromEnvironment, vscode.l10n.t('Could not import the connection'), () => importFromEnvironment(s)),
    command(Commands.startLocalEmulator, vscode.l10n.t('Could not start the local emulator'), () => startLocalEmulator(s)),
    command(Commands.stopLocalEmulator, vscode.l10n.t('Could not stop the local emulator'), () => stopLocalEmulator(s)),
    // The Resources view
    command(Commands.refresh, vscode.l10n.t('Could not refresh'), () => s.tree.refresh()),
    command(Commands.refreshNode, vscode.l10n.t('Could not refresh'), (node) => s.tree.refresh(node as TreeNode)),
    command(Commands.loadMore, vscode.l10n.t('Could not load more'), async (node) => {
      if (node instanceof GroupNode) await s.tree.load(node, true);
      if (node instanceof JobGroupNode && node.kind !== 'calls') await s.jobs.load(node.connection, node.kind, true);
    }),
    command(Commands.showLog, vscode.l10n.t('Could not show the log'), () => log().show()),
    command(Commands.showUsage, vscode.l10n.t('Could not show the usage'), () => s.usageView.show()),
    command(Commands.showTrace, vscode.l10n.t('Could not show the trace'), (arg?: unknown) => loadTrace().showTrace(s.context, traceOf(arg))),
    // Webhook endpoints
    command(Commands.createWebhookEndpoint, vscode.l10n.t('Could not create the webhook endpoint'), (arg) => createEndpoint(s, arg)),
    command(Commands.editWebhookEndpoint, vscode.l10n.t('Could not update the webhook endpoint'), (arg) => editEndpoint(s, arg)),
    command(Commands.deleteWebhookEndpoint, vscode.l10n.t('Could not delete the webhook endpoint'), (arg) => deleteEndpoint(s, arg)),
    command(Commands.copySigningSecret, vscode.l10n.t('Could not copy the signing secret'), (arg) => copySecret(s, arg)),
    command(Commands.rotateSigningSecret, vscode.l10n.t('Could not rotate the signing secret'), (arg) => rotateSigningSecret(s, arg)),
    command(Commands.handOverRotatedSecret, vscode.l10n.t('Could not give the new secret to the app'), (arg) => handOverRotatedSecret(s, arg)),
    command(Commands.finishRotation, vscode.l10n.t('Could not finish the rotation'), (arg) => finishRotationCommand(s, arg)),
    command(Commands.cancelRotation, vscode.l10n.t('Could not cancel the rotation'), (arg) => cancelRotationCommand(s, arg)),
    command(Commands.copyWebhookId, vscode.l10n.t('Could not copy the endpoint id'), (arg) => copyField(s, arg, 'id')),
    command(Commands.copyWebhookUrl, vscode.l10n.t('Could not copy the endpoint URL'), (arg) => copyField(s, arg, 'url')),
    // Chat
    command(Commands.openChat, vscode.l10n.t('Could not open the chat'), (arg) => openChat(s, arg)),
    command(Commands.openLastChat, vscode.l10n.t('Could not open the chat'), (arg) => openLastChat(s, arg)),
    command(Commands.compareDeployments, vscode.l10n.t('Could not compare the deployments'), (arg) => compareDeployments(s, arg)),
    command(Commands.openConversation, vscode.l10n.t('Could not open the conversation'), (arg) => openConversation(s, arg)),
    command(Commands.exportConversation, vscode.l10n.t('Could not export the conversation'), (arg) => exportConversation(s, arg)),
    command(Commands.deleteConversation, vscode.l10n.t('Could not delete the conversation'), (arg) => deleteConversation(s, arg)),
    command(Commands.exportChatMarkdown, vscode.l10n.t('Could not export the chat'), (arg) => exportActiveChat(s, arg, 'markdown')),
    command(Commands.exportChatJson, vscode.l10n.t('Could not export the chat'), (arg) => exportActiveChat(s, arg, 'json')),
    command(Commands.clearChat, vscode.l10n.t('Could not clear the chat'), (arg) => clearActiveChat(s, arg)),
    command(Commands.askAboutSelection, vscode.l10n.t('Could not attach the selection'), (arg) => askAboutSelection(s, arg)),
    // The webhook listener
    command(Commands.startListening, vscode.l10n.t('Could not start listening'), (arg) => startListening(s, arg)),
    command(Commands.stopListening, vscode.l10n.t('Could not stop listening'), (arg) => stopListening(s, arg)),
    command(Commands.resumeListening, vscode.l10n.t('Could not listen again'), () => resumeListening(s)),
    command(Commands.chooseTunnel, vscode.l10n.t('Could not change the tunnel'), () => chooseTunnelProvider()),
    command(Commands.downloadCloudflared, vscode.l10n.t('Could not download cloudflared'), async () => (await downloadCloudflaredWithProgress(s)).path),
    command(Commands.deleteCloudflared, vscode.l10n.t('Could not delete the downloaded cloudflared'), () => deleteDownloadedCloudflared(s)),
    command(Commands.sendTestEvent, vscode.l10n.t('Could not send the test event'), (arg) => sendTestEvent(s, arg)),
    command(Commands.startWebhookDebugging, vscode.l10n.t('Could not start debugging with webhooks'), () => startWebhookDebugging()),
    command(Commands.checkVerifier, vscode.l10n.t('Could not check the webhook verifier'), (arg) => checkVerifier(s, arg)),
    command(Commands.listenerActions, vscode.l10n.t('Could not show the listener actions'), () => listenerActions(s)),
    // Received events
    eventDocuments(s),
    command(Commands.inspectEvent, vscode.l10n.t('Could not inspect the delivery'), (arg) => inspectEvent(s, arg)),
    command(Commands.openEventPayload, vscode.l10n.t('Could not open the payload'), (arg) => openEventPayload(s, arg)),
    command(Commands.copyEventAsCurl, vscode.l10n.t('Could not copy the event as curl'), (arg) => copyEventAsCurl(s, arg)),
    command(Commands.replayEvent, vscode.l10n.t('Could not replay the event'), (arg) => replayEvent(s, arg)),
    command(Commands.fetchEventResponse, vscode.l10n.t('Could not fetch the response'), (arg) => fetchEventResponse(s, arg)),
    command(Commands.openEventConversation, vscode.l10n.t('Could not open the conversation'), (arg) => openEventConversation(s, arg)),
    command(Commands.filterEvents, vscode.l10n.t('Could not filter the events'), (arg) => filterEvents(s, arg)),
    command(Commands.clearEvents, vscode.l10n.t('Could not clear the events'), (arg) => clearEvents(s, arg)),
    // Webhook fixtures: Save as Fixture, their CodeLens sends, a folder in order, the catalog
    ...fixtureCommands(s, command),
    // Batches, fine-tuning jobs and calls
    command(Commands.createBatch, vscode.l10n.t('Could not create the batch'), (arg) => createBatch(s, arg)),
    command(Commands.cancelBatch, vscode.l10n.t('Could not cancel the batch'), (arg) => cancelBatch(s, arg)),
    command(Commands.openBatchResults, vscode.l10n.t('Could not open the batch results'), (arg) => openBatchResults(s, arg)),
    command(Commands.openBatchResultLine, vscode.l10n.t('Could not open the result line'), (arg) => openBatchResultLine(s, arg)),
    command(Commands.exportBatchResults, vscode.l10n.t('Could not export the batch results'), (arg) => exportBatchResults(s, arg)),
    command(Commands.nextResultsPage, vscode.l10n.t('Could not show the next page'), () => turnResultsPage(s, 1)),
    command(Commands.previousResultsPage, vscode.l10n.t('Could not show the previous page'), () => turnResultsPage(s, -1)),
    command(Commands.openFineTuningJob, vscode.l10n.t('Could not open the fine-tuning job'), (arg) => openFineTuningJob(s, arg)),
    command(Commands.createFineTuningJob, vscode.l10n.t('Could not create the fine-tuning job'), (arg) => createFineTuningJob(s, arg)),
    command(Commands.cancelFineTuningJob, vscode.l10n.t('Could not cancel the fine-tuning job'), (arg) => actOnJob(s, arg, 'cancel')),
    command(Commands.pauseFineTuningJob, vscode.l10n.t('Could not pause the fine-tuning job'), (arg) => actOnJob(s, arg, 'pause')),
    command(Commands.resumeFineTuningJob, vscode.l10n.t('Could not resume the fine-tuning job'), (arg) => actOnJob(s, arg, 'resume')),
    command(Commands.deployFineTunedModel, vscode.l10n.t('Could not deploy the model'), (arg) => deployFineTunedModel(s, arg)),
    command(Commands.acceptCall, vscode.l10n.t('Could not accept the call'), (arg) => acceptCall(s, arg)),
    command(Commands.rejectCall, vscode.l10n.t('Could not reject the call'), (arg) => rejectCall(s, arg)),
    command(Commands.transferCall, vscode.l10n.t('Could not transfer the call'), (arg) => transferCall(s, arg)),
    command(Commands.hangUpCall, vscode.l10n.t('Could not hang up'), (arg) => hangUpCall(s, arg)),
  ];
}
