/**
 * One chat panel = one conversation. It validates every message from the webview, runs requests
 * through the chat engine, streams deltas back, and saves the conversation after every change:
 * the user's message is saved before the request starts, so nothing typed is lost on an error.
 */
import * as vscode from 'vscode';
import { errorInfo, runChat } from '../../chat/chatEngine';
import { continuationOf } from '../../chat/continuation';
import { newId, requestMessages, titleFrom, toJson, toMarkdown, type Conversation } from '../../chat/conversation';
import { isSafeLink, parseViewMessage, type ChatTurn, type DeploymentOption, type HostMessage, type ViewMessage } from '../../chat/protocol';
import type { ClientCache } from '../connections/clients';
import type { ConnectionStore } from '../connections/connectionStore';
import { logError, logInfo, redact } from '../log';
import { chatHtml } from './chatHtml';
import type { ConversationStore } from './conversationStore';

export interface ChatDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionStore;
  clients: ClientCache;
  conversations: ConversationStore;
  deployments: () => Promise<DeploymentOption[]>;
}

export class ChatPanel implements vscode.Disposable {
  private run: AbortController | undefined;
  private running: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<HostMessage>();
  /** Every message sent to the webview (tests watch this). */
  readonly onDidPost = this.posted.event;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    public conversation: Conversation,
    private readonly deps: ChatDeps,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist'), vscode.Uri.joinPath(deps.extensionUri, 'media')] };
    panel.title = conversation.title;
    panel.webview.html = chatHtml(panel.webview, deps.extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw) => void this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  get busy(): boolean {
    return !!this.run;
  }

  /** Resolves when no request is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private disposed = false;

  private post(msg: HostMessage): void {
    if (this.disposed) return;
    this.posted.fire(msg);
    void this.panel.webview.postMessage(msg);
  }

  private async save(): Promise<void> {
    this.conversation.updatedAt = Date.now();
    try {
      await this.deps.conversations.save(this.conversation);
    } catch (err) {
      logError(`Could not save the conversation "${this.conversation.title}": ${(err as Error).message}`);
      void vscode.window.showErrorMessage(`The conversation could not be saved (${(err as Error).message}). Export it to keep a copy.`, 'Export as Markdown').then((c) => c && this.export('markdown'));
    }
  }

  /** Entry point for everything the webview sends; invalid messages are dropped. */
  async receive(raw: unknown): Promise<void> {
    const msg = parseViewMessage(raw);
    if (!msg) {
      logError(`Ignored an invalid message from the chat view: ${redact(JSON.stringify(raw)?.slice(0, 200) ?? String(raw))}`);
      return;
    }
    try {
      await this.handle(msg);
    } catch (err) {
      logError(`Chat: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(redact((err as Error).message));
    }
  }

  private async handle(msg: ViewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.post({ type: 'init', conversation: this.conversation, deployments: [], busy: this.busy });
        void this.deps.deployments().then((deployments) => this.post({ type: 'deployments', deployments }));
        return;
      case 'send':
        return this.send(msg.text);
      case 'stop':
        this.run?.abort();
        return;
      case 'regenerate':
        return this.regenerate();
      case 'editLast':
        return this.editLast(msg.text);
      case 'setDeployment': {
        const conn = this.deps.connections.get(msg.connectionId);
        if (!conn) throw new Error('That connection no longer exists.');
        Object.assign(this.conversation, { connectionId: conn.id, connectionLabel: conn.label, deployment: msg.deployment });
        await this.save();
        this.post({ type: 'conversation', conversation: this.conversation });
        return;
      }
      case 'setParams':
        this.conversation.params = { ...this.conversation.params, ...msg.params };
        await this.save();
        return;
      case 'copyCode':
        await vscode.env.clipboard.writeText(msg.code);
        return;
      case 'insertCode':
        return this.insert(msg.code);
      case 'openLink':
        if (isSafeLink(msg.href)) await vscode.env.openExternal(vscode.Uri.parse(msg.href, true));
        else logInfo(`Blocked a link from a chat reply: ${msg.href.slice(0, 100)}`);
        return;
      case 'export':
        await this.export(msg.format);
        return;
      case 'clear':
        this.run?.abort();
        await this.idle();
        this.conversation.turns = [];
        await this.save();
        this.post({ type: 'conversation', conversation: this.conversation });
        return;
    }
  }

  async send(text: string): Promise<void> {
    if (this.busy) return;
    const turn: ChatTurn = { id: newId('t_'), role: 'user', content: text, createdAt: Date.now() };
    this.conversation.turns.push(turn);
    if (this.conversation.turns.filter((t) => t.role === 'user').length === 1) {
      this.conversation.title = titleFrom(text);
      this.panel.title = this.conversation.title;
    }
    await this.save();
    this.post({ type: 'turnStarted', turn });
    await this.reply();
  }

  private async regenerate(): Promise<void> {
    if (this.busy) return;
    const turns = this.conversation.turns;
    if (turns.at(-1)?.role === 'assistant') turns.pop();
    if (turns.at(-1)?.role !== 'user') return;
    await this.save();
    this.post({ type: 'conversation', conversation: this.conversation });
    await this.reply();
  }

  private async editLast(text: string): Promise<void> {
    if (this.busy) return;
    const turns = this.conversation.turns;
    let i = turns.length - 1;
    while (i >= 0 && turns[i].role !== 'user') i--;
    if (i < 0) return this.send(text);
    turns.splice(i);
    await this.save();
    this.post({ type: 'conversation', conversation: this.conversation });
    await this.send(text);
  }

  /** Streams the assistant's reply to the conversation as it stands. */
  private reply(): Promise<void> {
    const c = this.conversation;
    const turn: ChatTurn = { id: newId('t_'), role: 'assistant', content: '', createdAt: Date.now(), deployment: c.deployment };
    const abort = new AbortController();
    this.run = abort;
    this.post({ type: 'turnStarted', turn });
    this.running = (async () => {
      try {
        const conn = this.deps.connections.get(c.connectionId);
        if (!conn) throw new Error(`The connection "${c.connectionLabel}" no longer exists. Pick another deployment at the top of the panel.`);
        const client = await this.deps.clients.get(conn);
        // The model behind the deployment decides the API (the listing is cached).
        const listed = (await this.deps.deployments().catch(() => [])).find((d) => d.connectionId === c.connectionId && d.deployment === c.deployment);
        const result = await runChat({
          client,
          deployment: c.deployment,
          model: listed?.model,
          messages: requestMessages(c),
          continuation: continuationOf(c),
          params: c.params,
          signal: abort.signal,
          onDelta: (text) => {
            turn.content += text;
            this.post({ type: 'delta', turnId: turn.id, text });
          },
          onReasoning: (text) => this.post({ type: 'reasoningDelta', turnId: turn.id, text }),
          onRetryWait: (seconds) => this.post({ type: 'retryCountdown', turnId: turn.id, seconds }),
        });
        const { content, usage, model, latencyMs, finishReason, stopped, api, reasoningSummary, responseId, notes } = result;
        Object.assign(turn, { content, usage, model, latencyMs, finishReason, stopped: stopped || undefined, api, reasoningSummary, responseId, notes });
      } catch (err) {
        turn.error = errorInfo(err);
        turn.error.message = redact(turn.error.message);
        logError(`Chat with ${c.deployment}: ${turn.error.message}`);
      } finally {
        this.run = undefined;
        this.running = undefined;
      }
      c.turns.push(turn);
      await this.save();
      this.post({ type: 'turnFinished', turn });
    })();
    return this.running;
  }

  private async insert(code: string): Promise<void> {
    // With the panel focused there is no active editor: use the one beside it.
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) {
      const doc = await vscode.workspace.openTextDocument({ content: code });
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
      return;
    }
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
  }

  async export(format: 'markdown' | 'json'): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument({ language: format, content: format === 'json' ? toJson(this.conversation) : toMarkdown(this.conversation) });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    return doc;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.run?.abort();
    this.closed.fire();
    this.posted.dispose();
    this.closed.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.panel.dispose();
  }
}
