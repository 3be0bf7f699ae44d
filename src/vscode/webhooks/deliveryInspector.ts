/**
 * The delivery inspector: one webview panel that shows a received delivery whole (request,
 * verdict trace, the signature doctor's diagnosis, the app's answers) and follows the selection
 * in the Webhook Events view. Every message from the page is validated; actions re-sign only a
 * verified delivery, with the secret that verified it, which never leaves the extension.
 */
import * as vscode from 'vscode';
import { loadMarkup, loadNetwork } from '../bundles';
import { callOf, subjectOf } from '../../webhooks/inspect/deliveryView';
import { parseInspectorViewMessage, type CallAction, type DeliveryView, type InspectorHostMessage, type InspectorViewMessage } from '../../webhooks/inspect/inspectorProtocol';
import type { DeliveryRecord } from '../../webhooks/store/records';
import type { WebhookEvents } from '../../webhooks/store/webhookEvents';
import { owned } from '../ownedArgs';
import { Commands, ContextKeys, Views } from '../contributions';
import { redact } from '../log';
import { setContext, setting } from '../settings';
import type { EventsViewNode } from './eventsTree';
import { PanelHost, panelOptions, registerPanelSerializer } from '../webview/panelHost';
import { webviewHtml } from '../webviewHtml';
import type { ListenerController } from './listenerController';
import { maskedUrl } from '../../webhooks/send/forwardUrl';

/** The page's buttons that run an event command on the delivery shown. */
const EVENT_COMMANDS = {
  openPayload: Commands.openEventPayload,
  fetchResponse: Commands.fetchEventResponse,
  openConversation: Commands.openEventConversation,
} as const;

export class DeliveryInspector implements vscode.Disposable {
  private host: PanelHost<InspectorHostMessage, InspectorViewMessage> | undefined;
  private currentId: string | undefined;
  private readonly subs: vscode.Disposable[];
  private readonly posted = new vscode.EventEmitter<InspectorHostMessage>();
  /** Every message sent to the page (tests watch this). */
  readonly onDidPost = this.posted.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly listener: ListenerController,
    private readonly events: WebhookEvents,
    readonly eventsView: vscode.TreeView<EventsViewNode>,
  ) {
    this.subs = [
      // After a window reload: the page saved the id of the delivery it showed.
      registerPanelSerializer(Views.inspector, async (panel, state) => {
        await events.ready();
        const id = (state as { eventId?: unknown } | undefined)?.eventId;
        this.adopt(panel);
        this.show(typeof id === 'string' ? id : undefined, true);
      }),
      // Follows the index: selecting another row shows it, without taking the focus from the tree.
      eventsView.onDidChangeSelection((e) => {
        const node = e.selection[0];
        if (this.host && node?.type === 'event' && node.record.id !== this.currentId) this.show(node.record.id);
      }),
      // A new version of the delivery shown (the app's answer, a replay), or the events were cleared or loaded.
      events.onDidUpdate((id) => this.host && id === this.currentId && this.show(id)),
      events.onDidReset(() => this.host && this.show(this.currentId)),
      // Listening started or stopped: the doctor's view of the endpoints and where replays go changed.
      listener.onDidChange(() => this.host && this.show(this.currentId)),
    ];
  }

  get isOpen(): boolean {
    return !!this.host;
  }

  /** The delivery shown (tests read it). */
  get shownId(): string | undefined {
    return this.currentId;
  }

  /** The page's HTML (tests check its CSP). */
  get html(): string | undefined {
    return this.host?.panel.webview.html;
  }

  /** Opens (or reveals) the panel on a delivery; returns what it shows. */
  open(recordId: string, preserveFocus = false): DeliveryView | undefined {
    this.shownJson = undefined;
    if (!this.host) {
      this.adopt(vscode.window.createWebviewPanel(Views.inspector, vscode.l10n.t('Delivery'), { viewColumn: vscode.ViewColumn.Active, preserveFocus }, panelOptions(this.extensionUri)));
    } else {
      this.host.panel.reveal(undefined, preserveFocus);
    }
    return this.show(recordId);
  }

  /** Takes a new panel, or one VS Code brings back after a reload (a second one replaces the first). */
  private adopt(panel: vscode.WebviewPanel): void {
    this.host?.dispose();
    const host: PanelHost<InspectorHostMessage, InspectorViewMessage> = new PanelHost(
      panel,
      this.extensionUri,
      {
        label: 'the delivery inspector',
        html: (webview) => webviewHtml(webview, this.extensionUri, { title: 'Delivery', style: 'inspector.css', script: 'inspector.js', body: loadMarkup().inspectorBodyHtml() }),
        parse: parseInspectorViewMessage,
        // A new page (first load, or reloaded when the panel was hidden and shown again): it has nothing yet.
        onReady: () => void this.show(this.currentId, true),
        onMessage: (msg) => this.handle(msg),
        // Said on the page, where the action was.
        onError: (err) => {
          this.post({ type: 'busy', busy: false });
          this.post({ type: 'notice', level: 'error', text: redact(err.message) });
        },
        onPost: (msg) => this.posted.fire(msg),
      },
      () => {
        if (this.host !== host) return;
        this.host = undefined;
        this.currentId = undefined;
      },
    );
    this.host = host;
  }

  /** The view of a stored delivery, with what is known of the endpoints for the doctor. */
  viewOf(r: DeliveryRecord): DeliveryView {
    const state = this.listener.state;
    // The view and its signature doctor come with the network bundle: activation carries neither.
    return loadNetwork().deliveryView(r, {
      appUrl: this.listener.forwardTarget(r),
      doctor: { endpoints: this.listener.endpointList, listenerUrl: state && `${state.publicUrl}/webhook` },
    });
  }

  private inspectedOnce = false;

  /** What the page shows now, so a burst of other deliveries does not redraw it (and lose its scroll). */
  private shownJson: string | undefined;

  private show(recordId: string | undefined, force = false): DeliveryView | undefined {
    this.currentId = recordId;
    const r = recordId ? this.events.get(recordId) : undefined;
    if (!r) {
      if (this.host) this.host.panel.title = vscode.l10n.t('Delivery');
      this.shownJson = undefined;
      this.post({
        type: 'empty',
        text: recordId ? vscode.l10n.t('This delivery is no longer stored.') : vscode.l10n.t('Choose a delivery in the Webhook Events view.'),
      });
      return undefined;
    }
    if (!this.inspectedOnce) {
      // The walkthrough's "open it in the inspector" step: a delivery shown, however it was opened.
      this.inspectedOnce = true;
      void setContext(ContextKeys.inspectedDelivery, true);
    }
    const view = this.viewOf(r);
    const json = JSON.stringify(view);
    if (!force && json === this.shownJson) return view;
    this.shownJson = json;
    if (this.host) this.host.panel.title = vscode.l10n.t('Delivery: {0}', view.title);
    this.post({ type: 'show', delivery: view });
    return view;
  }

  private post(msg: InspectorHostMessage): void {
    this.host?.post(msg);
  }

  /** Entry point for everything the page sends (validated, then handled; see PanelHost). */
  async receive(raw: unknown): Promise<void> {
    await this.host?.receive(raw);
  }

  private record(eventId: string): DeliveryRecord {
    const r = this.events.get(eventId);
    if (!r) throw new Error(vscode.l10n.t('This delivery is no longer stored.'));
    return r;
  }

  private async handle(msg: Exclude<InspectorViewMessage, { type: 'ready' }>): Promise<void> {
    switch (msg.type) {
      case 'replay':
        return this.replay(this.record(msg.eventId), msg.body);
      case 'copyCurl': {
        const r = this.record(msg.eventId);
        const app = this.listener.forwardTarget(r);
        const state = this.listener.state;
        const url = app ?? (state ? `${state.publicUrl}/webhook` : 'http://127.0.0.1:PORT/webhook');
        const network = loadNetwork();
        await vscode.env.clipboard.writeText(network.signedCurl(r, this.listener.knownSecrets(), url, msg.body));
        // What was copied is a PowerShell command on Windows; the URL as shown everywhere, its query masked.
        const text =
          network.defaultShell() === 'powershell'
            ? vscode.l10n.t('Copied a PowerShell command to {0}, signed now: valid for {1}. It holds the signature, not the secret.', maskedUrl(url), this.toleranceText())
            : vscode.l10n.t('Copied a curl command to {0}, signed now: valid for {1}. It holds the signature, not the secret.', maskedUrl(url), this.toleranceText());
        this.post({ type: 'notice', level: 'info', text });
        return;
      }
      case 'openPayload':
      case 'fetchResponse':
      case 'openConversation':
        return void (await vscode.commands.executeCommand(EVENT_COMMANDS[msg.type], { eventId: msg.eventId }));
      case 'saveFixture':
        return void (await vscode.commands.executeCommand(Commands.saveAsFixture, owned({ eventId: msg.eventId })));
      case 'showTrace':
        return void (await vscode.commands.executeCommand(Commands.showTrace, owned({ deliveryId: this.record(msg.eventId).id })));
      case 'callAction':
        return this.actOnCall(this.record(msg.eventId), msg.action);
      case 'openSubject':
        return this.openSubject(this.record(msg.eventId));
    }
  }

  /** The connection a delivery came through: the listener's (the only one when it is not listening). */
  private connectionArg(): { connectionId?: string } {
    const id = this.listener.state?.connection.id;
    return id ? { connectionId: id } : {};
  }

  /** Runs the call's command as the notification does; the call id is the stored delivery's, never the page's. */
  private async actOnCall(r: DeliveryRecord, action: CallAction): Promise<void> {
    const call = callOf(r);
    if (!call?.actionable) throw new Error(vscode.l10n.t('Only a verified call delivery can be acted on.'));
    const command = { accept: Commands.acceptCall, reject: Commands.rejectCall, transfer: Commands.transferCall, hangup: Commands.hangUpCall }[action];
    await vscode.commands.executeCommand(command, owned({ ...this.connectionArg(), callId: call.callId }));
  }

  private async openSubject(r: DeliveryRecord): Promise<void> {
    const subject = subjectOf(r);
    if (!subject) throw new Error(vscode.l10n.t('This delivery is about no batch or fine-tuning job.'));
    if (subject.kind === 'batch') await vscode.commands.executeCommand(Commands.openBatchResults, { ...this.connectionArg(), batchId: subject.id });
    else await vscode.commands.executeCommand(Commands.openFineTuningJob, { ...this.connectionArg(), jobId: subject.id });
  }

  private toleranceText(): string {
    const s = setting('webhooks.toleranceSeconds');
    return s >= 120 ? vscode.l10n.t('{0} minutes', Math.round(s / 60)) : vscode.l10n.t('{0} seconds', s);
  }

  /** Re-signs and sends to the app; its answer is kept with the event and shown beside the earlier ones. */
  private async replay(r: DeliveryRecord, body: string | undefined): Promise<void> {
    // The app of the session the delivery came through (a debug session's), else the user's setting.
    const route = this.listener.forwardRoute(r);
    if (!route) {
      const setIt = vscode.l10n.t('No app to replay to: set "{0}" in your user settings to your app\'s webhook URL (e.g. {1}).', 'aoaiWorkbench.webhooks.forwardTo', 'http://localhost:3000/webhook');
      throw new Error(setIt);
    }
    if (body !== undefined) {
      try {
        JSON.parse(body);
      } catch (err) {
        throw new Error(vscode.l10n.t('The edited body is not JSON ({0}): fix it, or it would be refused as malformed.', (err as Error).message));
      }
    }
    this.post({ type: 'busy', busy: true, text: vscode.l10n.t('Replaying to {0}…', route.url) });
    const answer = await loadNetwork().replayToApp(r, this.listener.knownSecrets(), route, body, this.listener.outbound());
    // Not busy first: the page then announces the new answer, which the events' owner shows at once.
    this.post({ type: 'busy', busy: false });
    this.events.replayed(r.id, answer);
    this.listener.logReplay(r, answer);
    this.show(r.id);
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
    this.host?.dispose();
    this.posted.dispose();
  }
}
