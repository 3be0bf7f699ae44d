/**
 * One chat panel = one conversation. Its page talks to it through the shared panel host (every
 * message validated), its requests go through the chat runner, and the conversation is saved
 * after every change: the user's message before the request starts, the reply as it streams
 * (throttled), so nothing is lost on an error, a reload or a crash.
 */
import * as vscode from 'vscode';
import { newId, toJson, toMarkdown, type Conversation } from '../../chat/conversation';
import type { Attachment, ChatTurn, DeploymentOption } from '../../chat/model';
import { modelProfile } from '../../chat/modelProfile';
import { chatTitle, connectionName } from '../../chat/naming';
import type { RunRequest } from '../../chat/engine/runner';
import { markInterrupted } from '../../chat/replyDraft';
import type { AzureOpenAIClient } from '../../service/client';
import { isSafeLink, parseViewMessage, type HostMessage, type ViewMessage } from '../../webview/chat/protocol';
import { loadMarkup, loadNetwork } from '../bundles';
import type { ClientCache } from '../connections/clients';
import type { ConnectionStore } from '../connections/connectionStore';
import { Commands } from '../contributions';
import { logError, logInfo, redact } from '../log';
import { plainLine } from '../plainText';
import { PanelHost } from '../webview/panelHost';
import { webviewHtml } from '../webviewHtml';
import { BackgroundReplies } from './backgroundReplies';
import { Composer } from './composer';
import type { ConversationStore } from './conversationStore';
import { insertCode } from './insertCode';
import { streamReply } from './streamReply';

export interface ChatDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionStore;
  clients: ClientCache;
  conversations: ConversationStore;
  deployments: () => Promise<DeploymentOption[]>;
  /** Where each request's usage report goes (the usage log). */
  onReport?: RunRequest['onReport'];
}

export class ChatPanel implements vscode.Disposable {
  private run: AbortController | undefined;
  private running: Promise<void> | undefined;
  private readonly posted = new vscode.EventEmitter<HostMessage>();
  /** Every message sent to the webview (tests watch this). */
  readonly onDidPost = this.posted.event;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  private readonly host: PanelHost<HostMessage, ViewMessage>;
  private readonly background = new BackgroundReplies((msg) => this.post(msg));
  /** What the next message will carry; shown as chips in the composer. */
  private readonly composer = new Composer((msg) => this.post(msg), () => this.model().then((name) => ({ name, imageInput: modelProfile(name).imageInput })));

  constructor(
    readonly panel: vscode.WebviewPanel,
    public conversation: Conversation,
    private readonly deps: ChatDeps,
  ) {
    panel.title = conversation.title;
    this.host = new PanelHost(panel, deps.extensionUri, {
      label: 'the chat view',
      html: (webview) => webviewHtml(webview, deps.extensionUri, { title: 'Chat', style: 'chat.css', script: 'pages.js', page: 'chat', body: loadMarkup().chatBodyHtml(), images: true }),
      parse: parseViewMessage,
      onReady: () => this.ready(),
      onMessage: (msg) => this.handle(msg),
      onPost: (msg) => this.posted.fire(msg),
    }, () => this.dispose());
    // A reply that was streaming when the window reloaded or the extension host stopped: kept, marked.
    if (markInterrupted(conversation)) void this.save();
  }

  get busy(): boolean {
    return !!this.run;
  }

  /** Resolves when no request is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private post(msg: HostMessage): void {
    this.host.post(msg);
  }

  private async save(): Promise<void> {
    this.conversation.updatedAt = Date.now();
    try {
      await this.deps.conversations.save(this.conversation);
    } catch (err) {
      logError(`Could not save the conversation "${this.conversation.title}": ${(err as Error).message}`);
      void vscode.window
        .showErrorMessage(vscode.l10n.t('The conversation could not be saved ({0}). Export it to keep a copy.', plainLine((err as Error).message, 400)), vscode.l10n.t('Export as Markdown'))
        .then((c) => (c ? this.export('markdown') : undefined));
    }
  }

  /** Entry point for everything the webview sends; invalid messages are dropped. */
  receive(raw: unknown): Promise<void> {
    return this.host.receive(raw);
  }

  private async ready(): Promise<void> {
    this.post({ type: 'init', conversation: this.conversation, deployments: [], busy: this.busy });
    void this.deps.deployments().then((deployments) => this.post({ type: 'deployments', deployments }));
    await this.composer.show();
    this.resumeBackground();
  }

  private async handle(msg: Exclude<ViewMessage, { type: 'ready' }>): Promise<void> {
    switch (msg.type) {
      case 'attach':
        return this.composer.pick(msg.kind);
      case 'removeAttachment':
        return this.composer.remove(msg.id);
      case 'send':
        return this.send(msg.text);
      case 'stop':
        // A background reply is cancelled on the service; following it then ends by itself.
        if (!(await this.background.cancel().catch((err: unknown) => (logError(`Cancelling a background reply: ${(err as Error).message}`), false)))) this.run?.abort();
        return;
      case 'regenerate':
        return this.regenerate();
      case 'editFrom':
        return this.editFrom(msg.turnId, msg.text);
      case 'setDeployment': {
        const conn = this.deps.connections.get(msg.connectionId);
        if (!conn) throw new Error(vscode.l10n.t('That connection no longer exists.'));
        Object.assign(this.conversation, { connectionId: conn.id, connectionLabel: connectionName(conn), deployment: msg.deployment });
        await this.save();
        this.post({ type: 'conversation', conversation: this.conversation });
        return this.composer.deploymentChanged();
      }
      case 'setParams':
        this.conversation.params = { ...this.conversation.params, ...msg.params };
        return this.save();
      case 'copyCode':
        return vscode.env.clipboard.writeText(msg.code);
      case 'copyTurn':
      case 'showTrace': {
        const turn = this.conversation.turns.find((t) => t.id === msg.turnId);
        if (msg.type === 'showTrace') return void (await vscode.commands.executeCommand(Commands.showTrace, turn?.traceId));
        return void (turn && (await vscode.env.clipboard.writeText(turn.content)));
      }
      case 'insertCode':
        return insertCode(msg.code);
      case 'openLink':
        if (isSafeLink(msg.href)) await vscode.env.openExternal(vscode.Uri.parse(msg.href, true));
        else logInfo(`Blocked a link from a chat reply: ${msg.href.slice(0, 100)}`);
        return;
    }
  }

  /** The model behind the conversation's deployment, as the listing or the last reply names it. */
  private async model(): Promise<string> {
    const c = this.conversation;
    const listed = (await this.deps.deployments().catch(() => [])).find((d) => d.connectionId === c.connectionId && d.deployment === c.deployment);
    return listed?.model ?? c.turns.findLast((t) => t.model)?.model ?? c.deployment;
  }

  /** Adds context to the next message. */
  attach(attachment: Attachment): Promise<void> {
    return this.composer.add(attachment);
  }

  /** Adds a file, or an image, to the next message. */
  attachUri(uri: vscode.Uri, kind: 'file' | 'image'): Promise<void> {
    return this.composer.addUri(uri, kind);
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
    const attachments = this.composer.take();
    if (attachments) turn.attachments = attachments;
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

  /** Replaces the user's message `turnId` and everything after it, then sends `text`. */
  private async editFrom(turnId: string, text: string): Promise<void> {
    if (this.busy) return;
    const i = this.conversation.turns.findIndex((t) => t.id === turnId && t.role === 'user');
    if (i < 0) throw new Error(vscode.l10n.t('That message is no longer in the conversation.'));
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
    const panel = {
      post: (msg: HostMessage) => this.post(msg), save: () => this.save(), background: this.background, cutOff: () => this.cutOff, onReport: this.deps.onReport,
      storage: this.deps.conversations.dir,
    };
    return this.track(turn, (client, model, signal) => streamReply({ conversation: c, turn, client, model, signal, ...panel }));
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
        if (!conn) throw new Error(vscode.l10n.t('The connection "{0}" no longer exists. Pick another deployment at the top of the panel.', c.connectionLabel));
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
  wake(...delivery: Parameters<BackgroundReplies['wake']>): void {
    this.background.wake(...delivery);
  }

  /** The deployment lists changed (a Refresh, a sign-in): the picker shows them as they are now. */
  showDeployments(deployments: DeploymentOption[]): void {
    this.post({ type: 'deployments', deployments });
  }

  async export(format: 'markdown' | 'json'): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument({ language: format, content: format === 'json' ? toJson(this.conversation) : toMarkdown(this.conversation) });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    return doc;
  }

  private disposed = false;
  /** The window is going away (reload, close): a reply in flight is cut off, not stopped by the user. */
  private cutOff = false;

  dispose(windowClosing = false): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cutOff = windowClosing;
    this.run?.abort();
    this.closed.fire();
    this.posted.dispose();
    this.closed.dispose();
    this.host.dispose();
  }
}
