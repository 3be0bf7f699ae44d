/**
 * Standard Webhooks signatures, as the service uses them: HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, base64, sent as `v1,<mac>` (several may be
 * space-separated). A `whsec_` secret is base64 after the prefix; any other secret is used as its
 * UTF-8 bytes (what the `openai` package does).
 */
import * as l10n from '@vscode/l10n';
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const keyCache = new Map<string, KeyObject>();

/**
 * The HMAC key of a secret, decoded once per secret (a listener verifies with the same few): a
 * KeyObject, which an HMAC takes as it is, where a Buffer is made into one on every call.
 */
export function secretKey(secret: string): KeyObject {
  let key = keyCache.get(secret);
  if (!key) {
    key = createSecretKey(secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8'));
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement,CallExpression: a cache bound: any bound gives the same keys
    if (keyCache.size > 1000) keyCache.clear();
    // Stryker disable next-line CallExpression: a cache: the key is decoded again without it
    keyCache.set(secret, key);
  }
  return key;
}

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The masked form shown after creation, e.g. `whsec_...8s8=`. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}...${secret.slice(-4)}`;
}

export function sign(secret: string | Buffer | KeyObject, webhookId: string, timestamp: number | string, body: string | Buffer): string {
  const key = typeof secret === 'string' ? secretKey(secret) : secret;
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a delivery. */
export function signedHeaders(secret: string, webhookId: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, webhookId, timestamp, body),
  };
}

export type VerifyFailure =
  | { ok: false; reason: 'missing-header'; header: string; message: string }
  | { ok: false; reason: 'bad-timestamp'; message: string }
  | { ok: false; reason: 'timestamp-too-old' | 'timestamp-too-new'; skewSeconds: number; message: string }
  | { ok: false; reason: 'no-secret'; message: string }
  | { ok: false; reason: 'signature-mismatch'; message: string };

export type VerifyResult = { ok: true; secretIndex: number } | VerifyFailure;

export interface VerifyInput {
  headers: Record<string, string | string[] | undefined>;
  body: string | Buffer;
  /** Every secret that may have signed it; the index of the one that matched is returned. */
  secrets: string[];
  toleranceSeconds?: number;
  now?: number;
  /** Filled with the HMAC of each secret computed here (by index), so a trace need not compute it again. */
  macs?: Array<Buffer | undefined>;
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function missing(header: string): VerifyFailure {
  return { ok: false, reason: 'missing-header', header, message: l10n.t('Missing required header {0}.', header) };
}

/** Verifies a delivery and says exactly why it failed. Header names must be lower-case. */
export function verify(input: VerifyInput): VerifyResult {
  const id = one(input.headers['webhook-id']);
  const ts = one(input.headers['webhook-timestamp']);
  const sig = one(input.headers['webhook-signature']);
  if (!id) return missing('webhook-id');
  if (!ts) return missing('webhook-timestamp');
  if (!sig) return missing('webhook-signature');
  if (!/^\d+$/.test(ts!)) return { ok: false, reason: 'bad-timestamp', message: l10n.t('webhook-timestamp "{0}" is not a Unix time in seconds.', ts!.slice(0, 40)) };
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const skew = Math.floor((input.now ?? Date.now()) / 1000) - Number(ts);
  if (skew > tolerance) {
    return { ok: false, reason: 'timestamp-too-old', skewSeconds: skew, message: l10n.t('Timestamp too old: {0} s in the past (tolerance {1} s).', skew, tolerance) };
  }
  if (-skew > tolerance) {
    return { ok: false, reason: 'timestamp-too-new', skewSeconds: -skew, message: l10n.t('Timestamp too new: {0} s in the future (tolerance {1} s).', -skew, tolerance) };
  }
  if (input.secrets.length === 0) return { ok: false, reason: 'no-secret', message: l10n.t('No signing secret is known for this endpoint.') };
  // The v1 signatures, and a bare one taken as v1; other versions are skipped.
  const candidates: Buffer[] = [];
  for (const s of sig!.split(' ')) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression,StringLiteral,BooleanLiteral: another version's bytes never equal a v1 HMAC
    if (!s || (s.includes(',') && !s.startsWith('v1,'))) continue;
    candidates.push(Buffer.from(s.startsWith('v1,') ? s.slice(3) : s, 'base64'));
  }
  for (let i = 0; i < input.secrets.length; i++) {
    const expected = createHmac('sha256', secretKey(input.secrets[i])).update(`${id}.${ts}.`).update(input.body).digest();
    if (input.macs) input.macs[i] = expected;
    if (candidates.some((c) => c.length === expected.length && timingSafeEqual(c, expected))) return { ok: true, secretIndex: i };
  }
  return { ok: false, reason: 'signature-mismatch', message: l10n.t('Signature mismatch: the body was changed, or it was signed with another secret.') };
}
