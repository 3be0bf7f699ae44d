/**
 * The signature doctor: from the evidence a delivery's record keeps (its trace, the app's answer)
 * and what is known of the connection's endpoints (names, URLs, the service's secret hints), the
 * likely reasons a signature check failed, most likely first, each with the evidence for it.
 * Never a secret: endpoints are named by name and hint.
 */
import * as l10n from '@vscode/l10n';
import type { DeliveryRecord } from '../store/records';
import { MAX_REFORMED_BODY, type VerifyTrace } from './trace';
import { groupDigits } from '../../text/format';

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
        title: l10n.t('Not a Standard Webhooks delivery: none of webhook-id, webhook-timestamp and webhook-signature arrived.'),
        advice: l10n.t(
          'If the service sent it, something in front of the listener strips webhook-* headers. Otherwise it came from someone else (a scanner, a health check) and can be ignored.',
        ),
        evidence: [l10n.t('Missing: {0}.', 'webhook-id, webhook-timestamp, webhook-signature')],
      },
    ];
  }
  if (t.missingHeaders.length) {
    const present = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((h) => !t.missingHeaders.includes(h));
    out.push({
      cause: 'header-dropped',
      title: l10n.t('{0} did not arrive, though {1} did: a proxy or gateway dropped it.', both(t.missingHeaders), both(present)),
      advice: l10n.t('Let every webhook-* header through the proxy, tunnel or API gateway in front of the app (some drop headers they do not know, or ones over a size).'),
      evidence: [l10n.t('Missing: {0}.', t.missingHeaders.join(', ')), l10n.t('Present: {0}.', present.join(', '))],
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
        ? l10n.t('The timestamp is {0} old: a delivery sent again long after it was signed (a saved curl command, a queue that held it).', formatSeconds(s))
        : past
          ? l10n.t("The timestamp is {0} in the past: a clock is off, this machine's or the sender's.", formatSeconds(s))
          : l10n.t("The timestamp is {0} in the future: a clock is off, this machine's or the sender's.", formatSeconds(s)),
      advice: old
        ? l10n.t('Re-sign it before sending it again (Replay, or Copy as curl for a fresh command): a signature is good for the tolerance only.')
        : l10n.t('Sync this machine\'s clock (NTP), or raise "{0}" in your user settings (up to 3600) while testing.', 'aoaiWorkbench.webhooks.toleranceSeconds'),
      evidence: [l10n.t('Arrival − webhook-timestamp = {0} s; tolerance ±{1} s.', t.skewSeconds, t.toleranceSeconds)],
    });
  }
  if (!t.tried.length) {
    out.push({
      cause: 'no-secret',
      title: l10n.t('No signing secret is held here for this connection, so no delivery can be verified.'),
      advice: l10n.t('The service shows a secret only when an endpoint is created: create one from here (Start Listening offers it) so its secret is kept.'),
      evidence: endpointsAimedHere(ctx).map((e) =>
        l10n.t('{0} points here; its secret ({1}) is not held here.', nameOf(e.id, ctx), e.signing_secret_hint ?? l10n.t('no hint')),
      ),
    });
    return out;
  }
  if (t.reserialized) {
    const r = t.reserialized;
    out.push({
      cause: 'reserialized',
      title: l10n.t('The body was re-serialized on the way: the same JSON, different bytes. The service signed it as {0}.', r.form),
      advice: l10n.t(
        'Verify the raw bytes as they arrive, before any JSON parsing (e.g. express.raw() rather than express.json() on the webhook route), and let no proxy rewrite the body.',
      ),
      evidence: [
        l10n.t("{0}'s secret verifies the body written as {1}.", nameOf(r.endpointId, ctx), r.form),
        // Quoted as JSON strings, so a newline or a space that differs shows.
        l10n.t('First difference at byte {0}: received {1}, signed {2}.', r.offset, JSON.stringify(r.received), JSON.stringify(r.signed)),
      ],
    });
    return out;
  }
  if (out.length) return out;
  out.push(...secretMismatches(t, ctx));
  out.push({
    cause: 'changed-on-the-way',
    title: l10n.t('None of the secrets held here gives the signature received: the body, webhook-id or webhook-timestamp changed on the way, or another secret signed it.'),
    advice: l10n.t("Compare the body's size and hash with what the sender sent; make sure nothing rewrites it (compression, charset conversion, re-serialization)."),
    evidence: [
      received(t.received.length + (t.receivedMore ?? 0), t.received.join(' ') || l10n.t('none')),
      ...t.tried.map((x) => l10n.t('{0} ({1}) expects {2}', nameOf(x.endpointId, ctx, x.label), x.hint, x.expected)),
      l10n.t('Body as received: {0} bytes, SHA-256 {1}…', groupDigits(t.bodyBytes), t.bodySha256),
      ...(t.reformsNotTried
        ? [l10n.t("Not checked for a re-serialization: the body is over {0} KiB, far larger than the service's events.", MAX_REFORMED_BODY / 1024)]
        : []),
    ],
  });
  return out;
}

/** "a and b", "a and b and c": the header names the title lists. */
const both = (names: string[]) => names.reduce((a, b) => l10n.t('{0} and {1}', a, b));
const received = (n: number, list: string) =>
  n === 1 ? l10n.t('Received {0} signature: {1}.', n, list) : l10n.t('Received {0} signatures: {1}.', n, list);

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
            title: l10n.t("The secret held for {0} is {1}'s: its hint matches the other endpoint's.", nameOf(tried.endpointId, ctx, tried.label), nameOf(owner.id, ctx)),
            advice: [
              l10n.t('Deliveries from {0} are signed with its own secret (hint {1}).', nameOf(tried.endpointId, ctx, tried.label), own.signing_secret_hint),
              l10n.t('Copy that secret into the app, or recreate the endpoint here so its secret is kept.'),
            ].join(' '),
            evidence: [
              l10n.t('Held for {0}: {1}.', tried.endpointId, tried.hint),
              l10n.t("Service's hint for {0}: {1}.", tried.endpointId, own.signing_secret_hint),
              l10n.t("Service's hint for {0}: {1}.", owner.id, String(owner.signing_secret_hint)),
            ],
          }
        : {
            cause: 'stale-secret',
            title: l10n.t(
              'The secret held for {0} is not the one the service signs with now (the hints differ): it was replaced.',
              nameOf(tried.endpointId, ctx, tried.label),
            ),
            advice: l10n.t('The service returns a secret only at creation: recreate the endpoint here (or rotate it) so the new secret is kept.'),
            evidence: [l10n.t('Held here: {0}.', tried.hint), l10n.t("Service's hint: {0}.", own.signing_secret_hint)],
          },
    );
  }
  const held = new Set(t.tried.map((x) => x.endpointId));
  for (const e of endpointsAimedHere(ctx)) {
    if (held.has(e.id)) continue;
    out.push({
      cause: 'unknown-endpoint',
      title: l10n.t('{0} also delivers here, and its secret is not held here: its deliveries are rejected like this one.', nameOf(e.id, ctx)),
      advice: l10n.t('Point only endpoints created here at the listener, or recreate that one here so its secret is kept.'),
      evidence: [l10n.t('{0} → {1}, secret {2}.', e.id, String(e.url), e.signing_secret_hint ?? l10n.t('(no hint)'))],
    });
  }
  return out;
}

function appVerifier(t: VerifyTrace, status: number, ctx: DoctorContext): Diagnosis {
  const ok = t.tried.find((x) => x.matched);
  const who = ok ? l10n.t("{0}'s secret ({1})", nameOf(ok.endpointId, ctx, ok.label), ok.hint) : l10n.t('a secret held here');
  return {
    cause: 'app-verifier',
    title: l10n.t("The app answered {0} to a delivery the listener verified with {1}: the app's own check is what failed.", status, who),
    advice: [
      ok
        ? l10n.t('Most often the app verifies a parsed and re-serialized body instead of the raw bytes, or holds another secret (its secret must end in {0}).', tail(ok.hint))
        : l10n.t('Most often the app verifies a parsed and re-serialized body instead of the raw bytes, or holds another secret.'),
      l10n.t('Run "Check My Webhook Verifier" to test it with a correctly signed and a tampered delivery.'),
    ].join(' '),
    evidence: [l10n.t('Listener: verified, timestamp {0} s old on arrival.', t.skewSeconds ?? '?'), l10n.t('App: {0}.', status)],
  };
}

function formatSeconds(s: number): string {
  if (s < 120) return l10n.t('{0} s', s);
  if (s < 7200) return l10n.t('{0} min', Math.round(s / 60));
  if (s < 172_800) return l10n.t('{0} h', Math.round(s / 3600));
  return l10n.t('{0} days', Math.round(s / 86_400));
}
