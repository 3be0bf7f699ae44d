/**
 * The Markdown of an event's tooltip. Every field but the verdict and the time comes from whoever
 * sent the delivery, so each is escaped to plain text: no link, image, HTML or code span of theirs
 * is rendered. No `vscode` import: a plain Node test renders it.
 */
import * as l10n from '@vscode/l10n';
import type { DeliveryRecord, Verdict } from '../../webhooks/store/records';
import { groupDigits } from '../../text/format';

export const VERDICTS: readonly Verdict[] = ['verified', 'duplicate', 'rejected', 'malformed'];

/** A verdict as the user reads it, in their language. */
export function verdictName(v: Verdict): string {
  const names: Record<Verdict, string> = {
    verified: l10n.t({ message: 'verified', comment: 'a webhook delivery whose signature checked out' }),
    duplicate: l10n.t({ message: 'duplicate', comment: 'a webhook delivery that arrived again' }),
    rejected: l10n.t({ message: 'rejected', comment: 'a webhook delivery that failed verification' }),
    malformed: l10n.t({ message: 'malformed', comment: 'a signed webhook delivery whose body is not valid JSON' }),
  };
  return names[v];
}

/** `text` as literal Markdown text: every ASCII punctuation mark escaped, line breaks as spaces. */
export function escapeMarkdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** What an event's row says: what arrived, then its verdict, duplicates and the app's answer (`answer`), then `time`. */
export function eventRowText(r: DeliveryRecord, answer: string | undefined, time: string): { label: string; description: string } {
  const n = groupDigits;
  const verdict = verdictName(r.verdict);
  if (r.count) {
    const of = r.webhookId ?? l10n.t('a delivery no longer stored');
    const label =
      r.verdict === 'duplicate'
        ? r.count === 1
          ? l10n.t('{0} duplicate delivery of {1}', n(r.count), of)
          : l10n.t('{0} duplicate deliveries of {1}', n(r.count), of)
        : (r.summary ?? l10n.t('{0} rejected deliveries', n(r.count)));
    return { label, description: `${verdict} · ${time}` };
  }
  const again = !r.duplicates
    ? ''
    : r.duplicates.count === 1
      ? ` ${l10n.t('(+{0} duplicate)', n(r.duplicates.count))}`
      : ` ${l10n.t('(+{0} duplicates)', n(r.duplicates.count))}`;
  return {
    label: r.eventType ?? (r.verdict === 'rejected' ? l10n.t('Rejected delivery') : l10n.t('Delivery')),
    // The verdict first, right after the type: a narrow sidebar cuts the time, not the verdict.
    description: `${verdict}${again}${answer ? ` → ${answer}` : ''} · ${time}`,
  };
}

export function eventTooltipMarkdown(r: DeliveryRecord, time: (ms: number) => string): string {
  const t = (v: string | number | undefined) => escapeMarkdownText(String(v ?? '-'));
  const fwd = r.forward;
  return [
    `**${t(r.eventType ?? l10n.t('Delivery'))}** — ${verdictName(r.verdict)}`,
    r.reason ? `_${t(r.reason)}_` : '',
    l10n.t('Received: {0}', t(time(r.receivedAt))),
    l10n.t('Event id: {0}', t(r.eventId)),
    `webhook-id: ${t(r.webhookId)}`,
    r.endpointId ? l10n.t('Endpoint: {0}', t(r.endpointId)) : '',
    fwd ? l10n.t('Forwarded to {0}: {1} in {2} ms', t(fwd.url), t(fwd.status ?? fwd.error), t(fwd.durationMs)) : '',
    r.duplicates
      ? l10n.t('Arrived again {0} time(s), the latest at {1}: acknowledged, not processed again.', t(r.duplicates.count), t(time(r.duplicates.lastAt)))
      : '',
    r.replays?.length ? l10n.t('Replayed to the app {0} time(s), last answer: {1}', r.replays.length, t(r.replays.at(-1)!.status ?? r.replays.at(-1)!.error)) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
