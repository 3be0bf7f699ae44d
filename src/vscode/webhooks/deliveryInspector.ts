/**
 * The delivery inspector: one webview panel that shows a received delivery whole (request,
 * verdict trace, the signature doctor's diagnosis, the app's answers) and follows the selection
 * in the Webhook Events view. Every message from the page is validated; actions re-sign only a
 * verified delivery, with the secret that verified it, which never leaves the extension.
 */
import * as vscode from 'vscode';
import { loadNetwork } from '../bundles';
import { deliveryView } from '../../webhooks/deliveryView';
import { parseInspectorViewMessage, type DeliveryView, type InspectorHostMessage, type InspectorViewMessage } from '../../webhooks/inspectorProtocol';
import type { DeliveryRecord } from '../../webhooks/records';
import { Commands, Views } from '../contributions';
import { logError, redact } from '../log';
import { setting } from '../settings';
import type { EventNode } from './eventsTree';
import { inspectorHtml } from './inspectorHtml';
import type { ListenerController } from './listenerController';

export class DeliveryInspector implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelSubs: vscode.Disposable[] = [];
  private currentId: string | undefined;
  private readonly subs: vscode.Disposable[];
  private readonly posted = new vscode.EventEmitter<InspectorHostMessage>();
  /** Every message sent to the page (tests watch this). */
  readonly onDidPost = this.posted.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly listener: ListenerController,
    readonly eventsView: vscode.TreeView<EventNode>,
  ) {
    this.subs = [
      // After a window reload: the page saved the id of the delivery it showed.
      vscode.window.registerWebviewPanelSerializer(Views.inspector, {
        deserializeWebviewPanel: async (panel, state) => {
          await listener.ready();
          const id = (state as { eventId?: unknown } | undefined)?.eventId;
          this.adopt(panel);
          this.show(typeof id === 'string' ? id : undefined, true);
        },
      }),
      // Follows the index: selecting another row shows it, without taking the focus from the tree.
      eventsView.onDidChangeSelection((e) => {
        const node = e.selection[0];
        if (this.panel && node && node.record.id !== this.currentId) this.show(node.record.id);
      }),
      // A new version of the delivery shown (the app's answer, a replay), or the events were cleared or loaded.
      listener.events.onDidUpdate((id) => this.panel && id === this.currentId && this.show(id)),
      listener.events.onDidReset(() => this.panel && this.show(this.currentId)),
      // Listening started or stopped: the doctor's view of the endpoints and where replays go changed.
      listener.onDidChange(() => this.panel && this.show(this.currentId)),
    ];
  }

  get isOpen(): boolean {
    return !!this.panel;
  }

  /** The delivery shown (tests read it). */
  get shownId(): string | undefined {
    return this.currentId;
  }

  /** The page's HTML (tests check its CSP). */
  get html(): string | undefined {
    return this.panel?.webview.html;
  }

  /** Opens (or reveals) the panel on a delivery; returns what it shows. */
  open(recordId: string, preserveFocus = false): DeliveryView | undefined {
    this.shownJson = undefined;
    if (!this.panel) {
      this.adopt(vscode.window.createWebviewPanel(Views.inspector, 'Delivery', { viewColumn: vscode.ViewColumn.Active, preserveFocus }, this.webviewOptions()));
    } else {
      this.panel.reveal(undefined, preserveFocus);
    }
    return this.show(recordId);
  }

  private webviewOptions(): vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')] };
  }

  /** Takes a new panel, or one VS Code brings back after a reload (a second one replaces the first). */
  private adopt(panel: vscode.WebviewPanel): void {
    if (this.panel) this.panel.dispose();
    panel.webview.options = this.webviewOptions();
    panel.webview.html = inspectorHtml(panel.webview, this.extensionUri);
    this.panelSubs = [panel.webview.onDidReceiveMessage((raw) => void this.receive(raw)), panel.onDidDispose(() => this.closed())];
    this.panel = panel;
  }

  private closed(): void {
    this.panelSubs.forEach((d) => d.dispose());
    this.panelSubs = [];
    this.panel = undefined;
    this.currentId = undefined;
  }

  /** The view of a stored delivery, with what is known of the endpoints for the doctor. */
  viewOf(r: DeliveryRecord): DeliveryView {
    const state = this.listener.state;
    return deliveryView(r, {
      appUrl: this.listener.forwardTarget(r),
      doctor: { endpoints: this.listener.endpointList, listenerUrl: state && `${state.publicUrl}/webhook` },
    });
  }

  /** What the page shows now, so a burst of other deliveries does not redraw it (and lose its scroll). */
  private shownJson: string | undefined;

  private show(recordId: string | undefined, force = false): DeliveryView | undefined {
    this.currentId = recordId;
    const r = recordId ? this.listener.events.get(recordId) : undefined;
    if (!r) {
      if (this.panel) this.panel.title = 'Delivery';
      this.shownJson = undefined;
      this.post({ type: 'empty', text: recordId ? 'This delivery is no longer stored.' : 'Choose a delivery in the Webhook Events view.' });
      return undefined;
    }
    const view = this.viewOf(r);
    const json = JSON.stringify(view);
    if (!force && json === this.shownJson) return view;
    this.shownJson = json;
    if (this.panel) this.panel.title = `Delivery: ${view.title}`;
    this.post({ type: 'show', delivery: view });
    return view;
  }

  private post(msg: InspectorHostMessage): void {
    if (!this.panel) return;
    this.posted.fire(msg);
    void this.panel.webview.postMessage(msg);
  }

  /** Entry point for everything the page sends; invalid messages are dropped. */
  async receive(raw: unknown): Promise<void> {
    const msg = parseInspectorViewMessage(raw);
    if (!msg) {
      logError(`Ignored an invalid message from the delivery inspector: ${redact(JSON.stringify(raw)?.slice(0, 200) ?? String(raw))}`);
      return;
    }
    try {
      await this.handle(msg);
    } catch (err) {
      this.post({ type: 'busy', busy: false });
      this.post({ type: 'notice', level: 'error', text: redact((err as Error).message) });
    }
  }

  private record(eventId: string): DeliveryRecord {
    const r = this.listener.events.get(eventId);
    if (!r) throw new Error('This delivery is no longer stored.');
    return r;
  }

  private async handle(msg: InspectorViewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        // A new page (first load, or reloaded when the panel was hidden and shown again): it has nothing yet.
        this.show(this.currentId, true);
        return;
      case 'replay':
        return this.replay(this.record(msg.eventId), msg.body);
      case 'copyCurl': {
        const r = this.record(msg.eventId);
        const app = this.listener.forwardTarget(r);
        const state = this.listener.state;
        const url = app ?? (state ? `${state.publicUrl}/webhook` : 'http://127.0.0.1:PORT/webhook');
        await vscode.env.clipboard.writeText(loadNetwork().signedCurl(r, this.listener.knownSecrets(), url, msg.body));
        this.post({ type: 'notice', level: 'info', text: `Copied a curl command to ${url}, signed now: valid for ${this.toleranceText()}. It holds the signature, not the secret.` });
        return;
      }
      case 'openPayload':
        await vscode.commands.executeCommand(Commands.openEventPayload, { eventId: msg.eventId });
        return;
      case 'fetchResponse':
        await vscode.commands.executeCommand(Commands.fetchEventResponse, { eventId: msg.eventId });
        return;
      case 'openConversation':
        await vscode.commands.executeCommand(Commands.openEventConversation, { eventId: msg.eventId });
        return;
    }
  }

  private toleranceText(): string {
    const s = setting('webhooks.toleranceSeconds');
    return s >= 120 ? `${Math.round(s / 60)} minutes` : `${s} seconds`;
  }

  /** Re-signs and sends to the app; its answer is kept with the event and shown beside the earlier ones. */
  private async replay(r: DeliveryRecord, body: string | undefined): Promise<void> {
    // The app of the session the delivery came through (a debug session's), else the user's setting.
    const app = this.listener.forwardTarget(r);
    if (!app) throw new Error('No app to replay to: set "aoaiWorkbench.webhooks.forwardTo" in your user settings to your app\'s webhook URL (e.g. http://localhost:3000/webhook).');
    if (body !== undefined) {
      try {
        JSON.parse(body);
      } catch (err) {
        throw new Error(`The edited body is not JSON (${(err as Error).message}): fix it, or it would be refused as malformed.`);
      }
    }
    this.post({ type: 'busy', busy: true, text: `Replaying to ${app}…` });
    const answer = await loadNetwork().replayToApp(r, this.listener.knownSecrets(), app, body, this.listener.outbound());
    this.listener.addReplay(r, answer);
    this.post({ type: 'busy', busy: false });
    this.show(r.id);
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
    this.panel?.dispose();
    this.posted.dispose();
  }
}
