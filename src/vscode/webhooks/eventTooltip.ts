/**
 * The Markdown of an event's tooltip. Every field but the verdict and the time comes from whoever
 * sent the delivery, so each is escaped to plain text: no link, image, HTML or code span of theirs
 * is rendered. No `vscode` import: a plain Node test renders it.
 */
import type { DeliveryRecord } from '../../webhooks/store/records';

/** `text` as literal Markdown text: every ASCII punctuation mark escaped, line breaks as spaces. */
export function escapeMarkdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** What an event's row says: what arrived, then its verdict, duplicates and the app's answer (`answer`), then `time`. */
export function eventRowText(r: DeliveryRecord, answer: string | undefined, time: string): { label: string; description: string } {
  const n = (v: number) => v.toLocaleString('en');
  if (r.count) {
    const label =
      r.verdict === 'duplicate'
        ? `${n(r.count)} duplicate ${r.count === 1 ? 'delivery' : 'deliveries'} of ${r.webhookId ?? 'a delivery no longer stored'}`
        : (r.summary ?? `${n(r.count)} rejected deliveries`);
    return { label, description: `${r.verdict} · ${time}` };
  }
  const again = r.duplicates ? ` (+${n(r.duplicates.count)} duplicate${r.duplicates.count === 1 ? '' : 's'})` : '';
  return {
    label: r.eventType ?? (r.verdict === 'rejected' ? 'Rejected delivery' : 'Delivery'),
    // The verdict first, right after the type: a narrow sidebar cuts the time, not the verdict.
    description: `${r.verdict}${again}${answer ? ` → ${answer}` : ''} · ${time}`,
  };
}

export function eventTooltipMarkdown(r: DeliveryRecord, time: (ms: number) => string): string {
  const t = (v: string | number | undefined) => escapeMarkdownText(String(v ?? '-'));
  const fwd = r.forward;
  return [
    `**${t(r.eventType ?? 'Delivery')}** — ${r.verdict}`,
    r.reason ? `_${t(r.reason)}_` : '',
    `Received: ${t(time(r.receivedAt))}`,
    `Event id: ${t(r.eventId)}`,
    `webhook-id: ${t(r.webhookId)}`,
    r.endpointId ? `Endpoint: ${t(r.endpointId)}` : '',
    fwd ? `Forwarded to ${t(fwd.url)}: ${t(fwd.status ?? fwd.error)} in ${t(fwd.durationMs)} ms` : '',
    r.duplicates ? `Arrived again ${t(r.duplicates.count)} time(s), the latest at ${t(time(r.duplicates.lastAt))}: acknowledged, not processed again.` : '',
    r.replays?.length ? `Replayed to the app ${r.replays.length} time(s), last answer: ${t(r.replays.at(-1)!.status ?? r.replays.at(-1)!.error)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
