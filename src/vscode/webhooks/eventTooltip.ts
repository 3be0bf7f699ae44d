/**
 * The Markdown of an event's tooltip. Every field but the verdict and the time comes from whoever
 * sent the delivery, so each is escaped to plain text: no link, image, HTML or code span of theirs
 * is rendered. No `vscode` import: a plain Node test renders it.
 */
import type { DeliveryRecord } from '../../webhooks/records';

/** `text` as literal Markdown text: every ASCII punctuation mark escaped, line breaks as spaces. */
export function escapeMarkdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
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
    r.replays?.length ? `Replayed to the app ${r.replays.length} time(s), last answer: ${t(r.replays.at(-1)!.status ?? r.replays.at(-1)!.error)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
