/** What listening for webhooks is made of, and what it says: shared by `Listening`, its sessions and the host. */
import type { Event } from '../../service/emitter';
import type { WebhookEndpoint } from '../../service/types';
import type { TunnelProvider, TunnelProviderId } from '../../tunnels/tunnel';
import type { Delivered } from '../store/delivered';
import type { DedupeStore, DeliveryRecord, ForwardResult, KnownSecret } from '../store/records';
import type { TunnelHealth, TunnelMove } from './tunnelKeeper';
import type { Route, Routes } from '../send/routes';

/** The listener as a session uses it (a ChildListener in the extension, a WebhookListener in tests and tools). */
export interface ListenerHandle {
  readonly port: number;
  start(): Promise<string>;
  stop(): Promise<void>;
  /** The secrets changed: resolves once the listener verifies with the new ones (one in another process is told). */
  secretsChanged?(): Promise<void>;
  /** The listener ended by itself (its process crashed or was killed): listening has stopped. */
  readonly onDidFail?: Event<Error>;
}

/** What the listener asks the sessions on every delivery, and where it hands each one over. */
export interface ListenerWiring {
  secrets: () => KnownSecret[];
  forwardTo: (record: Pick<DeliveryRecord, 'endpointId' | 'eventType'>) => Route | undefined;
  /** The webhook-ids processed (the received events'), so a redelivery is a duplicate. */
  dedupe: DedupeStore;
  onDelivery: (record: DeliveryRecord) => void;
  /** The same, for a delivery that came as its JSON bytes (a listener in another process): stored without decoding. */
  onDelivered?: (delivered: Delivered) => void;
  onForwarded: (record: DeliveryRecord, forward: ForwardResult) => void;
}

/** A delivery's forward and the app's answer, once kept with its event. */
export interface Forwarded {
  record: DeliveryRecord;
  forward: ForwardResult;
}

/** The connection's endpoints, as the host changes them (so the tree and the secrets follow). */
export interface SessionEndpoints {
  all(): Promise<WebhookEndpoint[]>;
  create(input: { name: string; url: string; event_types: string[] }): Promise<WebhookEndpoint>;
  update(endpointId: string, url: string): Promise<unknown>;
  remove(endpointId: string): Promise<unknown>;
  /** The endpoint's signing secret, when this extension holds it. */
  secretOf(endpointId: string): Promise<string | undefined>;
}

export type EndpointPlan =
  | { mode: 'create'; name: string; eventTypes: string[] }
  /** `created`: an endpoint an earlier "Start listening" created (offered for deletion on stop). */
  | { mode: 'update'; endpointId: string; created?: boolean }
  | { mode: 'skip' };

export interface ConnectionRef {
  id: string;
  label: string;
}

export interface ListeningState<C extends ConnectionRef = ConnectionRef> {
  connection: C;
  localUrl: string;
  /** What the service should deliver to (the tunnel's URL, or the local one for a local service). */
  publicUrl: string;
  provider: TunnelProviderId | 'none';
  /** The tunnel in front of the listener (none for a local service): its name and whether it is up. */
  tunnel?: TunnelStatus;
}

export interface TunnelStatus {
  label: string;
  health: TunnelHealth;
}

/** A reopened tunnel's new URL, and the endpoints pointed at it (`error`: the update that failed). */
export interface TunnelMoved extends TunnelMove {
  label: string;
  endpoints: Array<{ endpointId: string; error?: string }>;
}

export interface SessionStart<C extends ConnectionRef> {
  connection: C;
  endpoints: SessionEndpoints;
  /** None: the listener alone (a local service needs no tunnel). */
  tunnel?: TunnelProvider;
  endpoint: EndpointPlan;
  /** Where this session's verified deliveries go (a function: a setting can change meanwhile). */
  forwardTo: () => string | undefined;
  /** Per-event routes taken before `forwardTo` (the user's setting, or the launch configuration's). */
  routes?: () => Routes | undefined;
  /** Undo puts the endpoint back as it was (a debug session). Otherwise the change stays; Stop Listening offers to delete. */
  undoEndpoint?: boolean;
  /** Stop what is running (for any connection) and start afresh ("Start Listening"); else join it, same connection only. */
  replace?: boolean;
  signal?: AbortSignal;
}
