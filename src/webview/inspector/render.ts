/**
 * Builders of the inspector page's parts, from the protocol's plain data. Everything in a delivery
 * or an answer comes from whoever sent it: it goes on the page as text (textContent), never HTML.
 */
import type { AnswerView, DeliveryView } from '../../webhooks/inspect/inspectorProtocol';
import { el, icon } from '../shared/page';

export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const time = (ms: number) => new Date(ms).toLocaleString();
export const VERDICT_ICON: Record<string, string> = { verified: 'pass', duplicate: 'copy', rejected: 'error', malformed: 'warning' };

export function fillKv(dl: HTMLElement, rows: Array<[string, string]>): void {
  dl.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', k), el('dd', v)]));
}

export function answerCard(a: AnswerView, index: number): HTMLElement {
  const card = el('article', undefined, `answer ${a.ok ? 'ok' : 'fail'}`);
  const heading = a.kind === 'forward' ? 'Forwarded on arrival' : `Replay ${index}${a.edited ? ' (edited body)' : ''}`;
  card.setAttribute('aria-label', `${heading}: ${a.status ?? 'no answer'}`);
  const h = el('h3', heading);
  if (a.at) h.append(el('span', ` · ${time(a.at)}`, 'muted'));
  const status = el('p', undefined, 'status');
  status.append(icon(a.ok ? 'pass' : 'error'), el('strong', a.status !== undefined ? String(a.status) : 'No answer'), el('span', ` · ${a.durationMs} ms`, 'muted'));
  const to = el('p', `POST ${a.url}${a.webhookId ? ` · webhook-id ${a.webhookId}` : ''}`, 'muted mono');
  card.append(h, status, to);
  if (a.error) card.append(el('p', a.error, 'error-text'));
  if (a.headers.length) {
    const d = el('details');
    d.append(el('summary', `Headers (${a.headers.length})`));
    const dl = el('dl', undefined, 'kv mono');
    fillKv(dl, a.headers.map((x) => [x.name, x.value]));
    d.append(dl);
    card.append(d);
  }
  if (a.body) {
    const pre = el('pre', pretty(a.body), 'mono');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `${heading}: body`);
    card.append(pre);
  } else if (a.status !== undefined) {
    card.append(el('p', 'Empty body.', 'muted'));
  }
  if (a.bodyNote) card.append(el('p', a.bodyNote, 'note'));
  return card;
}

/** The verdict's trace: how the timestamp, the headers and each held secret's signature compared. */
export function renderTrace(t: NonNullable<DeliveryView['trace']>, kv: HTMLElement, tried: HTMLElement): void {
  const s = t.skewSeconds;
  const within = s !== undefined && Math.abs(s) <= t.toleranceSeconds;
  const skew =
    s === undefined
      ? 'no usable webhook-timestamp'
      : `${Math.abs(s)} s ${s >= 0 ? 'old' : 'in the future'} on arrival (tolerance ±${t.toleranceSeconds} s): ${within ? 'within' : 'OUTSIDE'}`;
  fillKv(kv, [
    ['Timestamp', skew],
    ['Required headers', t.missingHeaders.length ? `missing: ${t.missingHeaders.join(', ')}` : 'all three present'],
    ['Signatures received', t.received.join(' ') || 'none'],
    ['Body as received', `${t.bodyBytes.toLocaleString('en')} bytes, SHA-256 ${t.bodySha256}…`],
  ]);
  const rows = t.tried.map((x) => {
    const tr = el('tr');
    const result = el('td', undefined, x.matched ? 'match' : 'nomatch');
    result.append(icon(x.matched ? 'pass' : 'close'), el('span', x.matched ? 'matches' : 'no match'));
    tr.append(el('td', `${x.endpoint} · ${x.hint}`), el('td', x.expected, 'mono'), result);
    return tr;
  });
  if (!rows.length) {
    const tr = el('tr');
    const td = el('td', 'No signing secret is held here.');
    td.colSpan = 3;
    tr.append(td);
    rows.push(tr);
  }
  tried.replaceChildren(...rows);
}

