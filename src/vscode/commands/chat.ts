/** Open a chat with a deployment; reopen, export or delete saved conversations. */
import * as vscode from 'vscode';
import { selectionAttachment } from '../chat/attachContext';
import type { ChatManager } from '../chat/chatManager';
import { plainLine } from '../plainText';
import { DeploymentNode } from '../tree/nodes';
import type { Services } from '../services';
import { resolveConnection } from './args';
import { confirmed } from './registry';
import { askDeployment } from './deploymentItem';
import { dateTime } from '../../text/format';

export interface OpenChatArgs {
  connectionId: string;
  deployment: string;
}

async function pickDeployment(s: Services, arg: unknown): Promise<{ connectionId: string; deployment: string } | undefined> {
  if (arg instanceof DeploymentNode) return { connectionId: arg.connection.id, deployment: arg.deployment.name };
  const args = arg as Partial<OpenChatArgs> | undefined;
  if (args?.connectionId && args.deployment) return { connectionId: args.connectionId, deployment: args.deployment };
  if (s.store.list().length === 0) {
    await resolveConnection(s, undefined, vscode.l10n.t('Open chat'));
    return undefined;
  }
  // Kept open when the focus goes back to what ran the command (the walkthrough's Open Chat button).
  const options = { title: vscode.l10n.t('Chat with a deployment'), placeHolder: vscode.l10n.t('Choose a deployment'), ignoreFocusOut: true };
  const picked = await askDeployment(() => s.chat.deployments(), options);
  return picked && { connectionId: picked.connectionId, deployment: picked.deployment };
}

export async function openChat(s: Services, arg: unknown) {
  const target = await pickDeployment(s, arg);
  if (!target) return undefined;
  const conn = s.store.get(target.connectionId);
  if (!conn) throw new Error(vscode.l10n.t('That connection no longer exists.'));
  const panel = await s.chat.open(conn, target.deployment);
  return { conversationId: panel.conversation.id };
}

/** The chat panel used last, brought to the front; else a new chat with the deployment last sent to; else the picker. */
export async function openLastChat(s: Services, arg: unknown) {
  const open = s.chat.active();
  if (open) {
    open.panel.reveal(undefined, false);
    return { conversationId: open.conversation.id };
  }
  return openChat(s, s.chat.lastDeployment() ?? arg);
}

async function pickConversation(chat: ChatManager, arg: unknown, title: string): Promise<string | undefined> {
  const id = (arg as { conversationId?: string } | undefined)?.conversationId;
  if (id) return id;
  const list = await chat.conversations.list();
  if (list.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No saved conversations yet. Open a chat from a deployment in the Azure OpenAI view.'));
    return undefined;
  }
  const detail = (turns: number, at: number) => vscode.l10n.t('{0} messages · {1}', turns, dateTime(at, false));
  const pick = await vscode.window.showQuickPick(
    // A title is the first message's or the model's words: as text.
    list.map((c) => ({ label: plainLine(c.title), description: plainLine(`${c.deployment} · ${c.connectionLabel}`), detail: detail(c.turns, c.updatedAt), id: c.id })),
    { title, matchOnDescription: true },
  );
  return pick?.id;
}

export async function openConversation(s: Services, arg: unknown) {
  const id = await pickConversation(s.chat, arg, vscode.l10n.t('Open a saved conversation'));
  if (!id) return undefined;
  const panel = await s.chat.reopen(id);
  if (!panel) throw new Error(vscode.l10n.t('That conversation could not be read.'));
  return { conversationId: id };
}

export async function exportConversation(s: Services, arg: unknown) {
  const id = await pickConversation(s.chat, arg, vscode.l10n.t('Export a conversation'));
  if (!id) return undefined;
  type Format = 'markdown' | 'json';
  const asked = async () => (await vscode.window.showQuickPick(['markdown', 'json'], { title: vscode.l10n.t('Export as') })) as Format | undefined;
  const format = (arg as { format?: Format } | undefined)?.format ?? (await asked());
  if (!format) return undefined;
  const panel = s.chat.panel(id) ?? (await s.chat.reopen(id));
  return (await panel?.export(format))?.getText();
}

export async function deleteConversation(s: Services, arg: unknown) {
  const id = await pickConversation(s.chat, arg, vscode.l10n.t('Delete a conversation'));
  if (!id) return false;
  if (!(arg as { conversationId?: string } | undefined)?.conversationId) {
    if (!(await confirmed(vscode.l10n.t('Delete this conversation?'), vscode.l10n.t('Delete'), vscode.l10n.t('It cannot be restored.')))) return false;
  }
  await s.chat.delete(id);
  return true;
}

/** The chat a title-bar button belongs to: the one named, else the active chat panel. */
function activeChat(s: Services, arg: unknown) {
  const id = (arg as { conversationId?: unknown } | undefined)?.conversationId;
  const panel = typeof id === 'string' ? s.chat.panel(id) : s.chat.active();
  if (!panel) throw new Error(vscode.l10n.t('No chat panel is open. Open one from a deployment in the Azure OpenAI view.'));
  return panel;
}

export async function exportActiveChat(s: Services, arg: unknown, format: 'markdown' | 'json') {
  return (await activeChat(s, arg).export(format)).getText();
}

export async function clearActiveChat(s: Services, arg: unknown) {
  await activeChat(s, arg).clear();
  return true;
}

/**
 * The editor's selection, attached to the chat panel used last (or a new chat with a deployment
 * the user picks), which comes to the front for the question.
 */
export async function askAboutSelection(s: Services, arg: unknown) {
  const attachment = selectionAttachment(vscode.window.activeTextEditor);
  let panel = s.chat.active();
  if (!panel) {
    const opened = await openChat(s, arg);
    if (!opened) return undefined;
    panel = s.chat.panel(opened.conversationId);
  }
  if (!panel) return undefined;
  panel.panel.reveal(undefined, false);
  await panel.attach(attachment);
  return { conversationId: panel.conversation.id, attached: attachment.name };
}
