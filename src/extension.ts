/**
 * Entry point: wires the VS Code layer to the core. Activation stays cheap: it registers
 * commands and the tree; lists load when the view shows them, the emulator when started.
 */
import * as vscode from 'vscode';
import { ChatManager } from './vscode/chat/chatManager';
import { registerAzureCommands } from './vscode/commands/azureCommands';
import { registerChatCommands } from './vscode/commands/chatCommands';
import { dropStaleLocalConnections, offerEnvironmentImport, registerConnectionCommands, updateEnvironmentContext } from './vscode/commands/connectionCommands';
import type { Services } from './vscode/commands/context';
import { registerTreeCommands } from './vscode/commands/treeCommands';
import { registerListenerCommands } from './vscode/commands/listenerCommands';
import { registerWebhookCommands } from './vscode/commands/webhookCommands';
import { EVENTS_VIEW_ID, EventsTree } from './vscode/webhooks/eventsTree';
import { ListenerController } from './vscode/webhooks/listenerController';
import { AuthManager } from './vscode/auth/authManager';
import { ClientCache } from './vscode/connections/clients';
import { ConnectionStore } from './vscode/connections/connectionStore';
import { EmulatorController } from './vscode/emulatorController';
import { disposeLog } from './vscode/log';
import { ResourcesTree, VIEW_ID } from './vscode/tree/resourcesTree';

/** What the extension hands to tests (and to other extensions): its parts, nothing secret. */
export interface WorkbenchApi {
  services: Services;
  eventsTree: EventsTree;
}

export function activate(context: vscode.ExtensionContext): WorkbenchApi {
  const store = new ConnectionStore(context.secrets);
  const auth = new AuthManager(context);
  const clients = new ClientCache(store, auth);
  const tree = new ResourcesTree(store, clients);
  const emulator = new EmulatorController(context);
  const chat = new ChatManager(context, store, clients);
  const listener = new ListenerController(context.globalStorageUri, store, clients);
  const services: Services = { context, store, auth, clients, tree, emulator, chat, listener };
  const events = new EventsTree(listener);

  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const eventsView = vscode.window.createTreeView(EVENTS_VIEW_ID, { treeDataProvider: events });
  context.subscriptions.push(
    store,
    auth,
    clients,
    tree,
    emulator,
    chat,
    listener,
    events,
    view,
    eventsView,
    store.onDidChange(() => void updateEnvironmentContext(services)),
    // Signed out or switched account or cloud: lists reload with the new tokens.
    auth.onDidChange(() => tree.refresh()),
    ...registerConnectionCommands(services),
    ...registerAzureCommands(services),
    ...registerWebhookCommands(services),
    ...registerTreeCommands(services),
    ...registerChatCommands(services),
    ...registerListenerCommands(services, events),
  );
  void dropStaleLocalConnections(services).then(() => offerEnvironmentImport(services));
  stopOnDeactivate = () => listener.stop();
  return { services, eventsTree: events };
}

let stopOnDeactivate: (() => Promise<unknown>) | undefined;

/** VS Code waits for this: the tunnel process ends and received events reach the disk. */
export async function deactivate(): Promise<void> {
  await stopOnDeactivate?.().catch(() => undefined);
  disposeLog();
}
