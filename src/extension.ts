/**
 * Entry point: wires the VS Code layer to the core. Activation stays cheap: it registers
 * commands and the trees; lists load when the view shows them, the emulator when started.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { AuthManager } from './vscode/auth/authManager';
import { ChatManager } from './vscode/chat/chatManager';
import { registerCommands } from './vscode/commands';
import { owned } from './vscode/commands/args';
import { dropStaleLocalConnections } from './vscode/commands/emulator';
import { offerEnvironmentImport, updateEnvironmentContext } from './vscode/commands/environment';
import { ClientCache } from './vscode/connections/clients';
import { ConnectionCatalog } from './vscode/connections/connectionCatalog';
import { ConnectionStore, type ConnectionInfo } from './vscode/connections/connectionStore';
import { Views } from './vscode/contributions';
import { EmulatorController } from './vscode/emulatorController';
import { loadInline, loadTrace } from './vscode/layerBundles';
import { registerInline } from './vscode/inline';
import { registerLanguageModels } from './vscode/lm/provider';
import { disposeLog } from './vscode/log';
import type { Services } from './vscode/services';
import { setting } from './vscode/settings';
import { configureCoreStrings } from './vscode/strings';
import { ResourcesTree } from './vscode/tree/resourcesTree';
import { UsageRecorder } from './vscode/usage/usageRecorder';
import { UsageStatus } from './vscode/usage/usageStatus';
import { UsageView } from './vscode/usage/usageView';
import { DeliveryInspector } from './vscode/webhooks/deliveryInspector';
import { WebhookEndpoints } from './vscode/webhooks/endpoints';
import { EventsTree } from './vscode/webhooks/eventsTree';
import { showEventsViewStatus } from './vscode/webhooks/eventsViewStatus';
import { registerWebhookDebugging } from './vscode/webhooks/debugSession';
import { ListenerController } from './vscode/webhooks/listenerController';
import { FineTuningPanels } from './vscode/jobs/fineTuningPanels';
import { JobLists } from './vscode/jobs/jobLists';
import { ResultsDocuments } from './vscode/jobs/resultsDocument';
import { watchJobEvents } from './vscode/jobs/jobEvents';
import { JobNotices } from './vscode/jobs/jobNotices';
import { JobsTree } from './vscode/tree/jobsTree';
import type { RequestReport } from './chat/engine/report';
import { WebhookEvents } from './webhooks/store/webhookEvents';
import { WalkthroughProgress } from './vscode/walkthrough';

/**
 * What other extensions get: the connections as the sidebar lists them, never a key, a signing
 * secret or a part that could hand one out.
 */
export interface WorkbenchApi {
  readonly apiVersion: 1;
  connections(): ConnectionInfo[];
  readonly onDidChangeConnections: vscode.Event<void>;
}

/** The extension's parts, for its own host tests only (see `TEST_INTERNALS_COMMAND`). */
export interface TestInternals {
  services: Services;
  eventsTree: EventsTree;
  eventsView: vscode.TreeView<unknown>;
  setting: typeof setting;
  /** Marks arguments as our own UI's, so a command asks nothing more (askFirst.ts). */
  owned: typeof owned;
  /** The inline suggestions' bundle (its controller's state is what the status bar shows). */
  loadInline: typeof loadInline;
}

/** Registered only when the host test runner sets AOAI_WORKBENCH_TEST_INTERNALS=1. */
export const TEST_INTERNALS_COMMAND = 'aoaiWorkbench.test.internals';

export function activate(context: vscode.ExtensionContext): WorkbenchApi {
  configureCoreStrings();
  const store = new ConnectionStore(context.secrets);
  const auth = new AuthManager();
  const clients = new ClientCache(store, auth);
  const catalog = new ConnectionCatalog(store, auth, clients);
  const endpoints = new WebhookEndpoints(store, clients, context.globalState);
  const jobs = new JobLists(store, clients);
  const jobsTree = new JobsTree(jobs, () => listener.running);
  const tree = new ResourcesTree(store, clients, endpoints, catalog, jobsTree);
  const emulator = new EmulatorController();
  // Every request either chat sends is recorded here (the runner's reports), shown by the view and the status bar.
  const usage = new UsageRecorder(context.globalStorageUri, store);
  const usageView = new UsageView(context.extensionUri, usage, store, catalog);
  const usageStatus = new UsageStatus(usage);
  const resourcesView = vscode.window.createTreeView(Views.resources, { treeDataProvider: tree, showCollapseAll: true });
  const walkthrough = new WalkthroughProgress(context, store, resourcesView);
  // A reply also completes a step of the Get Started walkthrough.
  const report = (r: RequestReport) => {
    usage.report(r);
    walkthrough.report(r);
  };
  const chat = new ChatManager(context, store, clients, catalog, report);
  // The received webhook events: the listener records into them, the views, jobs and chat read them.
  const storageDir = context.globalStorageUri.fsPath;
  const events = new WebhookEvents({ eventsPath: join(storageDir, 'webhook-events.jsonl'), idsPath: join(storageDir, 'webhook-ids.txt'), maxStored: setting('webhooks.maxStoredEvents') });
  void events.ready();
  const listener = new ListenerController(context.globalStorageUri, store, endpoints, events, context.workspaceState, context.globalState);
  // Background chat replies finish as soon as their response.* delivery is verified.
  context.subscriptions.push(chat.watchResponseEvents(events, (r) => !!listener.forwardRoute(r)));
  const eventsTree = new EventsTree(events);
  const lm = registerLanguageModels({ store, auth, clients, catalog, onReport: report, storage: context.globalStorageUri });
  const eventsView = vscode.window.createTreeView(Views.events, { treeDataProvider: eventsTree });
  // A burst's summary notification reveals the rows it sums up.
  const jobNotices = new JobNotices(async (connectionId, kind) => {
    const group = jobsTree.group(connectionId, kind);
    if (group) await resourcesView.reveal(group, { expand: true, focus: true, select: true });
  });
  const inspector = new DeliveryInspector(context.extensionUri, listener, events, eventsView);
  const results = new ResultsDocuments(context.globalStorageUri.fsPath);
  const fineTuningPanels = new FineTuningPanels(context.extensionUri, jobs, clients);
  const services: Services = {
    context, store, auth, clients, catalog, endpoints, tree, emulator, chat, listener, events, eventsTree, inspector,
    jobs, jobNotices, fineTuningPanels, results, usage, usageView, usageStatus,
  };

  context.subscriptions.push(
    store,
    auth,
    clients,
    catalog,
    endpoints,
    tree,
    emulator,
    chat,
    listener,
    events,
    eventsTree,
    lm,
    usage,
    usageView,
    usageStatus,
    fineTuningPanels,
    resourcesView,
    walkthrough,
    eventsView,
    showEventsViewStatus(eventsView, listener, events),
    inspector,
    // Whether the environment's connection is imported yet follows the store.
    store.onDidChange(() => void updateEnvironmentContext(services)),
    // Signed out or switched account or cloud: lists reload with the new tokens.
    auth.onDidChange(() => tree.refresh()),
    jobs,
    jobNotices,
    jobsTree,
    results,
    // Batches, fine-tuning jobs and calls follow their deliveries; the Calls group shows while listening.
    watchJobEvents(services, jobsTree),
    ...registerCommands(services),
    // Inline suggestions: nothing loads until a deployment is chosen for them.
    registerInline(services, report),
    registerWebhookDebugging(services),
  );
  void dropStaleLocalConnections(services).then(() => offerEnvironmentImport(services));
  stopOnDeactivate = () => Promise.all([listener.stop(true), usage.flush()]);
  if (process.env.AOAI_WORKBENCH_TEST_INTERNALS === '1') {
    const internals: TestInternals = { services, eventsTree, eventsView, setting, owned, loadInline };
    context.subscriptions.push(vscode.commands.registerCommand(TEST_INTERNALS_COMMAND, () => internals));
  }
  return { apiVersion: 1, connections: () => store.list(), onDidChangeConnections: store.onDidChange };
}

let stopOnDeactivate: (() => Promise<unknown>) | undefined;

/** VS Code waits for this: the tunnel process ends, received events and usage records reach the disk. */
export async function deactivate(): Promise<void> {
  await stopOnDeactivate?.().catch(() => undefined);
  // A trace waits a moment before it is written: a reload right after a reply keeps it.
  await loadTrace.ifLoaded()?.flushTraces().catch(() => undefined);
  disposeLog();
}
