/** What a command is about: a tree node (from the UI) or plain arguments (from scripts and tests). */
import * as vscode from 'vscode';
import type { ConnectionInfo } from '../connections/connectionStore';
import { Commands } from '../contributions';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { isJobNode } from '../tree/jobNodes';
import { ConnectionNode, DeploymentNode, GroupNode, MessageNode, WebhookNode, type TreeNode } from '../tree/nodes';
import { isMarkedOwned } from '../ownedArgs';

export { owned } from '../ownedArgs';

/** Arguments tests and scripts pass instead of a tree node (no UI involved). */
export interface ConnectionArgs {
  connectionId?: string;
}

/** A row of our tree: an instance of its classes, never an object shaped like one (a link's JSON could be). */
export function isNode(arg: unknown): arg is TreeNode {
  const rows = [ConnectionNode, GroupNode, DeploymentNode, WebhookNode, MessageNode];
  return rows.some((row) => arg instanceof row) || isJobNode(arg);
}

/** What our own UI passed: a tree row, arguments marked as ours, or the document an editor title button is on (it says nothing more). */
export const isOwned = (arg: unknown): boolean => isNode(arg) || arg instanceof vscode.Uri || isMarkedOwned(arg);

/**
 * Plain arguments, or undefined when the command came from a tree node, without any, or from an
 * editor's title bar (VS Code passes the document's Uri, whose `path` is no export path).
 */
export function argsOf<T extends object>(arg: unknown, key?: keyof T): T | undefined {
  if (!arg || typeof arg !== 'object' || isNode(arg) || arg instanceof vscode.Uri) return undefined;
  return key === undefined || key in arg ? (arg as T) : undefined;
}

/** A file named in a command's arguments: absolute as given, else under the first workspace folder. */
export function workspacePath(file: string): string {
  if (/^([a-z]:)?[\\/]/i.test(file)) return file;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(vscode.l10n.t('"{0}" is a relative path and no folder is open: pass an absolute path.', file));
  return vscode.Uri.joinPath(folder.uri, file).fsPath;
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
    if (!c) throw new Error(vscode.l10n.t('No connection with id "{0}".', id));
    return c;
  }
  const all = s.store.list();
  if (all.length === 0) {
    const [addConnection, startEmulator] = [vscode.l10n.t('Add Connection'), vscode.l10n.t('Start Local Emulator')];
    const add = await vscode.window.showInformationMessage(vscode.l10n.t('Add a connection to an Azure OpenAI resource first.'), addConnection, startEmulator);
    if (add === addConnection) void vscode.commands.executeCommand(Commands.addConnection);
    if (add === startEmulator) void vscode.commands.executeCommand(Commands.startLocalEmulator);
    return undefined;
  }
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(
    all.map((c) => ({ label: plainLine(c.label), description: plainLine(c.endpoint, 300), connection: c })),
    { title: purpose, placeHolder: vscode.l10n.t('Choose a connection') },
  );
  return pick?.connection;
}
