/**
 * Opens chat panels (one per conversation), brings them back after a reload through the webview
 * serializer, and offers the chat deployments of every connection to the panels' pickers, as the
 * deployment catalog lists them (a Refresh in the sidebar or a sign-in change reaches them).
 */
import * as vscode from 'vscode';
import { createConversation, type Conversation } from '../../chat/conversation';
import type { RequestReport } from '../../chat/engine/report';
import type { RunRequest } from '../../chat/engine/runner';
import { connectionName } from '../../chat/naming';
import type { DeploymentOption } from '../../chat/model';
import type { ClientCache } from '../connections/clients';
import type { ConnectionCatalog } from '../connections/connectionCatalog';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import { responseIdOf } from '../../webhooks/inspect/deliveryView';
import type { DeliveryRecord } from '../../webhooks/store/records';
import type { WebhookEvents } from '../../webhooks/store/webhookEvents';
import { errorText, logError } from '../log';
import { Views } from '../contributions';
import { loadTrace } from '../layerBundles';
import { registerPanelSerializer } from '../webview/panelHost';
import { ChatPanel } from './chatPanel';
import { ConversationStore } from './conversationStore';

/** Global state: the connection and deployment a panel last sent to (Open Chat with the Last Deployment). */
const LAST_DEPLOYMENT_KEY = 'chat.lastDeployment';

function newPanel(title: string): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(Views.chat, title, vscode.ViewColumn.Active, { retainContextWhenHidden: true, enableFindWidget: true });
}

export class ChatManager implements vscode.Disposable {
  readonly conversations: ConversationStore;
  private readonly panels = new Map<string, ChatPanel>();
  /** The chat panel the user used last (title-bar commands and Ask About Selection act on it). */
  private lastActive: ChatPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionStore,
    private readonly clients: ClientCache,
    private readonly catalog: ConnectionCatalog,
    /** Where each request's usage report goes (the usage log). */
    private readonly onReport?: RunRequest['onReport'],
  ) {
    this.conversations = new ConversationStore(context.globalStorageUri);
    this.disposables.push(
      registerPanelSerializer(Views.chat, (panel, state) => this.restore(panel, state)),
      // Open pickers follow the lists: connections added or removed, a list refreshed or relisted.
      connections.onDidChange(() => this.deploymentsChanged()),
      catalog.onDidChange(() => this.deploymentsChanged()),
    );
  }

  /**
   * Background replies finish sooner when the listener is running: each verified `response.*`
   * delivery makes the panel following that response look at it at once.
   */
  watchResponseEvents(events: Pick<WebhookEvents, 'onDidArrive' | 'onDidUpdate' | 'get'>, forwards: (r: DeliveryRecord) => boolean = () => false): vscode.Disposable {
    return events.onDidArrive((row) => {
      // Only a panel following a background reply wants it: no decode, and no parse, for the rest.
      if (!this.panels.size || row.verdict !== 'verified' || !row.eventType?.startsWith('response.')) return;
      const r = row.record();
      const id = responseIdOf(r);
      // The trace of the reply it wakes notes it, and the app's answer to its forward when the listener forwards it (src/trace/backgroundTrace.ts).
      const delivery = { record: r, forwarded: forwards(r) ? () => loadTrace().forwardOf(events, r.id) : undefined };
      if (id) for (const panel of this.panels.values()) panel.wake(id, delivery);
    });
  }

  panel(conversationId: string): ChatPanel | undefined {
    return this.panels.get(conversationId);
  }

  private readonly report = (r: RequestReport): void => {
    if (r.source === 'panel' && r.connection) void this.context.globalState.update(LAST_DEPLOYMENT_KEY, { connectionId: r.connection, deployment: r.deployment });
    this.onReport?.(r);
  };

  /** The deployment a panel last sent to, while its connection is still there. */
  lastDeployment(): { connectionId: string; deployment: string } | undefined {
    const last = this.context.globalState.get<{ connectionId?: unknown; deployment?: unknown }>(LAST_DEPLOYMENT_KEY);
    if (typeof last?.connectionId !== 'string' || typeof last.deployment !== 'string' || !this.connections.get(last.connectionId)) return undefined;
    return { connectionId: last.connectionId, deployment: last.deployment };
  }

  /** The active chat panel, else the one used last while it is open. */
  active(): ChatPanel | undefined {
    for (const p of this.panels.values()) if (p.panel.active) return p;
    return this.lastActive;
  }

  /** The chat deployments of every connection, for the pickers (the catalog keeps the lists). */
  async deployments(): Promise<DeploymentOption[]> {
    const all = await this.catalog.everyChatDeployment((conn, err) => logError(`Deployments of ${conn.label} for the chat picker: ${errorText(err)}`));
    return all.map(({ connection: conn, deployment: d }) => ({
      connectionId: conn.id,
      connectionLabel: connectionName(conn),
      deployment: d.name,
      model: d.model,
      modelVersion: d.modelVersion,
      // The data plane's "scale type" (standard, manual) is not a SKU.
      sku: d.source === 'data-plane' ? undefined : d.sku,
    }));
  }

  /** Sends the open panels' pickers the lists as they are now (listing only while a panel is open). */
  private deploymentsChanged(): void {
    if (this.panels.size === 0) return;
    void this.deployments().then((list) => {
      for (const p of this.panels.values()) p.showDeployments(list);
    });
  }

  private attach(panel: vscode.WebviewPanel, conversation: Conversation): ChatPanel {
    const chat = new ChatPanel(panel, conversation, {
      extensionUri: this.context.extensionUri,
      connections: this.connections,
      clients: this.clients,
      conversations: this.conversations,
      deployments: () => this.deployments(),
      onReport: this.report,
    });
    this.panels.set(conversation.id, chat);
    this.lastActive = chat;
    chat.onDidClose(() => {
      this.panels.delete(conversation.id);
      if (this.lastActive === chat) this.lastActive = undefined;
    });
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.lastActive = chat;
    });
    return chat;
  }

  /** A new conversation with a deployment, in a new panel. */
  async open(conn: ConnectionInfo, deployment: string): Promise<ChatPanel> {
    const conversation = createConversation({
      connectionId: conn.id,
      connectionLabel: connectionName(conn),
      deployment,
      params: { apiVersion: conn.apiVersion },
    });
    await this.conversations.save(conversation);
    return this.attach(newPanel(conversation.title), conversation);
  }

  /** A saved conversation: its panel if open, else a new panel. */
  async reopen(id: string): Promise<ChatPanel | undefined> {
    const open = this.panels.get(id);
    if (open) {
      open.panel.reveal();
      return open;
    }
    const conversation = await this.conversations.load(id);
    if (!conversation) return undefined;
    return this.attach(newPanel(conversation.title), conversation);
  }

  /** Opens the conversation whose reply the service's response `responseId` gave (an open panel first: it may be ahead of its file). */
  async openWithResponse(responseId: string): Promise<ChatPanel | undefined> {
    for (const p of this.panels.values()) {
      if (p.conversation.turns.some((t) => t.responseId === responseId)) {
        p.panel.reveal();
        return p;
      }
    }
    const saved = await this.conversations.withResponse(responseId);
    return saved && this.reopen(saved.id);
  }

  /** After a window reload: the webview saved its conversation id with setState. */
  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = (state as { conversationId?: unknown } | undefined)?.conversationId;
    const conversation = typeof id === 'string' ? await this.conversations.load(id) : undefined;
    if (!conversation) {
      panel.dispose();
      return;
    }
    this.attach(panel, conversation);
  }

  async delete(id: string): Promise<void> {
    this.panels.get(id)?.dispose();
    await this.conversations.delete(id);
  }

  dispose(): void {
    // The window is going away: replies in flight are saved as cut off (see replyDraft.ts).
    for (const p of this.panels.values()) p.dispose(true);
    this.disposables.forEach((d) => d.dispose());
  }
}
