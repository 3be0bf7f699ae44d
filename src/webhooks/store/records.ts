/**
 * What the listener and its stores share: the record a delivery leaves, the secrets it is
 * verified with, and the dedupe window. Below both, so the stores need not import the listener.
 */

import { randomBytes } from 'node:crypto';
import type { VerifyTrace } from '../inspect/trace';

export type { KnownSecret } from '../inspect/trace';

/** A new record's local id: 96 random bits (a UUID's text cost the host ten times the bytes to build). */
export function recordId(): string {
  return randomBytes(12).toString('base64url');
}

export type Verdict = 'verified' | 'duplicate' | 'rejected' | 'malformed';

/** A request from here to the user's app, and its answer (see forward.ts). */
export interface ForwardResult {
  url: string;
  /** When it was sent (ms). */
  at?: number;
  /** Absent: the forward made when the delivery arrived. */
  kind?: 'forward' | 'replay';
  /** The webhook-id it was sent with, when not the delivery's own (a replay's new one). */
  webhookId?: string;
  /** A replay of a body edited in the inspector. */
  edited?: boolean;
  /** Sent from a fixture file (its CodeLens, or a folder in order) rather than replayed from here. */
  fixture?: boolean;
  /** The per-event route that chose the URL (`batch.*`, `*`); absent: the forward URL. */
  route?: string;
  status?: number;
  /** The app's answer headers, values capped. */
  headers?: Record<string, string>;
  /** The app's answer body, cut at FORWARD_BODY_CAP. */
  body?: string;
  /** The declared size of the answer body, when `body` holds less of it. */
  bodyBytes?: number;
  bodyTruncated?: boolean;
  /** The connection error (a code such as ECONNREFUSED) when there was no answer. */
  error?: string;
  durationMs: number;
}

/** The app answered, with a status that is not 2xx, or did not answer at all. */
export function forwardFailed(f: ForwardResult | undefined): boolean {
  return !!f && (f.status === undefined || f.status < 200 || f.status > 299);
}

/** The app's latest answer for an event: its newest replay's, else the forward's on arrival. */
export function latestAnswer(r: { forward?: ForwardResult; replays?: ForwardResult[] }): ForwardResult | undefined {
  return r.replays?.at(-1) ?? r.forward;
}

/** Replays to the app kept per event (newest last), beside the forward made on arrival. */
export const MAX_REPLAYS = 5;

export interface DeliveryRecord {
  /** Local id of this record. */
  id: string;
  receivedAt: number;
  verdict: Verdict;
  /** Why it was rejected (or what was wrong with it), in words. */
  reason?: string;
  /** The HTTP status the listener answered. */
  status: number;
  webhookId?: string;
  timestamp?: string;
  endpointId?: string;
  eventId?: string;
  eventType?: string;
  /** The body as received, cut at `maxStoredBody` (a short prefix only when rejected). */
  body: string;
  /** The size of the body as received, when `body` holds less of it. */
  bodyBytes?: number;
  /** `body` is not the whole body: it cannot be replayed. */
  bodyTruncated?: boolean;
  /** A summary of deliveries counted rather than kept one by one (rejected, or duplicates of one gone): how many. */
  count?: number;
  /** What a summary's row says, e.g. "281 rejected deliveries from 127.0.0.1". */
  summary?: string;
  /** Headers that matter for replay and inspection (never a secret), values capped. */
  headers: Record<string, string>;
  /** The request's path as received (capped), e.g. `/webhook`. */
  path?: string;
  /** How the verdict was reached (see trace.ts); absent on counted summaries and old records. */
  trace?: VerifyTrace;
  forward?: ForwardResult;
  /** Replays to the app from the inspector, newest last, at most MAX_REPLAYS. */
  replays?: ForwardResult[];
  /** The same signed delivery arrived again (same webhook-id): counted here, never kept one by one. */
  duplicates?: DuplicateCount;
}

export interface DuplicateCount {
  count: number;
  /** When the latest one arrived (ms). */
  lastAt: number;
}

/** Remembers which webhook-ids were processed, so a redelivery is not processed twice. */
export interface DedupeStore {
  has(webhookId: string): boolean;
  add(webhookId: string): void;
  /** The ids held, oldest first (what a listener in another process starts from). */
  ids?(): string[];
  /** Resolves once every id added is where `ids` reads it. */
  flush?(): Promise<void>;
}

/** The dedupe window, kept outside the JS heap (see idWindow.ts). */
export { IdWindow } from './idWindow';
