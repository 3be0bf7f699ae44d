/**
 * Every command the extension registers, in one list: its id (from `contributions.ts`), the
 * message shown when it fails, and the function that runs it. The functions hold the UI; the
 * work is in the core and in the parts of `Services`.
 */
import type * as vscode from 'vscode';
import { Commands } from '../contributions';
import { log } from '../log';
import type { Services } from '../services';
import { GroupNode, type TreeNode } from '../tree/nodes';
import { JobGroupNode } from '../tree/jobNodes';
import { cancelBatch, createBatch, exportBatchResults, openBatchResultLine, openBatchResults, turnResultsPage } from './batches';
import { acceptCall, hangUpCall, rejectCall, transferCall } from './calls';
import { actOnJob, createFineTuningJob, deployFineTunedModel, openFineTuningJob } from './fineTuning';
import { addConnectionFromAzure } from './azure';
import { cancelRotationCommand, finishRotationCommand, handOverRotatedSecret, rotateSigningSecret } from './rotateSecret';
import { compareDeployments } from './compare';
import { askAboutSelection, clearActiveChat, deleteConversation, exportActiveChat, exportConversation, openChat, openConversation } from './chat';
import { addConnection, editConnection, removeConnection, testConnection, type AddConnectionArgs } from './connections';
import { startLocalEmulator, stopLocalEmulator } from './emulator';
import { importFromEnvironment } from './environment';
import { clearEvents, copyEventAsCurl, eventDocuments, fetchEventResponse, filterEvents, inspectEvent, openEventConversation, openEventPayload, replayEvent } from './events';
import { checkVerifier, deleteDownloadedCloudflared, downloadCloudflaredWithProgress, listenerActions, resumeListening, sendTestEvent, startListening, stopListening } from './listener';
import { command } from './registry';
import { chooseTunnelProvider } from './tunnelChoice';
import { copyField, copySecret, createEndpoint, deleteEndpoint, editEndpoint } from './webhookEndpoints';

export function registerCommands(s: Services): vscode.Disposable[] {
  return [
    // Connections
    command(Commands.addConnection, 'Could not add the connection', (arg) => addConnection(s, arg as AddConnectionArgs | undefined)),
    command(Commands.addConnectionFromAzure, 'Could not add the connection from Azure', (arg) => addConnectionFromAzure(s, arg)),
    command(Commands.editConnection, 'Could not update the connection', (arg) => editConnection(s, arg)),
    command(Commands.removeConnection, 'Could not remove the connection', (arg) => removeConnection(s, arg)),
    command(Commands.testConnection, 'Could not test the connection', (arg) => testConnection(s, arg)),
    command(Commands.importFromEnvironment, 'Could not import the connection', () => importFromEnvironment(s)),
    command(Commands.startLocalEmulator, 'Could not start the local emulator', () => startLocalEmulator(s)),
    command(Commands.stopLocalEmulator, 'Could not stop the local emulator', () => stopLocalEmulator(s)),
    // The Resources view
    command(Commands.refresh, 'Could not refresh', () => s.tree.refresh()),
    command(Commands.refreshNode, 'Could not refresh', (node) => s.tree.refresh(node as TreeNode)),
    command(Commands.loadMore, 'Could not load more', async (node) => {
      if (node instanceof GroupNode) await s.tree.load(node, true);
      if (node instanceof JobGroupNode && node.kind !== 'calls') await s.jobs.load(node.connection, node.kind, true);
    }),
    command(Commands.showLog, 'Could not show the log', () => log().show()),
    command(Commands.showUsage, 'Could not show the usage', () => s.usageView.show()),
    // Webhook endpoints
    command(Commands.createWebhookEndpoint, 'Could not create the webhook endpoint', (arg) => createEndpoint(s, arg)),
    command(Commands.editWebhookEndpoint, 'Could not update the webhook endpoint', (arg) => editEndpoint(s, arg)),
    command(Commands.deleteWebhookEndpoint, 'Could not delete the webhook endpoint', (arg) => deleteEndpoint(s, arg)),
    command(Commands.copySigningSecret, 'Could not copy the signing secret', (arg) => copySecret(s, arg)),
    command(Commands.rotateSigningSecret, 'Could not rotate the signing secret', (arg) => rotateSigningSecret(s, arg)),
    command(Commands.handOverRotatedSecret, 'Could not give the new secret to the app', (arg) => handOverRotatedSecret(s, arg)),
    command(Commands.finishRotation, 'Could not finish the rotation', (arg) => finishRotationCommand(s, arg)),
    command(Commands.cancelRotation, 'Could not cancel the rotation', (arg) => cancelRotationCommand(s, arg)),
    command(Commands.copyWebhookId, 'Could not copy the endpoint id', (arg) => copyField(s, arg, 'id')),
    command(Commands.copyWebhookUrl, 'Could not copy the endpoint URL', (arg) => copyField(s, arg, 'url')),
    // Chat
    command(Commands.openChat, 'Could not open the chat', (arg) => openChat(s, arg)),
    command(Commands.compareDeployments, 'Could not compare the deployments', (arg) => compareDeployments(s, arg)),
    command(Commands.openConversation, 'Could not open the conversation', (arg) => openConversation(s, arg)),
    command(Commands.exportConversation, 'Could not export the conversation', (arg) => exportConversation(s, arg)),
    command(Commands.deleteConversation, 'Could not delete the conversation', (arg) => deleteConversation(s, arg)),
    command(Commands.exportChatMarkdown, 'Could not export the chat', (arg) => exportActiveChat(s, arg, 'markdown')),
    command(Commands.exportChatJson, 'Could not export the chat', (arg) => exportActiveChat(s, arg, 'json')),
    command(Commands.clearChat, 'Could not clear the chat', (arg) => clearActiveChat(s, arg)),
    command(Commands.askAboutSelection, 'Could not attach the selection', (arg) => askAboutSelection(s, arg)),
    // The webhook listener
    command(Commands.startListening, 'Could not start listening', (arg) => startListening(s, arg)),
    command(Commands.stopListening, 'Could not stop listening', (arg) => stopListening(s, arg)),
    command(Commands.resumeListening, 'Could not listen again', () => resumeListening(s)),
    command(Commands.chooseTunnel, 'Could not change the tunnel', () => chooseTunnelProvider()),
    command(Commands.downloadCloudflared, 'Could not download cloudflared', async () => (await downloadCloudflaredWithProgress(s)).path),
    command(Commands.deleteCloudflared, 'Could not delete the downloaded cloudflared', () => deleteDownloadedCloudflared(s)),
    command(Commands.sendTestEvent, 'Could not send the test event', (arg) => sendTestEvent(s, arg)),
    command(Commands.checkVerifier, 'Could not check the webhook verifier', (arg) => checkVerifier(s, arg)),
    command(Commands.listenerActions, 'Could not show the listener actions', () => listenerActions(s)),
    // Received events
    eventDocuments(s),
    command(Commands.inspectEvent, 'Could not inspect the delivery', (arg) => inspectEvent(s, arg)),
    command(Commands.openEventPayload, 'Could not open the payload', (arg) => openEventPayload(s, arg)),
    command(Commands.copyEventAsCurl, 'Could not copy the event as curl', (arg) => copyEventAsCurl(s, arg)),
    command(Commands.replayEvent, 'Could not replay the event', (arg) => replayEvent(s, arg)),
    command(Commands.fetchEventResponse, 'Could not fetch the response', (arg) => fetchEventResponse(s, arg)),
    command(Commands.openEventConversation, 'Could not open the conversation', (arg) => openEventConversation(s, arg)),
    command(Commands.filterEvents, 'Could not filter the events', (arg) => filterEvents(s, arg)),
    command(Commands.clearEvents, 'Could not clear the events', (arg) => clearEvents(s, arg)),
    // Batches, fine-tuning jobs and calls
    command(Commands.createBatch, 'Could not create the batch', (arg) => createBatch(s, arg)),
    command(Commands.cancelBatch, 'Could not cancel the batch', (arg) => cancelBatch(s, arg)),
    command(Commands.openBatchResults, 'Could not open the batch results', (arg) => openBatchResults(s, arg)),
    command(Commands.openBatchResultLine, 'Could not open the result line', (arg) => openBatchResultLine(s, arg)),
    command(Commands.exportBatchResults, 'Could not export the batch results', (arg) => exportBatchResults(s, arg)),
    command(Commands.nextResultsPage, 'Could not show the next page', () => turnResultsPage(s, 1)),
    command(Commands.previousResultsPage, 'Could not show the previous page', () => turnResultsPage(s, -1)),
    command(Commands.openFineTuningJob, 'Could not open the fine-tuning job', (arg) => openFineTuningJob(s, arg)),
    command(Commands.createFineTuningJob, 'Could not create the fine-tuning job', (arg) => createFineTuningJob(s, arg)),
    command(Commands.cancelFineTuningJob, 'Could not cancel the fine-tuning job', (arg) => actOnJob(s, arg, 'cancel')),
    command(Commands.pauseFineTuningJob, 'Could not pause the fine-tuning job', (arg) => actOnJob(s, arg, 'pause')),
    command(Commands.resumeFineTuningJob, 'Could not resume the fine-tuning job', (arg) => actOnJob(s, arg, 'resume')),
    command(Commands.deployFineTunedModel, 'Could not deploy the model', (arg) => deployFineTunedModel(s, arg)),
    command(Commands.acceptCall, 'Could not accept the call', (arg) => acceptCall(s, arg)),
    command(Commands.rejectCall, 'Could not reject the call', (arg) => rejectCall(s, arg)),
    command(Commands.transferCall, 'Could not transfer the call', (arg) => transferCall(s, arg)),
    command(Commands.hangUpCall, 'Could not hang up', (arg) => hangUpCall(s, arg)),
  ];
}
