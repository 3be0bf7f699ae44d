/**
 * "Open chat" on a deployment. Until the chat panel arrives, it asks for one message and streams
 * the reply into a Markdown document; the command id and its arguments stay the same.
 */
import * as vscode from 'vscode';
import { DeploymentNode } from '../tree/nodes';
import { logInfo } from '../log';
import { command, resolveConnection, type Services } from './context';

export interface OpenChatArgs {
  connectionId: string;
  deployment: string;
  /** Sent without asking (tests, scripts). */
  prompt?: string;
  /** Do not open a document for the reply. */
  quiet?: boolean;
}

async function pickDeployment(s: Services, arg: unknown): Promise<{ connectionId: string; deployment: string } | undefined> {
  if (arg instanceof DeploymentNode) return { connectionId: arg.connection.id, deployment: arg.deployment.name };
  const args = arg as Partial<OpenChatArgs> | undefined;
  if (args?.connectionId && args.deployment) return { connectionId: args.connectionId, deployment: args.deployment };
  const conn = await resolveConnection(s, args, 'Open chat');
  if (!conn) return undefined;
  const client = await s.clients.get(conn);
  const list = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Listing deployments…' }, () => client.listDeployments());
  const pick = await vscode.window.showQuickPick(list.map((d) => ({ label: d.name, description: [d.model, d.modelVersion].filter(Boolean).join(' ') })), { title: `Chat with a deployment of ${conn.label}` });
  return pick && { connectionId: conn.id, deployment: pick.label };
}

async function openChat(s: Services, arg: unknown) {
  const target = await pickDeployment(s, arg);
  if (!target) return undefined;
  const conn = s.store.get(target.connectionId);
  if (!conn) throw new Error('That connection no longer exists.');
  const args = arg as Partial<OpenChatArgs> | undefined;
  const prompt = args?.prompt ?? (await vscode.window.showInputBox({ title: `Chat with ${target.deployment}`, prompt: 'Your message', ignoreFocusOut: true }));
  if (!prompt) return undefined;
  const client = await s.clients.get(conn);
  const t0 = Date.now();
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `${target.deployment} is answering…`, cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return client.streamChat({ deployment: target.deployment, messages: [{ role: 'user', content: prompt }], stream_options: { include_usage: true } }, () => {}, { signal: abort.signal });
    },
  );
  const ms = Date.now() - t0;
  logInfo(`Chat with ${target.deployment}: ${result.usage?.total_tokens ?? '?'} tokens in ${ms} ms.`);
  if (!args?.quiet) {
    const usage = result.usage ? `${result.usage.prompt_tokens} prompt + ${result.usage.completion_tokens} completion tokens` : 'usage not reported';
    const content = `**You:** ${prompt}\n\n**${target.deployment}** (${result.model ?? 'model'}, ${ms} ms, ${usage}):\n\n${result.content}\n`;
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
  return { content: result.content, finishReason: result.finishReason, usage: result.usage };
}

export function registerChatCommands(s: Services): vscode.Disposable[] {
  return [command('openChat', 'The chat request failed', (arg) => openChat(s, arg))];
}
