/**
 * The webhook listener: node:http with bounds against floods (server.ts) on 127.0.0.1 that verifies each delivery's
 * Standard Webhooks signature against every secret it knows, answers at once (200, 400
 * "Invalid signature", 500 "Internal server error"), and does everything else after answering:
 * recording, deduplication by webhook-id, forwarding.
 */
import type { AddressInfo } from 'node:net';
import type { Transport } from '../../service/transport';
import { forwardDelivery } from '../send/forward';
import type { Route } from '../send/routes';
import { createWebhookServer, type Answer, type ReceivedRequest, type WebhookServer } from './server';
import { IdWindow, recordId, type DedupeStore, type DeliveryRecord, type ForwardResult, type KnownSecret, type Verdict } from '../store/records';
import { verify, DEFAULT_TOLERANCE_SECONDS } from '../signature';
import { traceVerification } from '../inspect/trace';
import { capHeader, RejectionLimiter, REJECTED_BODY_PREFIX, senderOf, type RejectionLimits } from './rejections';

export type { DedupeStore, DeliveryRecord, ForwardResult, KnownSecret, Verdict } from '../store/records';

export interface ListenerOptions {
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** The secrets of the endpoints this listener serves; read on every delivery. */
  secrets: () => KnownSecret[];
  toleranceSeconds?: number;
  maxBodyBytes?: number;
  /** Against slow senders: time allowed for the headers, and for the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs?: number;
  dedupe?: DedupeStore;
  /** Where a verified delivery is passed on (like `stripe listen --forward-to`): the app of the session it belongs to. */
  forwardTo?: (record: Pick<DeliveryRecord, 'endpointId' | 'eventType'>) => string | Route | undefined;
  /** How forwards go out (the user's proxy: see `webhookOutbound`); direct by default. */
  outbound?: () => Transport;
  /** Called after the answer has been sent, for every request that reached a verdict; the record is frozen. */
  onDelivery?: (record: DeliveryRecord) => void;
  /** Instead of `forwardTo`: a verified delivery's bytes and forward headers, for a forward decided elsewhere (the child process's host). */
  keepForForward?: (record: DeliveryRecord, body: Buffer, headers: Record<string, string>) => void;
  /** Called when a forward finishes, with the app's answer (the delivered record is not changed). */
  onForwarded?: (record: DeliveryRecord, forward: ForwardResult) => void;
  maxStoredBody?: number;
  /** Open connections at most, and request bytes buffered across all of them. */
  maxConnections?: number;
  maxBufferedBytes?: number;
  /** How many rejected deliveries are recorded one by one (the rest are counted). */
  rejectionLimits?: Partial<RejectionLimits>;
}

/** A verdict and what arrived (uncut), for its trace and, when verified, the forward. */
interface Decided {
  record: DeliveryRecord;
  raw?: Buffer;
  received?: Record<string, string>;
  /** The secrets it was verified with, and the HMAC computed for each. */
  known?: KnownSecret[];
  macs?: Array<Buffer | undefined>;
}

const KEPT_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent', 'content-type'];
/** Headers of a verified delivery kept for the inspector, at most. */
const MAX_SIGNED_HEADERS = 64;
/** Credentials a proxy or tunnel might add: shown as present, never stored. */
const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'api-key', 'x-api-key', 'ocp-apim-subscription-key']);

export class WebhookListener {
  private http: WebhookServer | undefined;
  private readonly dedupe: DedupeStore;
  /** Verdicts waiting for the after-answer work, handed over one per turn of the event loop. */
  private pending: Decided[] = [];
  private readonly rejections: RejectionLimiter;
  url = '';
  port = 0;

  constructor(private readonly options: ListenerOptions) {
    this.dedupe = options.dedupe ?? new IdWindow();
    this.rejections = new RejectionLimiter((summary) => this.after({ record: summary }), options.rejectionLimits);
  }

  async start(): Promise<string> {
    const http = createWebhookServer(
      {
        // The service's events are under a few KB: 256 KiB leaves room for any of them while every
        // body (signed or not) stays cheap to check against each held secret.
        maxBodyBytes: this.options.maxBodyBytes ?? 256 * 1024,
        // A head comes in one packet and a whole delivery in well under a second: slow senders go early.
        headersTimeoutMs: this.options.headersTimeoutMs ?? 5_000,
        requestTimeoutMs: this.options.requestTimeoutMs ?? 10_000,
        keepAliveTimeoutMs: this.options.keepAliveTimeoutMs ?? 5_000,
        maxConnections: this.options.maxConnections ?? 128,
        maxBufferedBytes: this.options.maxBufferedBytes ?? 64 * 1024 * 1024,
      },
      (req) => this.handle(req),
    );
    await new Promise<void>((resolve, reject) => {
      http.server.once('error', reject);
      http.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        http.server.off('error', reject);
        resolve();
      });
    });
    this.http = http;
    const addr = http.server.address() as AddressInfo;
    this.port = addr.port;
    this.url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const h = this.http;
    this.http = undefined;
    if (!h) return;
    // Every delivery already answered is recorded, those still waiting for their turn too.
    for (let d = this.pending.shift(); d; d = this.pending.shift()) this.after(d);
    this.rejections.endWindow();
    await new Promise<void>((resolve) => {
      h.server.close(() => resolve());
      h.closeAllConnections();
    });
  }

  get running(): boolean {
    return !!this.http;
  }

  private handle(req: ReceivedRequest): Answer {
    if (req.method !== 'POST') return { status: 405, body: 'Method not allowed', headers: { allow: 'POST' } };
    const decided = this.decide(req);
    const record = decided.record;
    // Everything else happens after the answer; a rejection over the limit was only counted.
    if ((record.verdict !== 'rejected' || this.rejections.admit(senderOf(req.headers, req.remoteAddress))) && this.pending.push(decided) === 1) setImmediate(() => this.drain());
    return { status: record.status, body: record.status === 200 ? 'OK' : record.verdict === 'rejected' ? 'Invalid signature' : (record.reason ?? 'Bad request') };
  }

  /** One delivery per turn of the event loop: tracing one against every held secret takes time, and a burst must not hold up the rest. */
  private drain(): void {
    const d = this.pending.shift();
    if (this.pending.length) setImmediate(() => this.drain());
    if (d) this.after(d);
  }

  /** Verifies and classifies; cheap, synchronous, before the answer. */
  private decide({ headers: received, body: raw, target }: ReceivedRequest): Decided {
    const receivedAt = Date.now();
    const known = this.options.secrets();
    const secrets = known.map((k) => k.secret);
    // The HMACs computed here, which the trace reuses after the answer.
    const macs: Array<Buffer | undefined> = [];
    const toleranceSeconds = this.options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const result = verify({ headers: received, body: raw, secrets, toleranceSeconds, now: receivedAt, macs });
    const record = (headers: Record<string, string>, verdict: Verdict, status: number): DeliveryRecord => ({
      id: recordId(),
      receivedAt,
      headers,
      webhookId: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      path: shared(capHeader(target)),
      verdict,
      status,
      body: '',
    });
    if (!result.ok) {
      const rejected = record(keptHeadersOf(received), 'rejected', 400);
      rejected.reason = result.message;
      storeBody(rejected, raw, REJECTED_BODY_PREFIX);
      return { record: rejected, raw, received, known, macs };
    }
    const endpointId = known[result.secretIndex].endpointId;
    // Deduplicated by the id as signed, not as displayed. A duplicate is only counted (see webhookEvents.ts):
    // no body, no trace, no forward, so replaying one signed delivery costs little and keeps nothing big.
    const webhookId = received['webhook-id']!;
    if (this.dedupe.has(webhookId)) {
      const duplicate = record(keptHeadersOf(received), 'duplicate', 200);
      duplicate.endpointId = endpointId;
      duplicate.reason = 'Duplicate: this webhook-id was processed already; acknowledged without processing it again.';
      duplicate.bodyBytes = raw.length;
      duplicate.bodyTruncated = true;
      return { record: duplicate };
    }
    // Decoded once: for the verdict and, when it fits, as the stored body.
    const text = raw.toString('utf8');
    let event: { id?: unknown; type?: unknown } | undefined;
    try {
      event = JSON.parse(text);
    } catch {
      event = undefined;
    }
    // Signed by a known endpoint: every header is kept for the inspector (capped, credentials redacted).
    const signed = record(signedHeadersOf(received), event === undefined ? 'malformed' : 'verified', event === undefined ? 400 : 200);
    storeBody(signed, raw, this.options.maxStoredBody ?? 256 * 1024, text);
    signed.endpointId = endpointId;
    if (event === undefined) {
      signed.reason = 'Malformed JSON: the signature is valid but the body is not JSON.';
      return { record: signed, raw, received, known, macs };
    }
    if (typeof event?.id === 'string') signed.eventId = event.id;
    if (typeof event?.type === 'string') signed.eventType = shared(event.type);
    this.dedupe.add(webhookId);
    return { record: signed, raw, received, known, macs };
  }

  private after({ record, raw, received, known, macs }: Decided): void {
    // After the answer, and only for what is recorded one by one (a flood of rejections is counted, not traced).
    if (raw && received && known) {
      record.trace = traceVerification({
        headers: received,
        body: raw,
        known,
        toleranceSeconds: this.options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
        now: record.receivedAt,
        lookForReserialization: record.verdict === 'rejected',
        macs,
      });
    }
    // Handed over: from here on, a change is a new version made by the record's owner.
    Object.freeze(record);
    try {
      this.options.onDelivery?.(record);
    } catch {
      /* a listener of ours must not take the server down */
    }
    const target = record.verdict === 'verified' && raw ? this.options.forwardTo?.(record) : undefined;
    if (target) void this.forward(record, typeof target === 'string' ? { url: target } : target, raw!, received!);
    else if (record.verdict === 'verified' && raw) this.options.keepForForward?.(record, raw, forwardHeaders(received!));
  }

  /** Passes on the bytes and headers that arrived, not the stored (possibly cut) copy, and keeps the app's answer. */
  private async forward(record: DeliveryRecord, route: Route, body: Buffer, received: Record<string, string>): Promise<void> {
    const headers = forwardHeaders(received);
    const forward = await forwardDelivery({ url: route.url, route: route.pattern, headers, body, outbound: this.options.outbound?.() });
    try {
      this.options.onForwarded?.(record, forward);
    } catch {
      /* ignore */
    }
  }
}

/** The headers a forward passes on, as they arrived. */
export function forwardHeaders(received: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  // Stryker disable next-line ConditionalExpression: undici sends no header for an undefined value
  for (const h of KEPT_HEADERS) if (received[h] !== undefined) headers[h] = received[h];
  return headers;
}

/** Headers whose values repeat from one delivery to the next: kept as one string each (see `shared`). */
const REPEATED_HEADERS = new Set(['user-agent', 'content-type', 'content-length', 'host', 'accept', 'accept-encoding', 'connection', 'x-forwarded-proto', 'x-forwarded-host']);
const sharedValues = new Map<string, string>();

/**
 * One string for a value every record repeats (the sender's user-agent, the event type, the path):
 * a thousand records are kept, each survives a scavenge or two, and a copy in each was young
 * bytes every burst copied and promoted. Bounded: a sender that varies them only refills it.
 */
function shared(value: string): string {
  const held = sharedValues.get(value);
  if (held !== undefined) return held;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a cache bound: any bound gives equal strings
  if (sharedValues.size >= 256) sharedValues.clear();
  if (value.length <= 256) sharedValues.set(value, value);
  return value;
}

function signedHeadersOf(received: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const name in received) {
    if (n++ >= MAX_SIGNED_HEADERS) break;
    const value = received[name];
    out[name] = REDACTED_HEADERS.has(name) ? `(not stored: ${value.length} characters)` : REPEATED_HEADERS.has(name) ? shared(capHeader(value)) : capHeader(value);
  }
  return out;
}

/** What is kept of a delivery not verified, or counted: the headers a sender of the service's deliveries sends. */
function keptHeadersOf(received: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = received[h];
    if (v !== undefined) out[h] = REPEATED_HEADERS.has(h) ? shared(capHeader(v)) : capHeader(v);
  }
  return out;
}

/** Stores the body: the whole of it, or its first `max` bytes and how big it was. */
function storeBody(record: DeliveryRecord, raw: Buffer, max: number, text?: string): void {
  if (raw.length <= max) {
    record.body = text ?? raw.toString('utf8');
    return;
  }
  record.body = raw.subarray(0, max).toString('utf8');
  record.bodyBytes = raw.length;
  record.bodyTruncated = true;
}
