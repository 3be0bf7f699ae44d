/**
 * What the extension host and the listener's child process (childMain.ts) say to each other over
 * the fork's IPC channel. Secrets travel only here, never in argv or the environment. The child
 * sends what the host needs in batches, so a burst of deliveries costs the host few messages.
 */
import type { Route } from '../send/routes';
import type { RejectionLimits } from './rejections';
import type { DeliveredFields } from '../store/delivered';
import type { ForwardResult, KnownSecret } from '../store/records';

/** The listener's settings that are plain data (the functions stay in the host). */
export interface ChildListenerSettings {
  host?: string;
  port?: number;
  toleranceSeconds?: number;
  maxBodyBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxStoredBody?: number;
  maxConnections?: number;
  maxBufferedBytes?: number;
  rejectionLimits?: Partial<RejectionLimits>;
}

/** Where a kept delivery goes: `direct` ones the child forwards itself (loopback), the rest come back as bytes. */
export interface RouteAnswer {
  id: string;
  route?: Route;
  direct?: boolean;
}

export type ToChild =
  | { t: 'start'; settings: ChildListenerSettings; secrets: KnownSecret[]; ids: string[] }
  | { t: 'secrets'; n: number; secrets: KnownSecret[] }
  | { t: 'routes'; routes: RouteAnswer[] }
  | { t: 'stop' };

/** A verified delivery to be forwarded by the host (through VS Code's network support): what arrived. */
export interface ForwardHere {
  id: string;
  /** base64 of the bytes as received (the signature is over them). */
  body: string;
  headers: Record<string, string>;
}

/**
 * The channel uses V8's serialization ('advanced'), so `bytes` crosses as bytes: every delivered
 * record's JSON, one after the other, each `delivered[i].bytes` long. The host stores and writes them
 * without a JSON round trip of its own.
 */
export interface ChildBatch {
  t: 'batch';
  bytes?: Uint8Array;
  delivered: DeliveredFields[];
  forwarded: Array<{ id: string; forward: ForwardResult }>;
  here: ForwardHere[];
}

export type FromChild =
  | { t: 'listening'; url: string; port: number }
  | { t: 'failed'; message: string; code?: string }
  | { t: 'secrets'; n: number }
  | ChildBatch
  | { t: 'stopped' };
