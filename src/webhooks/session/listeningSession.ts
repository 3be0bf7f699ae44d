/**
 * Listening for webhooks, owned in one place. `Listening` holds the window's listener and the
 * tunnel in front of it (one connection at a time), the signing secrets it verifies with, and the
 * sessions using it. A `ListeningSession` is one use of it — "Start Listening", or a debug session —
 * with its own endpoint pointed at the listener, its own forward target, and an undo for what it
 * changed. A verified delivery goes to the app of the session whose endpoint it came through.
 * Every delivery the listener answers goes straight to the received events' owner (`WebhookEvents`),
 * here in the core; the host only hears of it (`onDidDeliver`, `onDidForward`) to say so.
 */
import * as l10n from '@vscode/l10n';
import type { WebhookEndpoint } from '../../service/types';
import type { TunnelProvider } from '../../tunnels/tunnel';
import { Emitter, type Event } from '../../service/emitter';
import { Delivered } from '../store/delivered';
import type { DeliveryRecord, KnownSecret } from '../store/records';
import type { WebhookEvents } from '../store/webhookEvents';
import type { OriginalUrls } from './originalUrls';
import { TunnelKeeper, type TunnelMove } from './tunnelKeeper';
import { routeFor, type Route, type Routes } from '../send/routes';
import { ListeningSession } from './session';
import type { ConnectionRef, EndpointPlan, Forwarded, ListenerHandle, ListenerWiring, ListeningState, SessionEndpoints, SessionStart, TunnelMoved, TunnelStatus } from './types';

export type { ConnectionRef, EndpointPlan, Forwarded, ListenerHandle, ListenerWiring, ListeningState, SessionEndpoints, SessionStart, TunnelMoved, TunnelStatus } from './types';
export type { TunnelHealth } from './tunnelKeeper';
export { ListeningSession } from './session';

interface Line<C extends ConnectionRef> {
  state: ListeningState<C>;
  listener: ListenerHandle;
  keeper?: TunnelKeeper;
}

export class Listening<C extends ConnectionRef = ConnectionRef> {
  private line: Line<C> | undefined;
  private sessions: ListeningSession<C>[] = [];
  private secrets: KnownSecret[] = [];
  private secretsRun = 0;
  /** Endpoints pointed here by sessions that put them back: the URL to restore, and how many sessions hold it. */
  private readonly repointed = new Map<string, { url: string; holders: number }>();
  /** The connection's endpoints as last listed (names, URLs and secret hints, for the signature doctor). */
  endpointList: WebhookEndpoint[] = [];
  private readonly changed = new Emitter<void>();
  private readonly tunnelChanged = new Emitter<TunnelStatus>();
  private readonly tunnelMoved = new Emitter<TunnelMoved>();
  private readonly delivered = new Emitter<Delivered>();
  private readonly forwarded = new Emitter<Forwarded>();
  private readonly failed = new Emitter<Error>();
  /** Listening started or stopped, a session began or ended, or the tunnel's health changed. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** The tunnel dropped, is being reopened (each attempt), is back, or could not come back. */
  readonly onDidChangeTunnel: Event<TunnelStatus> = this.tunnelChanged.event;
  /** A reopened tunnel has a new URL: the state says it, and the sessions' endpoints were pointed at it. */
  readonly onDidMoveTunnel: Event<TunnelMoved> = this.tunnelMoved.event;
  /** The listener answered a delivery, now in the received events (a duplicate counted there). */
  readonly onDidDeliver: Event<Delivered> = this.delivered.event;
  /** A delivery's forward ended; the app's answer is kept with its event. */
  readonly onDidForward: Event<Forwarded> = this.forwarded.event;
  /** The listener ended by itself (its process crashed or was killed): listening has stopped, and may start again. */
  readonly onDidFail: Event<Error> = this.failed.event;

  constructor(
    private readonly host: {
      createListener(wiring: ListenerWiring): ListenerHandle;
      /** The received events: every delivery the listener answers is recorded there. */
      events: WebhookEvents;
      /** Where replays go when no session says otherwise (the user's setting). */
      defaultForwardTo(): string | undefined;
      /** The user's per-event routes (checked), used like the default forward URL. */
      defaultRoutes?(): Routes | undefined;
      /** Where a re-pointed endpoint's URL survives a crash until it is put back. */
      originals?: OriginalUrls;
      /** Pauses before each attempt to reopen a dropped tunnel (their count bounds the attempts). */
      reopenDelaysMs?: readonly number[];
    },
  ) {}

  get state(): ListeningState<C> | undefined {
    return this.line?.state;
  }

  knownSecrets(): KnownSecret[] {
    return this.secrets;
  }

  /** The app a verified delivery goes to: its endpoint's session's, else the newest session's, else the default. */
  forwardTarget(record?: Pick<DeliveryRecord, 'endpointId' | 'eventType'>): string | undefined {
    return this.forwardRoute(record)?.url;
  }

  /** The same, with the route that chose it (the inspector shows it). */
  forwardRoute(record?: Pick<DeliveryRecord, 'endpointId' | 'eventType'>): Route | undefined {
    const newestFirst = [...this.sessions].reverse();
    const session = newestFirst.find((s) => record?.endpointId !== undefined && s.endpointId === record.endpointId) ?? newestFirst[0];
    return session ? session.forwardRoute(record?.eventType) : routeFor(record?.eventType, this.host.defaultRoutes?.(), this.host.defaultForwardTo());
  }

  /** Starts a session: the listener and tunnel when not running, the endpoint pointed here, the secrets to verify with. */
  async start(o: SessionStart<C>): Promise<ListeningSession<C>> {
    const running = this.line?.state.connection;
    if (o.replace && this.line) await this.stop();
    else if (running && running.id !== o.connection.id) {
      throw new Error(l10n.t('The webhook listener is running for "{0}": stop it first, or name that connection in "connection".', running.label));
    }
    if (!this.line) await this.open(o.connection, o.tunnel, o.signal);
    const line = this.line!;
    const session = new ListeningSession<C>(line.state, o.forwardTo, o.routes);
    this.sessions.push(session);
    // The last session to leave a listener stops it (unless another start replaced that listener since).
    session.steps.push(async () => {
      this.sessions = this.sessions.filter((s) => s !== session);
      // Stryker disable next-line ConditionalExpression: a running listener always has a session, so no other one is stopped here
      if (this.line === line && !this.sessions.length) await this.stop();
      else this.changed.fire();
    });
    try {
      await this.point(session, o.endpoint, o.endpoints, !!o.undoEndpoint);
    } catch (err) {
      await session.undo();
      throw err;
    }
    this.changed.fire();
    return session;
  }

  /** Points an endpoint at the listener for a session (after the start, when the user chooses then), and reads the secrets. */
  async point(session: ListeningSession<C>, plan: EndpointPlan, endpoints: SessionEndpoints, undoEndpoint = false): Promise<void> {
    const url = `${session.state.publicUrl}/webhook`;
    session.endpoints = endpoints;
    if (plan.mode === 'create') {
      const created = await endpoints.create({ name: plan.name, url, event_types: plan.eventTypes });
      session.endpointId = session.createdEndpointId = created.id;
      if (undoEndpoint) session.steps.push(() => endpoints.remove(created.id));
    } else if (plan.mode === 'update') {
      const id = plan.endpointId;
      const endpoint = (await endpoints.all()).find((e) => e.id === id);
      if (!endpoint) throw new Error(l10n.t('No webhook endpoint "{0}" on "{1}".', id, session.state.connection.label));
      if (undoEndpoint) await this.repoint(session, endpoint, url, endpoints);
      else await endpoints.update(id, url);
      session.endpointId = id;
      if (plan.created) session.createdEndpointId = id;
    }
    await this.endpointsChanged(session.state.connection.id, endpoints);
  }

  /** Points an endpoint here for a session that puts it back; overlapping sessions share one original URL. */
  private async repoint(session: ListeningSession<C>, endpoint: WebhookEndpoint, url: string, endpoints: SessionEndpoints): Promise<void> {
    const connectionId = session.state.connection.id;
    let held = this.repointed.get(endpoint.id);
    if (held) held.holders++;
    else {
      // Kept before the change: a crash from here on still knows what to put back.
      const original = this.host.originals ? await this.host.originals.keep(connectionId, endpoint.id, endpoint.url) : endpoint.url;
      await endpoints.update(endpoint.id, url);
      held = { url: original, holders: 1 };
      this.repointed.set(endpoint.id, held);
    }
    session.originalUrl = held.url;
    const h = held;
    session.steps.push(async () => {
      if (--h.holders > 0) return;
      this.repointed.delete(endpoint.id);
      await endpoints.update(endpoint.id, h.url);
      await this.host.originals?.forget(connectionId, endpoint.id);
    });
  }

  /** Reloads the secrets of the connection's endpoints (the one place they are read); no-op for another connection. */
  async endpointsChanged(connectionId: string, endpoints: SessionEndpoints): Promise<void> {
    if (this.line?.state.connection.id !== connectionId) return;
    // Changes can overlap (an endpoint changed while a reload ran): only the latest reload counts.
    // Stryker disable next-line UpdateOperator: counting down tells the runs apart as well
    const run = ++this.secretsRun;
    const all = await endpoints.all();
    const known: KnownSecret[] = [];
    for (const e of all) {
      const secret = await endpoints.secretOf(e.id);
      if (secret) known.push({ endpointId: e.id, secret, label: e.name });
    }
    if (run !== this.secretsRun) return;
    this.secrets = known;
    this.endpointList = all;
    // A listener in another process verifies with them once told: a delivery sent after this resolves is checked against them.
    await this.line?.listener.secretsChanged?.();
  }

  /**
   * Stops the listener and the tunnel, and resolves once what it received is on disk. Sessions
   * keep their undo (a debug session still puts its endpoint back).
   */
  async stop(): Promise<ListeningState<C> | undefined> {
    const line = this.line;
    this.line = undefined;
    this.sessions = [];
    this.secrets = [];
    // What a session still running elsewhere puts back stays with it; a new listener keeps its own count.
    this.repointed.clear();
    if (line) {
      await line.keeper?.stop().catch(() => undefined);
      await line.listener.stop();
    }
    // Duplicate counts waiting for their write included; also when not listening (a replay's answer).
    await this.host.events.flush();
    if (!line) return undefined;
    this.changed.fire();
    return line.state;
  }

  private async open(connection: C, provider: TunnelProvider | undefined, signal?: AbortSignal): Promise<void> {
    const { events } = this.host;
    const listener = this.host.createListener({
      secrets: () => this.secrets,
      forwardTo: (r) => this.forwardRoute(r),
      dedupe: events.dedupe,
      onDelivery: (record) => {
        events.record(record);
        this.delivered.fire(Delivered.of(record));
      },
      // From the listener's process: kept as the bytes it sent, decoded only where asked.
      onDelivered: (d) => {
        events.recordBytes(d);
        this.delivered.fire(d);
      },
      onForwarded: (record, forward) => {
        events.forwarded(record.id, forward);
        this.forwarded.fire({ record, forward });
      },
    });
    const localUrl = await listener.start();
    const line: Line<C> = { state: { connection, localUrl, publicUrl: localUrl, provider: provider ? provider.id : 'none' }, listener };
    let ended: Error | undefined;
    listener.onDidFail?.((err) => void this.lost(line, (ended = err)));
    if (provider) {
      let keeper: TunnelKeeper;
      try {
        keeper = await TunnelKeeper.open(provider, listener.port, { signal, delaysMs: this.host.reopenDelaysMs });
      } catch (err) {
        await listener.stop();
        throw err;
      }
      line.keeper = keeper;
      // The listener's process ended while the tunnel opened: nothing to listen with.
      if (ended) {
        await keeper.stop().catch(() => undefined);
        throw ended;
      }
      line.state.publicUrl = keeper.url;
      line.state.tunnel = { label: provider.label, health: keeper.state };
      keeper.onDidChangeUrl((move) => void this.follow(line, provider.label, move));
      keeper.onDidChangeHealth((health) => {
        // Stopped with the listener (which lets go of the line first): nothing to tell.
        if (this.line !== line || health.kind === 'stopped') return;
        line.state.tunnel = { label: provider.label, health };
        this.tunnelChanged.fire(line.state.tunnel);
        this.changed.fire();
      });
    }
    this.line = line;
  }

  /** The listener ended by itself: stopped as "Stop Listening" would (the tunnel too), then said. */
  private async lost(line: Line<C>, err: Error): Promise<void> {
    if (this.line !== line) return;
    await this.stop();
    this.failed.fire(err);
  }

  /** A reopened tunnel's new URL: the state takes it, and each session's endpoint is pointed at it (once per endpoint). */
  private async follow(line: Line<C>, label: string, move: TunnelMove): Promise<void> {
    if (this.line !== line) return;
    line.state.publicUrl = move.url;
    const pointed = new Map<string, SessionEndpoints>();
    for (const s of this.sessions) if (s.endpointId && s.endpoints && !pointed.has(s.endpointId)) pointed.set(s.endpointId, s.endpoints);
    const endpoints: TunnelMoved['endpoints'] = [];
    for (const [endpointId, via] of pointed) {
      const error = await via.update(endpointId, `${move.url}/webhook`).then(() => undefined, (err: unknown) => (err as Error).message);
      endpoints.push(error === undefined ? { endpointId } : { endpointId, error });
    }
    if (this.line === line) this.tunnelMoved.fire({ ...move, label, endpoints });
  }

  dispose(): void {
    this.changed.dispose();
    this.tunnelChanged.dispose();
    this.tunnelMoved.dispose();
    this.delivered.dispose();
    this.forwarded.dispose();
    this.failed.dispose();
  }
}
