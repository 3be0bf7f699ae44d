/**
 * The signature doctor: from the evidence a delivery's record keeps (its trace, the app's answer)
 * and what is known of the connection's endpoints (names, URLs, the service's secret hints), the
 * likely reasons a signature check failed, most likely first, each with the evidence for it.
 * Never a secret: endpoints are named by name and hint.
 */
import type { DeliveryRecord } from '../store/records';
import { MAX_REFORMED_BODY, type VerifyTrace } from './trace';

export type Cause =
  | 'not-a-webhook'
  | 'header-dropped'
  | 'clock-skew'
  | 'reserialized'
  | 'no-secret'
  | 'other-endpoint-secret'
  | 'stale-secret'
  | 'unknown-endpoint'
  | 'changed-on-the-way'
  | 'app-verifier';

export interface Diagnosis {
  cause: Cause;
  /** One line: what most likely happened. */
  title: string;
  /** What to do about it. */
  advice: string;
  /** The facts it rests on. */
  evidence: string[];
}

export interface EndpointInfo {
  id: string;
  name?: string;
  url?: string;
  signing_secret_hint?: string | null;
}

export interface DoctorContext {
  /** The connection's endpoints as the service lists them. */
  endpoints?: readonly EndpointInfo[];
  /** Where the service delivers to reach this listener (the public URL + path), to spot endpoints aimed here. */
  listenerUrl?: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
/** The last characters of a hint (`whsec_...8s8=` → `8s8=`), the part people compare. */
// Stryker disable next-line Regex: anchored or not, the greedy match ends at the last "..." of a one-line hint
const tail = (hint: string) => hint.replace(/^.*\.\.\./, '');

function nameOf(id: string, ctx: DoctorContext, label?: string): string {
  const e = ctx.endpoints?.find((x) => x.id === id);
  const name = label ?? e?.name;
  return name ? `"${name}" (${id})` : id;
}

/** Why this delivery's signature failed, at the listener or at the app; empty when nothing failed. */
export function diagnose(record: DeliveryRecord, ctx: DoctorContext = {}): Diagnosis[] {
  const t = record.trace;
  if (record.verdict === 'rejected' && t) return diagnoseRejected(t, ctx);
  const status = record.replays?.at(-1)?.status ?? record.forward?.status;
  if (record.verdict === 'verified' && t && (status === 400 || status === 401 || status === 403)) return [appVerifier(t, status, ctx)];
  return [];
}

function diagnoseRejected(t: VerifyTrace, ctx: DoctorContext): Diagnosis[] {
  const out: Diagnosis[] = [];
  if (t.missingHeaders.length === 3) {
    return [
      {
        cause: 'not-a-webhook',
        title: 'Not a Standard Webhooks delivery: none of webhook-id, webhook-timestamp and webhook-signature arrived.',
        advice: 'If the service sent it, something in front of the listener strips webhook-* headers. Otherwise it came from someone else (a scanner, a health check) and can be ignored.',
        evidence: ['Missing: webhook-id, webhook-timestamp, webhook-signature.'],
      },
    ];
  }
  if (t.missingHeaders.length) {
    const present = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((h) => !t.missingHeaders.includes(h));
    out.push({
      cause: 'header-dropped',
      title: `${t.missingHeaders.join(' and ')} did not arrive, though ${present.join(' and ')} did: a proxy or gateway dropped it.`,
      advice: 'Let every webhook-* header through the proxy, tunnel or API gateway in front of the app (some drop headers they do not know, or ones over a size).',
      evidence: [`Missing: ${t.missingHeaders.join(', ')}.`, `Present: ${present.join(', ')}.`],
    });
    return out;
  }
  if (t.skewSeconds !== undefined && Math.abs(t.skewSeconds) > t.toleranceSeconds) {
    // Stryker disable next-line EqualityOperator: a skew beyond the tolerance is never 0
    const past = t.skewSeconds > 0;
    const s = Math.abs(t.skewSeconds);
    const old = past && s > 3600;
    out.push({
      cause: 'clock-skew',
      title: old
        ? `The timestamp is ${formatSeconds(s)} old: a delivery sent again long after it was signed (a saved curl command, a queue that held it).`
        : `The timestamp is ${formatSeconds(s)} in the ${past ? 'past' : 'future'}: a clock is off, this machine's or the sender's.`,
      advice: old
        ? 'Re-sign it before sending it again (Replay, or Copy as curl for a fresh command): a signature is good for the tolerance only.'
        : 'Sync this machine\'s clock (NTP), or raise "aoaiWorkbench.webhooks.toleranceSeconds" in your user settings (up to 3600) while testing.',
      evidence: [`Arrival − webhook-timestamp = ${t.skewSeconds} s; tolerance ±${t.toleranceSeconds} s.`],
    });
  }
  if (!t.tried.length) {
    out.push({
      cause: 'no-secret',
      title: 'No signing secret is held here for this connection, so no delivery can be verified.',
      advice: 'The service shows a secret only when an endpoint is created: create one from here (Start Listening offers it) so its secret is kept.',
      evidence: endpointsAimedHere(ctx).map((e) => `${nameOf(e.id, ctx)} points here; its secret (${e.signing_secret_hint ?? 'no hint'}) is not held here.`),
    });
    return out;
  }
  if (t.reserialized) {
    const r = t.reserialized;
    out.push({
      cause: 'reserialized',
      title: `The body was re-serialized on the way: the same JSON, different bytes. The service signed it as ${r.form}.`,
      advice: 'Verify the raw bytes as they arrive, before any JSON parsing (e.g. express.raw() rather than express.json() on the webhook route), and let no proxy rewrite the body.',
      evidence: [
        `${nameOf(r.endpointId, ctx)}'s secret verifies the body written as ${r.form}.`,
        // Quoted as JSON strings, so a newline or a space that differs shows.
        `First difference at byte ${r.offset}: received ${JSON.stringify(r.received)}, signed ${JSON.stringify(r.signed)}.`,
      ],
    });
    return out;
  }
  if (out.length) return out;
  out.push(...secretMismatches(t, ctx));
  out.push({
    cause: 'changed-on-the-way',
    title: 'None of the secrets held here gives the signature received: the body, webhook-id or webhook-timestamp changed on the way, or another secret signed it.',
    advice: 'Compare the body\'s size and hash with what the sender sent; make sure nothing rewrites it (compression, charset conversion, re-serialization).',
    evidence: [
      `Received ${plural(t.received.length + (t.receivedMore ?? 0), 'signature')}: ${t.received.join(' ') || 'none'}.`,
      ...t.tried.map((x) => `${nameOf(x.endpointId, ctx, x.label)} (${x.hint}) expects ${x.expected}`),
      `Body as received: ${t.bodyBytes.toLocaleString('en')} bytes, SHA-256 ${t.bodySha256}…`,
      ...(t.reformsNotTried ? [`Not checked for a re-serialization: the body is over ${MAX_REFORMED_BODY / 1024} KiB, far larger than the service's events.`] : []),
    ],
  });
  return out;
}

function endpointsAimedHere(ctx: DoctorContext): EndpointInfo[] {
  if (!ctx.listenerUrl || !ctx.endpoints) return [];
  const here = ctx.listenerUrl.replace(/\/+$/, '');
  return ctx.endpoints.filter((e) => e.url?.replace(/\/+$/, '') === here);
}

/** A held secret that is not its endpoint's (by the service's hint), and endpoints aimed here whose secret is not held. */
function secretMismatches(t: VerifyTrace, ctx: DoctorContext): Diagnosis[] {
  const out: Diagnosis[] = [];
  const endpoints = ctx.endpoints ?? [];
  for (const tried of t.tried) {
    const own = endpoints.find((e) => e.id === tried.endpointId);
    if (!own?.signing_secret_hint || tail(own.signing_secret_hint) === tail(tried.hint)) continue;
    // Not `own`: its hint was just found to differ.
    const owner = endpoints.find((e) => e.signing_secret_hint && tail(e.signing_secret_hint) === tail(tried.hint));
    out.push(
      owner
        ? {
            cause: 'other-endpoint-secret',
            title: `The secret held for ${nameOf(tried.endpointId, ctx, tried.label)} is ${nameOf(owner.id, ctx)}'s: its hint matches the other endpoint's.`,
            advice:
              `Deliveries from ${nameOf(tried.endpointId, ctx, tried.label)} are signed with its own secret (hint ${own.signing_secret_hint}). ` +
              'Copy that secret into the app, or recreate the endpoint here so its secret is kept.',
            evidence: [
              `Held for ${tried.endpointId}: ${tried.hint}.`,
              `Service's hint for ${tried.endpointId}: ${own.signing_secret_hint}.`,
              `Service's hint for ${owner.id}: ${owner.signing_secret_hint}.`,
            ],
          }
        : {
            cause: 'stale-secret',
            title: `The secret held for ${nameOf(tried.endpointId, ctx, tried.label)} is not the one the service signs with now (the hints differ): it was replaced.`,
            advice: 'The service returns a secret only at creation: recreate the endpoint here (or rotate it) so the new secret is kept.',
            evidence: [`Held here: ${tried.hint}.`, `Service's hint: ${own.signing_secret_hint}.`],
          },
    );
  }
  const held = new Set(t.tried.map((x) => x.endpointId));
  for (const e of endpointsAimedHere(ctx)) {
    if (held.has(e.id)) continue;
    out.push({
      cause: 'unknown-endpoint',
      title: `${nameOf(e.id, ctx)} also delivers here, and its secret is not held here: its deliveries are rejected like this one.`,
      advice: 'Point only endpoints created here at the listener, or recreate that one here so its secret is kept.',
      evidence: [`${e.id} → ${e.url}, secret ${e.signing_secret_hint ?? '(no hint)'}.`],
    });
  }
  return out;
}

function appVerifier(t: VerifyTrace, status: number, ctx: DoctorContext): Diagnosis {
  const ok = t.tried.find((x) => x.matched);
  const who = ok ? `${nameOf(ok.endpointId, ctx, ok.label)}'s secret (${ok.hint})` : 'a secret held here';
  return {
    cause: 'app-verifier',
    title: `The app answered ${status} to a delivery the listener verified with ${who}: the app's own check is what failed.`,
    advice:
      `Most often the app verifies a parsed and re-serialized body instead of the raw bytes, or holds another secret${ok ? ` (its secret must end in ${tail(ok.hint)})` : ''}. ` +
      'Run "Check My Webhook Verifier" to test it with a correctly signed and a tampered delivery.',
    evidence: [`Listener: verified, timestamp ${t.skewSeconds ?? '?'} s old on arrival.`, `App: ${status}.`],
  };
}

function formatSeconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}
