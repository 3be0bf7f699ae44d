/**
 * The VS Code side of listening for webhooks: it builds the core's `Listening` (listener, tunnel,
 * sessions, secrets; it records every delivery in the received events itself) with the user's
 * settings, and shows it: the "Azure OpenAI Webhooks" output channel, the status bar item, and
 * the memento that offers to listen again after a reload, for the user's own session.
 */
import * as vscode from 'vscode';
import type { Transport } from '../../service/transport';
import type { TunnelProvider } from '../../tunnels/tunnel';
import { Listening } from '../../webhooks/session/listeningSession';
import type { EndpointPlan, ListeningSession, ListeningState as CoreState, SessionEndpoints, SessionStart, TunnelStatus } from '../../webhooks/session/listeningSession';
import { KeptOriginalUrls } from '../../webhooks/session/originalUrls';
import type { DeliveryRecord, ForwardResult, KnownSecret } from '../../webhooks/store/records';
import type { WebhookEvents } from '../../webhooks/store/webhookEvents';
import type { WebhookEndpoint } from '../../service/types';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import { loadNetwork } from '../bundles';
import { Commands, ContextKeys, type ProviderChoice } from '../contributions';
import { proxySettings } from '../proxySettings';
import { markdownLine } from '../plainText';
import { optionalSetting, setContext, setting } from '../settings';
import { BurstGate } from './burst';
import { userRoutes } from './routesSetting';
import type { Route } from '../../webhooks/send/routes';
import type { WebhookEndpoints } from './endpoints';
import { DeliveryLog } from './deliveryLog';
import { logTunnelHealth, logTunnelMove, tunnelStatusBar } from './tunnelHealth';
import { tunnelProviderFor } from './tunnelProviders';

export interface ListeningState extends CoreState<ConnectionInfo> {
  /** An endpoint "Start listening" created, offered for deletion on stop. */
  createdEndpointId?: string;
  /** The endpoint "Start listening" pointed at the listener, if one was. */
  endpointId?: string;
}

/** What was listened for when the window closed or reloaded, to offer listening again (no URL: a tunnel's is new each time). */
export interface InterruptedListening {
  connectionId: string;
  connectionLabel: string;
  provider: ProviderChoice;
  /** The endpoint pointed at the listener, to point at the new URL. */
  endpointId?: string;
  created?: boolean;
}

const INTERRUPTED_KEY = 'aoaiWorkbench.listening';

export class ListenerController implements vscode.Disposable {
  readonly listening: Listening<ConnectionInfo>;
  /** Endpoint URLs debug sessions changed, until they are put back (global state: every window, across crashes). */
  readonly originalUrls: KeptOriginalUrls;
  /** The session "Start Listening" began (a debug session has its own). */
  private userSession: ListeningSession<ConnectionInfo> | undefined;
  private channel: vscode.LogOutputChannel | undefined;
  private readonly log = new DeliveryLog(() => this.output);
  /** Listening, or the tunnel reopening or down. */
  readonly statusItem = vscode.window.createStatusBarItem('aoaiWorkbench.listener', vscode.StatusBarAlignment.Left, 50);
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when listening starts or stops, or a session begins or ends (the events have their own owner). */
  readonly onDidChange = this.changed.event;
  /** The extension's global storage folder (a downloaded cloudflared lives there). */
  readonly storageDir: string;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    storage: vscode.Uri,
    private readonly connections: ConnectionStore,
    private readonly endpoints: WebhookEndpoints,
    /** The received events (their count is in the status bar). */
    private readonly events: WebhookEvents,
    /** This window's workspace state: where an interrupted listening session is remembered. */
    private readonly windowState: vscode.Memento,
    globalState: vscode.Memento,
  ) {
    this.storageDir = storage.fsPath;
    this.originalUrls = new KeptOriginalUrls(globalState);
    this.listening = new Listening<ConnectionInfo>({
      // In a process of its own (dist/webhook-listener.js): a burst or a flood grows that, not this host.
      createListener: (wiring) =>
        new (loadNetwork().ChildListener)(wiring, {
          port: setting('webhooks.port'),
          toleranceSeconds: setting('webhooks.toleranceSeconds'),
          outbound: () => this.outbound(),
        }),
      events,
      defaultForwardTo: () => optionalSetting('webhooks.forwardTo'),
      defaultRoutes: userRoutes,
      originals: this.originalUrls,
    });
    const status = () => this.scheduleStatus();
    this.subscriptions = [
      // An endpoint created, re-pointed or deleted for the connection listened for: verify with its secrets now.
      endpoints.onDidChange((connectionId) => {
        const conn = this.listening.state?.connection;
        if (conn?.id === connectionId) void this.listening.endpointsChanged(connectionId, this.sessionEndpoints(conn)).catch(() => undefined);
      }),
      this.listening.onDidChange(() => {
        this.updateStatus();
        void setContext(ContextKeys.listening, this.running);
        this.changed.fire();
      }),
      this.listening.onDidChangeTunnel((t) => this.tunnelChanged(t)),
      this.listening.onDidMoveTunnel((m) => logTunnelMove(this.output, m)),
      this.listening.onDidDeliver((r) => this.log.delivered(r)),
      this.listening.onDidForward(({ record, forward }) => this.log.forwarded(record, forward)),
      // The listener's process ended by itself: listening stopped; the output says why, and a notification offers to listen again.
      this.listening.onDidFail((err) => {
        this.userSession = undefined;
        this.output.error(err.message);
        this.offerListening(vscode.l10n.t('Deliveries no longer reach VS Code: {0}', err.message));
      }),
      this.events.onDidArrive(status),
      this.events.onDidReset(status),
    ];
    this.statusItem.name = vscode.l10n.t('Azure OpenAI webhook listener');
    this.statusItem.command = Commands.listenerActions;
    this.updateStatus();
  }

  /** The "Azure OpenAI Webhooks" channel, created when first used rather than at activation. */
  get output(): vscode.LogOutputChannel {
    this.channel ??= vscode.window.createOutputChannel('Azure OpenAI Webhooks', { log: true });
    return this.channel;
  }

  get running(): boolean {
    return !!this.listening.state;
  }

  get state(): ListeningState | undefined {
    const state = this.listening.state;
    return state && { ...state, endpointId: this.userSession?.endpointId, createdEndpointId: this.userSession?.createdEndpointId };
  }

  /** The tunnel a connection gets (see tunnelProviders.ts). */
  providerFor(connection: ConnectionInfo, providerId: ProviderChoice, tunnelForLocal = false): TunnelProvider | undefined {
    return tunnelProviderFor(this.storageDir, connection.endpoint, providerId, tunnelForLocal);
  }

  knownSecrets(): KnownSecret[] {
    return this.listening.knownSecrets();
  }

  /** The connection's endpoints as last listed (names, URLs and secret hints, for the signature doctor). */
  get endpointList(): WebhookEndpoint[] {
    return this.listening.endpointList;
  }

  /** The app a delivery (or a replay of it) goes to: its session's, else the newest session's, else the user's setting. */
  forwardTarget(record?: Pick<DeliveryRecord, 'endpointId' | 'eventType'>): string | undefined {
    return this.listening.forwardTarget(record);
  }

  /** The same, with the per-event route that chose it. */
  forwardRoute(record?: Pick<DeliveryRecord, 'endpointId' | 'eventType'>): Route | undefined {
    return this.listening.forwardRoute(record);
  }

  private outboundCache: { key: string; transport: Transport } | undefined;

  /** How webhook traffic leaves (forwards, replays, test events): through the user's proxy where its rules say so. */
  outbound(): Transport {
    const settings = proxySettings();
    const key = JSON.stringify(settings);
    if (this.outboundCache?.key !== key) {
      void this.outboundCache?.transport.close().catch(() => undefined);
      this.outboundCache = { key, transport: loadNetwork().webhookOutbound(settings) };
    }
    return this.outboundCache.transport;
  }

  /** A connection's endpoints as a session changes them: through the endpoints' owner, so the tree follows. */
  sessionEndpoints(conn: ConnectionInfo): SessionEndpoints {
    return {
      all: () => this.endpoints.all(conn),
      create: (input) => this.endpoints.create(conn, input),
      update: (id, url) => this.endpoints.update(conn, id, { url }),
      remove: (id) => this.endpoints.delete(conn, id),
      secretOf: (id) => this.connections.signingSecret(conn.id, id),
    };
  }

  /** Starts a session (a debug session's): it joins the listener running for the same connection, or starts one. */
  startSession(o: Omit<SessionStart<ConnectionInfo>, 'endpoints'>): Promise<ListeningSession<ConnectionInfo>> {
    return this.listening.start({ ...o, endpoints: this.sessionEndpoints(o.connection) });
  }

  /** "Start Listening": the listener and, when given, the tunnel in front of it (see `providerFor`), afresh. */
  async start(connection: ConnectionInfo, provider: TunnelProvider | undefined, signal?: AbortSignal): Promise<ListeningState> {
    const forwardTo = () => optionalSetting('webhooks.forwardTo');
    this.userSession = await this.startSession({ connection, tunnel: provider, endpoint: { mode: 'skip' }, forwardTo, routes: userRoutes, replace: true, signal });
    await this.remember();
    const state = this.state!;
    const behind = provider ? ` behind ${provider.label} at ${state.publicUrl}` : '';
    this.output.info(`Listening on ${state.localUrl}${behind} for "${connection.label}" (${this.knownSecrets().length} signing secret(s) known).`);
    return state;
  }

  /** Points an endpoint at the listener for "Start Listening" (after the user chose one). */
  async pointUserEndpoint(plan: EndpointPlan): Promise<string | undefined> {
    const session = this.userSession;
    if (!session || session.state !== this.listening.state) return undefined;
    await this.listening.point(session, plan, this.sessionEndpoints(session.state.connection));
    await this.remember();
    return session.endpointId;
  }

  /**
   * Stops listening. The user's stop forgets the session; a window closing or reloading
   * (`interrupted`) keeps it, so the view can offer to listen again.
   */
  async stop(interrupted = false): Promise<ListeningState | undefined> {
    const state = this.state;
    if (!interrupted) await this.windowState.update(INTERRUPTED_KEY, undefined);
    this.userSession = undefined;
    await this.listening.stop();
    this.log.endBurst();
    if (state) this.output.info('Stopped listening.');
    return state;
  }

  private remember(): Promise<void> {
    const { connection, provider, endpointId, createdEndpointId } = this.state!;
    const created = !!createdEndpointId && createdEndpointId === endpointId;
    const session: InterruptedListening = { connectionId: connection.id, connectionLabel: connection.label, provider, endpointId, created };
    return Promise.resolve(this.windowState.update(INTERRUPTED_KEY, session));
  }

  /** The session a reload or closed window cut off, while not listening again yet. */
  get interrupted(): InterruptedListening | undefined {
    return this.running ? undefined : this.windowState.get<InterruptedListening>(INTERRUPTED_KEY);
  }

  async forgetInterrupted(): Promise<void> {
    await this.windowState.update(INTERRUPTED_KEY, undefined);
    this.changed.fire();
  }

  /** The output says each step; a tunnel that could not come back is also a notification, once. */
  private tunnelChanged(t: TunnelStatus): void {
    logTunnelHealth(this.output, t);
    if (t.health.kind === 'failed') this.offerListening(vscode.l10n.t('The tunnel ({0}) dropped and could not be reopened: deliveries no longer reach VS Code.', t.label));
  }

  /** Deliveries no longer reach VS Code: said once, with Start Listening. */
  private offerListening(message: string): void {
    void vscode.window.showWarningMessage(message, vscode.l10n.t('Start Listening')).then((c) => c && vscode.commands.executeCommand(Commands.startListening));
  }

  /** The output channel's line for a replay's answer (the answer itself is kept by the received events). */
  logReplay(r: DeliveryRecord, answer: ForwardResult): void {
    this.log.replayed(r, answer);
  }

  /** The status bar follows a burst of deliveries twice a second, not once per delivery. */
  private readonly statusGate = new BurstGate(() => this.updateStatus());

  private scheduleStatus(): void {
    this.statusGate.schedule();
  }

  private updateStatus(): void {
    const count = this.events.size;
    const state = this.listening.state;
    if (!state) return this.statusItem.hide();
    const { connection, publicUrl, localUrl, tunnel } = state;
    const health = tunnelStatusBar(tunnel, count);
    this.statusItem.text = health?.text ?? `$(radio-tower) ${vscode.l10n.t('Listening · {0}', count)}`;
    this.statusItem.backgroundColor = health?.background;
    // The tunnel chose the public URL: it and the label go into the Markdown as text.
    const said = [vscode.l10n.t('Webhook listener for {0}', `**${markdownLine(connection.label)}**`), ...(health ? [health.said] : [])];
    said.push(vscode.l10n.t('Public URL: {0}', markdownLine(publicUrl, 300)), vscode.l10n.t('Local: {0}', markdownLine(localUrl)));
    said.push(vscode.l10n.t('{0} event(s) received. Click for actions.', count));
    this.statusItem.tooltip = new vscode.MarkdownString(said.join('\n\n'));
    this.statusItem.show();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    this.statusGate.dispose();
    this.log.dispose();
    // stop() logs its last line, so the channel goes after it.
    void this.stop(true).finally(() => {
      this.channel?.dispose();
      this.listening.dispose();
    });
    this.statusItem.dispose();
    this.changed.dispose();
  }
}
