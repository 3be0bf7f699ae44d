/** What every command module gets, and how commands read their argument: a tree node or plain args. */
import * as vscode from 'vscode';
import type { AuthManager } from '../auth/authManager';
import type { ClientCache } from '../connections/clients';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import type { ChatManager } from '../chat/chatManager';
import type { EmulatorController } from '../emulatorController';
import type { ListenerController } from '../webhooks/listenerController';
import { showError } from '../log';
import { ConnectionNode, GroupNode, type TreeNode } from '../tree/nodes';
import type { ResourcesTree } from '../tree/resourcesTree';

export interface Services {
  context: vscode.ExtensionContext;
  store: ConnectionStore;
  auth: AuthManager;
  clients: ClientCache;
  tree: ResourcesTree;
  emulator: EmulatorController;
  chat: ChatManager;
  listener: ListenerController;
}

/** Arguments tests and scripts pass instead of a tree node (no UI involved). */
export interface ConnectionArgs {
  connectionId?: string;
}

export function isNode(arg: unknown): arg is TreeNode {
  return arg instanceof ConnectionNode || arg instanceof GroupNode || (!!arg && typeof arg === 'object' && 'type' in arg && 'parent' in arg);
}

export function connectionOfNode(node: TreeNode): ConnectionInfo | undefined {
  if (node instanceof ConnectionNode) return node.info;
  return 'connection' in node ? (node.connection as ConnectionInfo) : undefined;
}

/** The connection an invocation is about: from the node, the args, the only one, or a pick. */
export async function resolveConnection(s: Services, arg: unknown, purpose: string): Promise<ConnectionInfo | undefined> {
  if (isNode(arg)) return connectionOfNode(arg);
  const id = (arg as ConnectionArgs | undefined)?.connectionId;
  if (id) {
    const c = s.store.get(id);
    if (!c) throw new Error(`No connection with id "${id}".`);
    return c;
  }
  const all = s.store.list();
  if (all.length === 0) {
    const add = await vscode.window.showInformationMessage('Add a connection to an Azure OpenAI resource first.', 'Add Connection', 'Start Local Emulator');
    if (add === 'Add Connection') void vscode.commands.executeCommand('aoai-workbench.addConnection');
    if (add === 'Start Local Emulator') void vscode.commands.executeCommand('aoai-workbench.startLocalEmulator');
    return undefined;
  }
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(
    all.map((c) => ({ label: c.label, description: c.endpoint, connection: c })),
    { title: purpose, placeHolder: 'Choose a connection' },
  );
  return pick?.connection;
}

/**
 * Registers `aoai-workbench.<name>`. A failure becomes a clear error message (never a stack
 * trace) and the command returns undefined, so callers and tests see the same outcome.
 */
export function command<T>(name: string, failure: string, fn: (arg: unknown) => Promise<T> | T): vscode.Disposable {
  return vscode.commands.registerCommand(`aoai-workbench.${name}`, async (arg: unknown) => {
    try {
      return await fn(arg);
    } catch (err) {
      // Not awaited: the command ends now; the message stays until the user closes it.
      void showError(failure, err);
      return undefined;
    }
  });
}
