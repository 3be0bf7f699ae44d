/** What the delivery inspector shows of a record: plain data for the protocol, built on the host side. */
import * as l10n from '@vscode/l10n';
import { diagnose, type DoctorContext } from './doctor';
import { maskedUrl } from '../send/forwardUrl';
import { explainForwardError } from '../send/forwardErrors';
import type { AnswerView, CallView, DeliveryView, HeaderView, SubjectView } from './inspectorProtocol';
import type { DeliveryRecord, ForwardResult } from '../store/records';
import { groupDigits } from '../../text/format';
import { parseSipParty } from './sipParty';

export interface DeliveryViewContext {
  doctor?: DoctorContext;
  /** Where replays go (the forward setting). */
  appUrl?: string;
}

const bytes = (n: number) => l10n.t('{0} bytes', groupDigits(n));
/** "Only the first 1,024 bytes[ of 9,000 bytes]" of something, as the notes below say it. */
const firstOf = (kept: number, of: number | undefined) =>
  of ? l10n.t('Only the first {0} of {1}', bytes(kept), bytes(of)) : l10n.t('Only the first {0}', bytes(kept));
const headerList = (h: Record<string, string> | undefined): HeaderView[] => Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

function answerView(f: ForwardResult): AnswerView {
  const ok = f.status !== undefined && f.status >= 200 && f.status <= 299;
  return {
    kind: f.kind ?? 'forward',
    edited: !!f.edited,
    ...(f.fixture ? { fixture: true } : {}),
    url: f.url,
    ...(f.route ? { route: f.route } : {}),
    ...(f.at !== undefined ? { at: f.at } : {}),
    ...(f.webhookId ? { webhookId: f.webhookId } : {}),
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.error ? { error: explainForwardError(f.error) } : {}),
    ok,
    durationMs: f.durationMs,
    headers: headerList(f.headers),
    body: f.body ?? '',
    ...(f.bodyTruncated ? { bodyNote: l10n.t('{0} of the answer are kept.', firstOf(Buffer.byteLength(f.body ?? ''), f.bodyBytes)) } : {}),
  };
}

/** The response a response.* event names (its data.id). */
export function responseIdOf(r: DeliveryRecord): string | undefined {
  if (!r.eventType?.startsWith('response.') || r.verdict === 'rejected') return undefined;
  let id: unknown;
  try {
    id = (JSON.parse(r.body) as { data?: { id?: unknown } } | null)?.data?.id;
  } catch {
    // Not JSON: it names no response.
  }
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether the record's event may be of a type starting with `prefix`: the listener records the
 * body's `type` as `eventType`, so a record with one needs no parse to tell; one without (not
 * recorded by the listener, or a body without a type) may still say so in its body.
 */
function about(r: DeliveryRecord, prefix: string): boolean {
  return r.eventType === undefined || r.eventType.startsWith(prefix);
}

function parsedEvent(r: DeliveryRecord): { type?: unknown; data?: Record<string, unknown> } | undefined {
  try {
    const body = JSON.parse(r.body) as unknown;
    return body && typeof body === 'object' ? (body as { type?: unknown; data?: Record<string, unknown> }) : undefined;
  } catch {
    return undefined;
  }
}

/** How many SIP headers, and how much of each, the page shows (the caller chooses them). */
const MAX_SIP_HEADERS = 100;
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A call event's call and SIP headers, in the order sent; actions only on a verified delivery. */
export function callOf(r: DeliveryRecord): CallView | undefined {
  // The recorded type is the body's (see `about`): most deliveries need no parse to tell.
  if (!about(r, 'realtime.call.incoming')) return undefined;
  const event = parsedEvent(r);
  const data = event?.data;
  if (event?.type !== 'realtime.call.incoming' || !data || typeof data.call_id !== 'string' || !data.call_id) return undefined;
  const raw = Array.isArray(data.sip_headers) ? (data.sip_headers as unknown[]) : [];
  const headers = raw
    .filter((h): h is { name: string; value: unknown } => !!h && typeof h === 'object' && typeof (h as { name?: unknown }).name === 'string')
    .slice(0, MAX_SIP_HEADERS)
    .map((h) => ({ name: cut(h.name, 200), value: cut(typeof h.value === 'string' ? h.value : JSON.stringify(h.value) ?? '', 2000) }));
  const party = (name: string) => parseSipParty(headers.find((h) => h.name.toLowerCase() === name)?.value);
  const [from, to] = [party('from'), party('to')];
  return { callId: cut(data.call_id, 200), headers, ...(from ? { from } : {}), ...(to ? { to } : {}), actionable: r.verdict === 'verified' };
}

/** The batch or fine-tuning job a verified batch.* or fine_tuning.job.* delivery is about. */
export function subjectOf(r: DeliveryRecord): SubjectView | undefined {
  if (r.verdict !== 'verified' || !(about(r, 'batch.') || about(r, 'fine_tuning.job.'))) return undefined;
  const event = parsedEvent(r);
  const id = event?.data?.id;
  if (typeof event?.type !== 'string' || typeof id !== 'string' || !id || id.length > 200) return undefined;
  if (event.type.startsWith('batch.')) return { kind: 'batch', id };
  if (event.type.startsWith('fine_tuning.job.')) return { kind: 'fineTuningJob', id };
  return undefined;
}

function notReplayable(r: DeliveryRecord): string | undefined {
  if (r.verdict === 'rejected') return l10n.t('An unverified delivery is never re-signed (that would forge a valid one), and only its first bytes are kept.');
  if (r.verdict === 'malformed') return l10n.t('The body is not JSON: nothing to replay.');
  if (r.bodyTruncated) return l10n.t('{0} were stored: it cannot be re-signed whole.', firstOf(Buffer.byteLength(r.body), r.bodyBytes ?? 0));
  if (!r.endpointId) return l10n.t('The endpoint that signed it is not known, so there is no secret to re-sign with.');
  return undefined;
}

export function deliveryView(r: DeliveryRecord, ctx: DeliveryViewContext = {}): DeliveryView {
  const why = notReplayable(r);
  const t = r.trace;
  const endpointName = (id: string, label?: string) => {
    const name = label ?? ctx.doctor?.endpoints?.find((e) => e.id === id)?.name;
    return name ? `${name} (${id})` : id;
  };
  const bodyNote =
    r.verdict === 'rejected'
      ? r.bodyBytes
        ? l10n.t('Unverified: only the first {0} of {1} are kept (anyone can send to a public URL).', bytes(Buffer.byteLength(r.body)), bytes(r.bodyBytes))
        : l10n.t('Unverified: only the first {0} are kept (anyone can send to a public URL).', bytes(Buffer.byteLength(r.body)))
      : r.bodyTruncated
        ? l10n.t('{0} are stored (the app was sent all of it).', firstOf(Buffer.byteLength(r.body), r.bodyBytes ?? 0))
        : undefined;
  const responseId = responseIdOf(r);
  const call = callOf(r);
  const subject = subjectOf(r);
  return {
    id: r.id,
    title: r.eventType ?? (r.verdict === 'rejected' ? l10n.t('Rejected delivery') : l10n.t('Delivery')),
    verdict: r.verdict,
    ...(r.reason ? { reason: r.reason } : {}),
    status: r.status,
    receivedAt: r.receivedAt,
    method: 'POST',
    path: r.path ?? '/',
    headers: headerList(r.headers),
    body: r.body,
    ...(bodyNote ? { bodyNote } : {}),
    replayable: !why,
    ...(why ? { notReplayable: why } : {}),
    ...(ctx.appUrl ? { appUrl: maskedUrl(ctx.appUrl) } : {}),
    ...(responseId ? { responseId } : {}),
    ...(call ? { call } : {}),
    ...(subject ? { subject } : {}),
    ...(t
      ? {
          trace: {
            toleranceSeconds: t.toleranceSeconds,
            ...(t.skewSeconds !== undefined ? { skewSeconds: t.skewSeconds } : {}),
            missingHeaders: t.missingHeaders,
            received: t.receivedMore ? [...t.received, l10n.t('(+{0} more)', t.receivedMore)] : t.received,
            tried: t.tried.map((x) => ({ endpoint: endpointName(x.endpointId, x.label), hint: x.hint, expected: x.expected, matched: x.matched })),
            bodyBytes: t.bodyBytes,
            bodySha256: t.bodySha256,
          },
        }
      : {}),
    diagnoses: diagnose(r, ctx.doctor),
    answers: [...(r.forward ? [r.forward] : []), ...(r.replays ?? [])].map(answerView),
  };
}
