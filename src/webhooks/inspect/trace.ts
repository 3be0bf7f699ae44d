/**
 * How a delivery's verdict was reached, kept with its record for the inspector and the signature
 * doctor: the timestamp's distance from the time of arrival against the tolerance, the required
 * headers that were missing, the signatures received and the one each known secret expects (short
 * prefixes: enough to compare by eye, too short to forge anything), and for a rejected JSON body,
 * whether a re-serialization of it is what was signed. Never a secret: endpoints show by id, name
 * and the service's own hint (`whsec_...abcd`).
 */
import { createHash, createHmac } from 'node:crypto';
import { secretHint, secretKey } from '../signature';

export const REQUIRED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
/** Base64 characters of a signature shown: 48 bits, to compare, not to use. */
const PREFIX_CHARS = 8;
const MAX_RECEIVED = 5;
/**
 * Bodies looked into for a re-serialization, at most: each form costs a parse and an HMAC per held
 * secret, and the service's events are a few KB, so a larger body was not the service's anyway.
 */
export const MAX_REFORMED_BODY = 64 * 1024;
/** Characters of each side shown around the first difference of a re-serialized body. */
const EXCERPT = 24;

export interface TriedSecret {
  endpointId: string;
  /** The endpoint's name, when known here. */
  label?: string;
  /** `whsec_...abcd`, as the service shows it. */
  hint: string;
  /** The first characters of the signature this secret gives for the bytes received. */
  expected: string;
  matched: boolean;
}

/** A form of the received JSON that a known secret verifies: the body was re-serialized on the way. */
export interface Reserialized {
  endpointId: string;
  /** How the signed bytes are written, e.g. "compact JSON". */
  form: string;
  /** Byte offset of the first difference between what arrived and what was signed. */
  offset: number;
  /** A few characters around it, each side (sender-controlled text: shown as text only). */
  received: string;
  signed: string;
}

/** A signing secret the listener tries, with the endpoint it belongs to. */
export interface KnownSecret {
  endpointId: string;
  secret: string;
  /** The endpoint's name, for people (traces show it instead of the id). */
  label?: string;
}

export interface VerifyTrace {
  toleranceSeconds: number;
  /** Arrival time minus webhook-timestamp, in seconds (positive: the timestamp is in the past). */
  skewSeconds?: number;
  /** Required headers that did not arrive. */
  missingHeaders: string[];
  /** The signatures received, as prefixes (`v1,AbCdEfGh…`). */
  received: string[];
  /** How many more signatures arrived than are shown. */
  receivedMore?: number;
  tried: TriedSecret[];
  reserialized?: Reserialized;
  /** The body was too large to be looked into for a re-serialization (see MAX_REFORMED_BODY). */
  reformsNotTried?: true;
  /** Size and SHA-256 (hex prefix) of the body as received: two deliveries compare without their bodies. */
  bodyBytes: number;
  bodySha256: string;
}

export interface TraceInput {
  /** Lower-case names, as received. */
  headers: Record<string, string | undefined>;
  body: Buffer;
  known: readonly KnownSecret[];
  toleranceSeconds: number;
  /** Arrival time (ms). */
  now: number;
  /** Look for a re-serialized JSON body (only for rejected deliveries: it costs a parse). */
  lookForReserialization?: boolean;
  /** The HMACs verification already computed, by index of `known` (see VerifyInput.macs). */
  macs?: ReadonlyArray<Buffer | undefined>;
}

const prefix = (base64: string) => `v1,${base64.slice(0, PREFIX_CHARS)}…`;

const hints = new Map<string, string>();
/**
 * A secret's hint, one string per secret: every record keeps its trace, and a thousand records
 * each with a copy of the same hint was young-generation bytes that every burst copied and promoted.
 */
function hintOf(secret: string): string {
  let hint = hints.get(secret);
  if (hint === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a cache bound: any bound gives the same hints
    if (hints.size >= 64) hints.clear();
    hint = secretHint(secret);
    hints.set(secret, hint);
  }
  return hint;
}

function mac(secret: string, id: string, ts: string, body: Buffer | string): string {
  return createHmac('sha256', secretKey(secret)).update(`${id}.${ts}.`).update(body).digest('base64');
}

export function traceVerification(input: TraceInput): VerifyTrace {
  const h = input.headers;
  const missingHeaders = REQUIRED_HEADERS.filter((name) => !h[name]);
  const id = h['webhook-id'] ?? '';
  const ts = h['webhook-timestamp'] ?? '';
  const skewSeconds = /^\d+$/.test(ts) ? Math.floor(input.now / 1000) - Number(ts) : undefined;
  const tokens = (h['webhook-signature'] ?? '').split(' ').filter(Boolean);
  const receivedFull = new Set(tokens.map((t) => (t.startsWith('v1,') ? t.slice(3) : t)));
  const tried: TriedSecret[] = input.known.map((k, i) => {
    const expected = input.macs?.[i]?.toString('base64') ?? mac(k.secret, id, ts, input.body);
    const label = k.label ? { label: k.label } : {};
    return { endpointId: k.endpointId, ...label, hint: hintOf(k.secret), expected: prefix(expected), matched: receivedFull.has(expected) };
  });
  // A signature that matched is shown twice (received, and expected): one string for both.
  const received = tokens.slice(0, MAX_RECEIVED).map((t) => {
    const shown = t.startsWith('v1,') ? prefix(t.slice(3)) : `${t.slice(0, PREFIX_CHARS + 3)}…`;
    return tried.find((s) => s.expected === shown)?.expected ?? shown;
  });
  const trace: VerifyTrace = {
    toleranceSeconds: input.toleranceSeconds,
    ...(skewSeconds !== undefined ? { skewSeconds } : {}),
    missingHeaders,
    received,
    ...(tokens.length > MAX_RECEIVED ? { receivedMore: tokens.length - MAX_RECEIVED } : {}),
    tried,
    bodyBytes: input.body.length,
    bodySha256: createHash('sha256').update(input.body).digest('hex').slice(0, 16),
  };
  if (input.lookForReserialization && !missingHeaders.length && !tried.some((t) => t.matched)) {
    if (input.body.length > MAX_REFORMED_BODY) {
      trace.reformsNotTried = true;
      return trace;
    }
    const found = findReserialization(input.body, id, ts, receivedFull, input.known);
    if (found) trace.reserialized = found;
  }
  return trace;
}

/** The ways a JSON body is commonly rewritten by a framework or proxy (parsed, then written again). */
const FORMS: Array<[string, (v: unknown, text: string) => string]> = [
  ['compact JSON', (v) => JSON.stringify(v)],
  ['JSON indented by 2 spaces', (v) => JSON.stringify(v, null, 2)],
  ['JSON indented by 4 spaces', (v) => JSON.stringify(v, null, 4)],
  ['JSON indented by tabs', (v) => JSON.stringify(v, null, '\t')],
  ['the same bytes without surrounding whitespace', (_v, text) => text.trim()],
  ['the same bytes with a final newline', (_v, text) => `${text}\n`],
];

function findReserialization(body: Buffer, id: string, ts: string, received: Set<string>, known: readonly KnownSecret[]): Reserialized | undefined {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const [form, write] of FORMS) {
    const candidate = write(value, text);
    if (candidate === text) continue;
    for (const k of known) {
      if (!received.has(mac(k.secret, id, ts, candidate))) continue;
      const offset = firstDifference(text, candidate);
      const around = (s: string) => s.slice(Math.max(0, offset - EXCERPT), offset + EXCERPT);
      return { endpointId: k.endpointId, form, offset: Buffer.byteLength(text.slice(0, offset)), received: around(text), signed: around(candidate) };
    }
  }
  return undefined;
}

function firstDifference(a: string, b: string): number {
  // Stryker disable next-line MethodExpression: past the shorter string the other differs at once, at n.
  const n = Math.min(a.length, b.length);
  // Stryker disable next-line EqualityOperator: at n one side has ended, so it differs there: n either way.
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}
