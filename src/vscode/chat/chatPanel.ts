/**
 * One chat panel = one conversation. It validates every message from the webview, runs requests
 * through the chat engine, streams deltas back, and saves the conversation after every change:
 * the user's message is saved before the request starts, so nothing typed is lost on an error.
 */
import * as vscode from 'vscode';
import type { RunInput } from '../../chat/chatEngine';
import { attachmentTokens } from '../../chat/attachments';
import { modelProfile } from '../../chat/modelProfile';
import { chatTitle, connectionName } from '../../chat/naming';
import { estimateUsage } from '../../chat/tokenEstimate';
import type { AzureOpenAIClient } from '../../service/client';
import { loadNetwork } from '../bundles';
import { BackgroundReplies } from './backgroundReplies';
import { continuationOf } from '../../chat/continuation';
import { newId, requestMessages, toJson, toMarkdown, type Conversation } from '../../chat/conversation';
import { isSafeLink, parseViewMessage, type Attachment, type ChatTurn, type DeploymentOption, type HostMessage, type ViewMessage } from '../../chat/protocol';
import type { ClientCache } from '../connections/clients';
import type { ConnectionStore } from '../connections/connectionStore';
import { logError, logInfo, redact } from '../log';
import { fileAttachment, imageAttachment, pickFile, selectionAttachment } from './attachContext';
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
  private readonly background = new BackgroundReplies((msg) => this.post(msg));

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
  /** What the next message will carry; shown as chips in the composer. */
  private pending: Attachment[] = [];

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
        await this.postAttachments();
        this.resumeBackground();
        return;
      case 'attach':
        if (msg.kind === 'selection') return this.attach(selectionAttachment(vscode.window.activeTextEditor));
        {
          const uri = await pickFile(msg.kind === 'image');
          if (uri) await this.attachUri(uri, msg.kind);
        }
        return;
      case 'removeAttachment':
        this.pending = this.pending.filter((a) => a.id !== msg.id);
        return this.postAttachments();
      case 'send':
        return this.send(msg.text);
      case 'stop':
        // A background reply is cancelled on the service; following it then ends by itself.
        if (!(await this.background.cancel().catch((err: unknown) => (logError(`Cancelling a background reply: ${(err as Error).message}`), false)))) this.run?.abort();
        return;
      case 'regenerate':
        return this.regenerate();
      case 'editLast':
        return this.editLast(msg.text);
      case 'editFrom':
        return this.editFrom(msg.turnId, msg.text);
      case 'setDeployment': {
        const conn = this.deps.connections.get(msg.connectionId);
        if (!conn) throw new Error('That connection no longer exists.');
        Object.assign(this.conversation, { connectionId: conn.id, connectionLabel: connectionName(conn), deployment: msg.deployment });
        await this.save();
        this.post({ type: 'conversation', conversation: this.conversation });
        // A model that takes no images cannot be sent the ones attached.
        if (!(await this.takesImages())) this.pending = this.pending.filter((a) => a.kind !== 'image');
        await this.postAttachments();
        return;
      }
      case 'setParams':
        this.conversation.params = { ...this.conversation.params, ...msg.params };
        await this.save();
        return;
      case 'copyCode':
        await vscode.env.clipboard.writeText(msg.code);
        return;
      case 'copyTurn': {
        const turn = this.conversation.turns.find((t) => t.id === msg.turnId);
        if (turn) await vscode.env.clipboard.writeText(turn.content);
        return;
      }
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
        return this.clear();
    }
  }

  /** The model behind the conversation's deployment, as the listing or the last reply names it. */
  private async model(): Promise<string> {
    const c = this.conversation;
    const listed = (await this.deps.deployments().catch(() => [])).find((d) => d.connectionId === c.connectionId && d.deployment === c.deployment);
    return listed?.model ?? c.turns.findLast((t) => t.model)?.model ?? c.deployment;
  }

  private async takesImages(): Promise<boolean> {
    return modelProfile(await this.model()).imageInput;
  }

  private async postAttachments(): Promise<void> {
    const items = this.pending.map((a) => ({ id: a.id, kind: a.kind, name: a.name, tokens: attachmentTokens([a]) }));
    this.post({ type: 'attachments', items, imageInput: await this.takesImages() });
  }

  /** Adds context to the next message. */
  async attach(attachment: Attachment): Promise<void> {
    if (attachment.kind === 'image' && !(await this.takesImages())) {
      throw new Error(`${await this.model()} does not take images. Pick a deployment of a model that does (gpt-4o, gpt-4.1, o3…).`);
    }
    this.pending.push(attachment);
    await this.postAttachments();
  }

  /** Adds a file, or an image, to the next message. */
  async attachUri(uri: vscode.Uri, kind: 'file' | 'image'): Promise<void> {
    await this.attach(kind === 'image' ? await imageAttachment(uri) : await fileAttachment(uri));
  }

  /** Stops any reply and empties the conversation (its settings stay). */
  async clear(): Promise<void> {
    this.run?.abort();
    await this.idle();
    this.conversation.turns = [];
    await this.save();
    this.post({ type: 'conversation', conversation: this.conversation });
  }

  async send(text: string): Promise<void> {
    if (this.busy) return;
    const turn: ChatTurn = { id: newId('t_'), role: 'user', content: text, createdAt: Date.now() };
    if (this.pending.length) {
      turn.attachments = this.pending;
      this.pending = [];
      void this.postAttachments();
    }
    this.conversation.turns.push(turn);
    if (this.conversation.turns.filter((t) => t.role === 'user').length === 1) {
      this.conversation.title = chatTitle(text, this.conversation.title);
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

  /** Replaces the user's message `turnId` and everything after it, then sends `text`. */
  private async editFrom(turnId: string, text: string): Promise<void> {
    if (this.busy) return;
    const i = this.conversation.turns.findIndex((t) => t.id === turnId && t.role === 'user');
    if (i < 0) throw new Error('That message is no longer in the conversation.');
    this.conversation.turns.splice(i);
    await this.save();
    this.post({ type: 'conversation', conversation: this.conversation });
    await this.send(text);
  }

  /** Streams the assistant's reply to the conversation as it stands (or starts it in the background). */
  private reply(): Promise<void> {
    const c = this.conversation;
    const turn: ChatTurn = { id: newId('t_'), role: 'assistant', content: '', createdAt: Date.now(), deployment: c.deployment };
    this.post({ type: 'turnStarted', turn });
    return this.track(turn, async (client, model, signal) => {
      const input: RunInput = {
        client,
        deployment: c.deployment,
        model,
        messages: requestMessages(c),
        continuation: continuationOf(c),
        params: c.params,
        signal,
        onDelta: (text) => {
          turn.content += text;
          this.post({ type: 'delta', turnId: turn.id, text });
        },
        onReasoning: (text) => this.post({ type: 'reasoningDelta', turnId: turn.id, text }),
        onRetryWait: (seconds) => this.post({ type: 'retryCountdown', turnId: turn.id, seconds }),
      };
      if (c.params.background) {
        await this.background.start(input, modelProfile(model ?? c.deployment), turn);
        // Saved while queued: a reload picks the reply up again by its id.
        c.turns.push(turn);
        await this.save();
        return BackgroundReplies.pending(turn) ? this.background.follow(client, turn, signal) : true;
      }
      const { stopped, ...result } = await loadNetwork().runChat(input);
      Object.assign(turn, result, { stopped: stopped || undefined });
      // Stopped before the service sent its figures: count locally, and say so.
      if (!result.usage && stopped) Object.assign(turn, { usage: estimateUsage(input.messages, turn.content), usageEstimated: true });
      return true;
    });
  }

  /** After a reload: follow a background reply that was still running. */
  private resumeBackground(): void {
    const turn = this.conversation.turns.at(-1);
    if (this.busy || !BackgroundReplies.pending(turn)) return;
    void this.track(turn, (client, _model, signal) => this.background.follow(client, turn, signal));
  }

  /**
   * Runs `work` for an assistant turn: the panel is busy meanwhile, errors become the turn's
   * error, and the finished turn is saved and shown. `work` returns false when the panel closed
   * before the end (the turn stays as saved).
   */
  private track(turn: ChatTurn, work: (client: AzureOpenAIClient, model: string | undefined, signal: AbortSignal) => Promise<boolean>): Promise<void> {
    const c = this.conversation;
    const abort = new AbortController();
    this.run = abort;
    this.running = (async () => {
      let finished = true;
      try {
        const conn = this.deps.connections.get(c.connectionId);
        if (!conn) throw new Error(`The connection "${c.connectionLabel}" no longer exists. Pick another deployment at the top of the panel.`);
        const client = await this.deps.clients.get(conn);
        // The model behind the deployment decides the API (the listing is cached).
        const listed = (await this.deps.deployments().catch(() => [])).find((d) => d.connectionId === c.connectionId && d.deployment === c.deployment);
        finished = await work(client, listed?.model, abort.signal);
      } catch (err) {
        turn.error = loadNetwork().errorInfo(err);
        turn.error.message = redact(turn.error.message);
        logError(`Chat with ${c.deployment}: ${turn.error.message}`);
      } finally {
        this.run = undefined;
        this.running = undefined;
      }
      if (!finished) return;
      if (!c.turns.includes(turn)) c.turns.push(turn);
      await this.save();
      this.post({ type: 'turnFinished', turn });
      // A failed request gives the message back to the composer, to fix and send again.
      const asked = c.turns.at(-2);
      if (turn.error && asked?.role === 'user') this.post({ type: 'restoreDraft', text: asked.content, turnId: asked.id });
    })();
    return this.running;
  }

  /** A `response.*` webhook delivery arrived for this response id. */
  wake(responseId: string): void {
    this.background.wake(responseId);
  }

  /** The deployment lists changed (a Refresh, a sign-in): the picker shows them as they are now. */
  showDeployments(deployments: DeploymentOption[]): void {
    this.post({ type: 'deployments', deployments });
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
