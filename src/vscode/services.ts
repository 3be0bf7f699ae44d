/** The extension's parts, built once in `extension.ts` and handed to the commands (and to tests). */
import type * as vscode from 'vscode';
import type { AuthManager } from './auth/authManager';
import type { ChatManager } from './chat/chatManager';
import type { ClientCache } from './connections/clients';
import type { ConnectionCatalog } from './connections/connectionCatalog';
import type { ConnectionStore } from './connections/connectionStore';
import type { EmulatorController } from './emulatorController';
import type { FineTuningPanels } from './jobs/fineTuningPanels';
import type { JobLists } from './jobs/jobLists';
import type { JobNotices } from './jobs/jobNotices';
import type { ResultsDocuments } from './jobs/resultsDocument';
import type { ResourcesTree } from './tree/resourcesTree';
import type { UsageRecorder } from './usage/usageRecorder';
import type { UsageStatus } from './usage/usageStatus';
import type { UsageView } from './usage/usageView';
import type { DeliveryInspector } from './webhooks/deliveryInspector';
import type { WebhookEndpoints } from './webhooks/endpoints';
import type { EventsTree } from './webhooks/eventsTree';
import type { ListenerController } from './webhooks/listenerController';
import type { WebhookEvents } from '../webhooks/store/webhookEvents';

export interface Services {
  context: vscode.ExtensionContext;
  /** Connections, their keys and signing secrets. */
  store: ConnectionStore;
  auth: AuthManager;
  clients: ClientCache;
  /** Every connection's deployments, as the sidebar and both chats see them. */
  catalog: ConnectionCatalog;
  /** Changes to webhook endpoints made from here. */
  endpoints: WebhookEndpoints;
  tree: ResourcesTree;
  emulator: EmulatorController;
  chat: ChatManager;
  /** The webhook listener and its tunnel, as VS Code shows them (status bar, output channel). */
  listener: ListenerController;
  /** The received webhook events: their one owner, which the listener records into. */
  events: WebhookEvents;
  eventsTree: EventsTree;
  /** The delivery inspector panel (one, following the Events view's selection). */
  inspector: DeliveryInspector;
  /** Batches, fine-tuning jobs and calls of each connection, as the sidebar shows them. */
  jobs: JobLists;
  /** Notifications of jobs that ended, a few at a time during a burst. */
  jobNotices: JobNotices;
  /** Fine-tuning jobs' pages (one per job: details, loss chart, events). */
  fineTuningPanels: FineTuningPanels;
  /** Batch results opened as documents. */
  results: ResultsDocuments;
  /** The usage log's owner: every request's report, recorded. */
  usage: UsageRecorder;
  usageView: UsageView;
  /** Today's tokens and estimated cost in the status bar. */
  usageStatus: UsageStatus;
}
