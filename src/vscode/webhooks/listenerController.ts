/**
 * "Start listening": the listener on 127.0.0.1, the chosen tunnel in front of it, the signing
 * secrets of the connection's endpoints to verify with, the received events (persisted), the
 * "Azure OpenAI Webhooks" output channel and the status bar item.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Tunnel, TunnelProvider } from '../../tunnels/tunnel';
import type { WebhookListener } from '../../webhooks/listener';
import { MAX_REPLAYS, type DeliveryRecord, type ForwardResult, type KnownSecret } from '../../webhooks/records';
import type { WebhookEndpoint } from '../../service/types';
import { EventStore, FileDedupeStore } from '../../webhooks/stores';
import type { ConnectionInfo, ConnectionStore } from '../connections/connectionStore';
import { isLoopbackHost } from '../../service/connection';
import { loadNetwork } from '../bundles';
import { Commands, ContextKeys, type ProviderChoice } from '../contributions';
import { redact } from '../log';
import { proxySettings } from '../proxySettings';
import { optionalSetting, setContext, setting } from '../settings';
import type { WebhookEndpoints } from './endpoints';

export interface ListeningState {
  connection: ConnectionInfo;
  localUrl: string;
  /** What the service should deliver to (the tunnel's URL, or the local one for a local service). */
  publicUrl: string;
  provider: ProviderChoice;
  /** An endpoint "Start listening" created, offered for deletion on stop. */
  createdEndpointId?: string;
  /** The endpoint pointed at the listener, if one was. */
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
  readonly events: EventStore;
  private readonly dedupe: FileDedupeStore;
  private listener: WebhookListener | undefined;
  private tunnel: Tunnel | undefined;
  private secrets: KnownSecret[] = [];
  state: ListeningState | undefined;
  private channel: vscode.LogOutputChannel | undefined;
  private readonly statusItem = vscode.window.createStatusBarItem('aoaiWorkbench.listener', vscode.StatusBarAlignment.Left, 50);
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when events or the listening state change. */
  readonly onDidChange = this.changed.event;
  private loaded: Promise<void>;

  /** The extension's global storage folder (events, ids, a downloaded cloudflared). */
  readonly storageDir: string;

  private readonly subscriptions: vscode.Disposable[];
  private secretsRun = 0;

  constructor(
    storage: vscode.Uri,
    private readonly connections: ConnectionStore,
    private readonly endpoints: WebhookEndpoints,
    /** This window's workspace state: where an interrupted listening session is remembered. */
    private readonly windowState: vscode.Memento,
  ) {
    this.storageDir = storage.fsPath;
    this.events = new EventStore(join(storage.fsPath, 'webhook-events.jsonl'), setting('webhooks.maxStoredEvents'));
    // An endpoint created, re-pointed or deleted for the connection listened for: verify with its secrets now.
    this.subscriptions = [
      endpoints.onDidChange((connectionId) => connectionId === this.state?.connection.id && void this.refreshSecrets().catch(() => undefined)),
    ];
    this.dedupe = new FileDedupeStore(join(storage.fsPath, 'webhook-ids.txt'));
    this.loaded = this.events.load().then(() => this.changed.fire());
    this.statusItem.name = 'Azure OpenAI webhook listener';
    this.statusItem.command = Commands.listenerActions;
    this.updateStatus();
  }

  /** The "Azure OpenAI Webhooks" channel, created when first used rather than at activation. */
  get output(): vscode.LogOutputChannel {
    this.channel ??= vscode.window.createOutputChannel('Azure OpenAI Webhooks', { log: true });
    return this.channel;
  }

  ready(): Promise<void> {
    return this.loaded;
  }

  get running(): boolean {
    return !!this.listener;
  }

  private provider(id: ProviderChoice): TunnelProvider | undefined {
    const { CloudflaredTunnel, DevTunnel, LocalTunnel, ManualTunnel, NgrokTunnel } = loadNetwork();
    switch (id) {
      case 'none':
        return undefined;
      case 'manual':
        return new ManualTunnel(() => optionalSetting('tunnel.manualUrl'));
      case 'localtunnel':
        return new LocalTunnel(() => ({ host: optionalSetting('tunnel.localtunnelHost'), subdomain: optionalSetting('tunnel.localtunnelSubdomain') }));
      case 'cloudflared':
        return new CloudflaredTunnel(this.storageDir);
      case 'ngrok':
        return new NgrokTunnel();
      case 'devtunnel':
        return new DevTunnel();
    }
  }

  /**
   * The tunnel a connection gets. A local service (the emulator) needs none, unless one is asked
   * for by name (`tunnelForLocal`), e.g. to try a tunnel against the emulator.
   */
  providerFor(connection: ConnectionInfo, providerId: ProviderChoice, tunnelForLocal = false): TunnelProvider | undefined {
    const local = isLoopbackHost(new URL(connection.endpoint).hostname);
    return this.provider(local && !tunnelForLocal ? 'none' : providerId);
  }

  /** Reloads the secrets of every endpoint of the connection that this extension holds. */
  async refreshSecrets(): Promise<number> {
    const conn = this.state?.connection;
    if (!conn) return 0;
    // Refreshes can overlap (an endpoint changed while one ran): only the latest one counts.
    const run = ++this.secretsRun;
    const known: KnownSecret[] = [];
    const all = await this.endpoints.all(conn);
    for (const e of all) {
      const secret = await this.connections.signingSecret(conn.id, e.id);
      if (secret) known.push({ endpointId: e.id, secret, label: e.name });
    }
    if (run === this.secretsRun) {
      this.secrets = known;
      this.endpointList = all;
    }
    return known.length;
  }

  knownSecrets(): KnownSecret[] {
    return this.secrets;
  }

  /** Where a debug session forwards to while it runs, ahead of the setting. */
  forwardOverride: string | undefined;

  /** The app verified deliveries and replays go to: a debug session's, else the user's setting. */
  forwardTarget(): string | undefined {
    return this.forwardOverride ?? optionalSetting('webhooks.forwardTo');
  }

  private outboundCache: { key: string; dispatcher: Dispatcher } | undefined;

  /** How webhook traffic leaves (forwards, replays, test events): through the user's proxy where its rules say so. */
  outbound(): Dispatcher {
    const settings = proxySettings();
    const key = JSON.stringify(settings);
    if (this.outboundCache?.key !== key) {
      void this.outboundCache?.dispatcher.close().catch(() => undefined);
      this.outboundCache = { key, dispatcher: loadNetwork().webhookOutbound(settings) };
    }
    return this.outboundCache.dispatcher;
  }

  /** The connection's endpoints as last listed (names, URLs and secret hints, for the signature doctor). */
  endpointList: WebhookEndpoint[] = [];

  /** Starts the listener and, when given, the tunnel in front of it (see `providerFor`). */
  async start(connection: ConnectionInfo, provider: TunnelProvider | undefined, signal?: AbortSignal): Promise<ListeningState> {
    if (this.listener) await this.stop();
    const listener = new (loadNetwork().WebhookListener)({
      port: setting('webhooks.port'),
      secrets: () => this.secrets,
      toleranceSeconds: setting('webhooks.toleranceSeconds'),
      dedupe: this.dedupe,
      forwardTo: () => this.forwardTarget(),
      outbound: () => this.outbound(),
      onDelivery: (r) => this.record(r),
      onForwarded: (r) => this.record(r, true),
    });
    const localUrl = await listener.start();
    this.listener = listener;
    this.state = { connection, localUrl, publicUrl: localUrl, provider: provider ? provider.id : 'none' };
    try {
      if (provider) {
        const tunnel = await provider.start(listener.port, signal);
        this.tunnel = tunnel;
        this.state.publicUrl = tunnel.url;
        void tunnel.closed.then(() => {
          // Closed by itself, not by stop() (which lets go of it first).
          if (this.tunnel === tunnel) {
            this.output.warn(`The ${provider.label} tunnel closed. Deliveries no longer reach the listener; run "Start Listening" again.`);
            void vscode.window
              .showWarningMessage(`The ${provider.label} tunnel closed: deliveries no longer reach VS Code.`, 'Start Listening')
              .then((c) => c && vscode.commands.executeCommand(Commands.startListening));
          }
        });
      }
      await this.refreshSecrets();
    } catch (err) {
      await this.stop();
      throw err;
    }
    await this.remember();
    this.output.info(`Listening on ${localUrl}${provider ? ` behind ${provider.label} at ${this.state.publicUrl}` : ''} for "${connection.label}" (${this.secrets.length} signing secret(s) known).`);
    this.updateStatus();
    this.changed.fire();
    await setContext(ContextKeys.listening, true);
    return this.state;
  }

  /**
   * Stops listening. The user's stop forgets the session; a window closing or reloading
   * (`interrupted`) keeps it, so the view can offer to listen again.
   */
  async stop(interrupted = false): Promise<ListeningState | undefined> {
    const state = this.state;
    if (!interrupted) await this.windowState.update(INTERRUPTED_KEY, undefined);
    const tunnel = this.tunnel;
    this.tunnel = undefined;
    this.state = undefined;
    await tunnel?.stop().catch(() => undefined);
    await this.listener?.stop();
    this.listener = undefined;
    await Promise.all([this.dedupe.flush(), this.events.flush()]);
    if (state) this.output.info('Stopped listening.');
    this.updateStatus();
    this.changed.fire();
    await setContext(ContextKeys.listening, false);
    return state;
  }

  /** Records which endpoint now points at the listener (after "Start listening" asked). */
  async pointedAt(endpointId: string | undefined, created: boolean): Promise<void> {
    if (!this.state) return;
    this.state.endpointId = endpointId;
    if (created) this.state.createdEndpointId = endpointId;
    await this.remember();
  }

  private remember(): Promise<void> {
    const { connection, provider, endpointId, createdEndpointId } = this.state!;
    const created = !!createdEndpointId && createdEndpointId === endpointId;
    const session: InterruptedListening = { connectionId: connection.id, connectionLabel: connection.label, provider, endpointId, created };
    return Promise.resolve(this.windowState.update(INTERRUPTED_KEY, session));
  }

  /** The session a reload or closed window cut off, while not listening again yet. */
  get interrupted(): InterruptedListening | undefined {
    return this.state ? undefined : this.windowState.get<InterruptedListening>(INTERRUPTED_KEY);
  }

  async forgetInterrupted(): Promise<void> {
    await this.windowState.update(INTERRUPTED_KEY, undefined);
    this.changed.fire();
  }

  private record(r: DeliveryRecord, update = false): void {
    void this.events.put(r);
    if (update) {
      const f = r.forward!;
      this.output.info(`  forwarded ${r.webhookId} to ${f.url}: ${f.status ?? f.error} in ${f.durationMs} ms`);
    } else {
      const line = `${new Date(r.receivedAt).toISOString()} ${r.eventType ?? '-'} ${r.eventId ?? '-'} webhook-id=${r.webhookId ?? '-'} ${r.verdict.toUpperCase()}${r.reason ? `: ${r.reason}` : ''}`;
      if (r.verdict === 'rejected' || r.verdict === 'malformed') this.output.warn(line);
      else this.output.info(line);
      // Formatting a payload costs more than verifying it: only when debug lines are shown.
      if (this.output.logLevel <= vscode.LogLevel.Debug) this.output.debug(redact(prettyBody(r.body)));
    }
    this.scheduleChange();
  }

  /** Keeps a replay's answer with its event (the newest few), on disk and in the views. */
  async addReplay(r: DeliveryRecord, answer: ForwardResult): Promise<void> {
    r.replays = [...(r.replays ?? []), answer].slice(-MAX_REPLAYS);
    const f = answer;
    this.output.info(`Replayed ${r.eventType ?? 'delivery'} ${r.eventId ?? ''}${f.edited ? ' (edited)' : ''} to ${f.url}: ${f.status ?? f.error} in ${f.durationMs} ms`);
    this.scheduleChange();
    await this.events.put(r);
  }

  private changeTimer: NodeJS.Timeout | undefined;

  /** The view and status bar follow a burst of deliveries a few times a second, not once per delivery. */
  private scheduleChange(): void {
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      this.updateStatus();
      this.changed.fire();
    }, 50);
  }

  async clear(): Promise<void> {
    await this.events.clear();
    this.updateStatus();
    this.changed.fire();
  }

  private updateStatus(): void {
    const count = this.events.size;
    if (this.state) {
      this.statusItem.text = `$(radio-tower) Listening · ${count}`;
      const { connection, publicUrl, localUrl } = this.state;
      this.statusItem.tooltip = new vscode.MarkdownString(
        [`Webhook listener for **${connection.label}**`, `Public URL: ${publicUrl}`, `Local: ${localUrl}`, `${count} event(s) received. Click for actions.`].join('\n\n'),
      );
      this.statusItem.show();
    } else {
      this.statusItem.hide();
    }
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    clearTimeout(this.changeTimer);
    // stop() logs its last line, so the channel goes after it.
    void this.stop(true).finally(() => this.channel?.dispose());
    this.statusItem.dispose();
    this.changed.dispose();
  }
}

export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
