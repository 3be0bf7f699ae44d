/** What the delivery inspector shows of a record: plain data for the protocol, built on the host side. */
import { diagnose, type DoctorContext } from './doctor';
import { maskedUrl } from '../send/forwardUrl';
import { explainForwardError } from '../send/forwardErrors';
import type { AnswerView, DeliveryView, HeaderView } from './inspectorProtocol';
import type { DeliveryRecord, ForwardResult } from '../store/records';

export interface DeliveryViewContext {
  doctor?: DoctorContext;
  /** Where replays go (the forward setting). */
  appUrl?: string;
}

const bytes = (n: number) => `${n.toLocaleString('en')} bytes`;
const headerList = (h: Record<string, string> | undefined): HeaderView[] => Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

function answerView(f: ForwardResult): AnswerView {
  const ok = f.status !== undefined && f.status >= 200 && f.status <= 299;
  return {
    kind: f.kind ?? 'forward',
    edited: !!f.edited,
    url: f.url,
    ...(f.at !== undefined ? { at: f.at } : {}),
    ...(f.webhookId ? { webhookId: f.webhookId } : {}),
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.error ? { error: explainForwardError(f.error) } : {}),
    ok,
    durationMs: f.durationMs,
    headers: headerList(f.headers),
    body: f.body ?? '',
    ...(f.bodyTruncated
      ? { bodyNote: `Only the first ${bytes(Buffer.byteLength(f.body ?? ''))}${f.bodyBytes ? ` of ${bytes(f.bodyBytes)}` : ''} of the answer are kept.` }
      : {}),
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

function notReplayable(r: DeliveryRecord): string | undefined {
  if (r.verdict === 'rejected') return 'An unverified delivery is never re-signed (that would forge a valid one), and only its first bytes are kept.';
  if (r.verdict === 'malformed') return 'The body is not JSON: nothing to replay.';
  if (r.bodyTruncated) return `Only the first ${bytes(Buffer.byteLength(r.body))} of ${bytes(r.bodyBytes ?? 0)} were stored: it cannot be re-signed whole.`;
  if (!r.endpointId) return "The endpoint that signed it is not known, so there is no secret to re-sign with.";
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
      ? `Unverified: only the first ${bytes(Buffer.byteLength(r.body))}${r.bodyBytes ? ` of ${bytes(r.bodyBytes)}` : ''} are kept (anyone can send to a public URL).`
      : r.bodyTruncated
        ? `Only the first ${bytes(Buffer.byteLength(r.body))} of ${bytes(r.bodyBytes ?? 0)} are stored (the app was sent all of it).`
        : undefined;
  const responseId = responseIdOf(r);
  return {
    id: r.id,
    title: r.eventType ?? (r.verdict === 'rejected' ? 'Rejected delivery' : 'Delivery'),
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
    ...(t
      ? {
          trace: {
            toleranceSeconds: t.toleranceSeconds,
            ...(t.skewSeconds !== undefined ? { skewSeconds: t.skewSeconds } : {}),
            missingHeaders: t.missingHeaders,
            received: t.receivedMore ? [...t.received, `(+${t.receivedMore} more)`] : t.received,
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
