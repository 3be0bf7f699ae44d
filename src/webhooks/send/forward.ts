/**
 * Passing a delivery on to the user's app and keeping its answer: status, headers, and the body
 * up to `FORWARD_BODY_CAP` (the rest is not read), the time it took, or the connection error.
 * The listener's forwards and the inspector's replays both go through here.
 */
import { proxyRefusal, type Transport } from '../../service/transport';
import { webhookTransport } from './outbound';
import type { ForwardResult } from '../store/records';
import { capHeader } from '../receive/rejections';
import { forwardUrlProblem, maskedUrl } from './forwardUrl';
import { FORWARD_TIMEOUT_MS as TIMEOUT_MS } from './forwardErrors';

export { explainForwardError } from './forwardErrors';
export { forwardUrlProblem, maskedUrl } from './forwardUrl';

/** Bytes of the app's answer body kept (and so stored with the event): enough for an error page. */
export const FORWARD_BODY_CAP = 64 * 1024;
/** Answer headers kept, at most (an app that sends thousands does not fill the disk). */
export const FORWARD_MAX_HEADERS = 64;

export interface ForwardRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** Distinguishes replays from the forward made on arrival. */
  kind?: ForwardResult['kind'];
  webhookId?: string;
  edited?: boolean;
  /** Sent from a fixture file (see ForwardResult). */
  fixture?: boolean;
  /** The route pattern that chose the URL (`batch.*`), kept with the answer for the inspector. */
  route?: string;
  /** How it goes out (the user's proxy: see `webhookOutbound`); direct by default. */
  outbound?: Transport;
}

/** POSTs once (a delivery is not idempotent: never retried) and records the app's answer. */
export async function forwardDelivery(req: ForwardRequest): Promise<ForwardResult> {
  const t0 = Date.now();
  const base: Pick<ForwardResult, 'url' | 'at' | 'kind' | 'webhookId' | 'edited' | 'fixture' | 'route'> = {
    url: maskedUrl(req.url),
    at: t0,
    ...(req.kind && req.kind !== 'forward' ? { kind: req.kind } : {}),
    ...(req.webhookId ? { webhookId: req.webhookId } : {}),
    ...(req.edited ? { edited: true } : {}),
    ...(req.fixture ? { fixture: true } : {}),
    ...(req.route ? { route: req.route } : {}),
  };
  const refused = forwardUrlProblem(req.url);
  if (refused) return { ...base, error: refused, durationMs: 0 };
  try {
    const res = await (req.outbound ?? webhookTransport).request(req.url, { method: 'POST', headers: req.headers, body: req.body, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    const headers: Record<string, string> = {};
    let n = 0;
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined || n++ >= FORWARD_MAX_HEADERS) continue;
      headers[name] = capHeader(Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await readCapped(res.body, FORWARD_BODY_CAP);
    const declared = Number(res.headers['content-length']);
    return {
      ...base,
      status: res.statusCode,
      headers,
      body: answer.text,
      // Stryker disable next-line LogicalOperator,ConditionalExpression,EqualityOperator: a cut body had a length above the cap, or none (NaN).
      ...(answer.truncated ? { bodyTruncated: true, ...(Number.isFinite(declared) && declared > 0 ? { bodyBytes: declared } : {}) } : {}),
      durationMs: Date.now() - t0,
    };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // A proxy's refusal surfaces as an abort: its status says more.
    const refused = proxyRefusal(err);
    return { ...base, error: refused ? `PROXY_${refused}` : (e.code ?? e.message ?? 'error').slice(0, 300), durationMs: Date.now() - t0 };
  }
}

/** The first `cap` bytes of a body as text; the rest is not read (the connection is dropped). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, cap: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      body.destroy();
      return { text: decode(Buffer.concat(chunks)), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: decode(Buffer.concat(chunks)), truncated: false };
}

/** UTF-8, without a character cut in half at the cap showing as garbage. */
function decode(buf: Buffer): string {
  // Not fatal (the default): a bad byte shows as U+FFFD; `stream` keeps a character cut at the end out.
  return new TextDecoder('utf-8').decode(buf, { stream: true });
}

