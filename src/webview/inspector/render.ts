/**
 * Builders of the inspector page's parts, from the protocol's plain data. Everything in a delivery
 * or an answer comes from whoever sent it: it goes on the page as text (textContent), never HTML.
 */
import * as l10n from '@vscode/l10n';
import type { AnswerView, DeliveryView } from '../../webhooks/inspect/inspectorProtocol';
import { el, fillKv, icon } from '../shared/page';

export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const time = (ms: number) => new Date(ms).toLocaleString();
export const VERDICT_ICON: Record<string, string> = { verified: 'pass', duplicate: 'copy', rejected: 'error', malformed: 'warning' };

/** A verdict as the badge says it (one the page does not know is shown as it came). */
export function verdictLabel(verdict: string): string {
  const labels: Record<string, string> = { verified: l10n.t('verified'), duplicate: l10n.t('duplicate'), rejected: l10n.t('rejected'), malformed: l10n.t('malformed') };
  return labels[verdict] ?? verdict;
}

export function answerCard(a: AnswerView, index: number): HTMLElement {
  const card = el('article', undefined, `answer ${a.ok ? 'ok' : 'fail'}`);
  const heading =
    a.kind === 'forward'
      ? l10n.t('Forwarded on arrival')
      : a.fixture
        ? l10n.t('Replay {0} (from a fixture file)', index)
        : a.edited
          ? l10n.t('Replay {0} (edited body)', index)
          : l10n.t('Replay {0}', index);
  card.setAttribute('aria-label', `${heading}: ${a.status ?? l10n.t('no answer')}`);
  const h = el('h3', heading);
  if (a.at) h.append(el('span', ` · ${time(a.at)}`, 'muted'));
  const status = el('p', undefined, 'status');
  status.append(icon(a.ok ? 'pass' : 'error'), el('strong', a.status !== undefined ? String(a.status) : l10n.t('No answer')), el('span', ` · ${l10n.t('{0} ms', a.durationMs)}`, 'muted'));
  const route = a.route ? ` · ${l10n.t('route {0}', a.route)}` : '';
  const to = el('p', `POST ${a.url}${route}${a.webhookId ? ` · webhook-id ${a.webhookId}` : ''}`, 'muted mono');
  card.append(h, status, to);
  if (a.error) card.append(el('p', a.error, 'error-text'));
  if (a.headers.length) {
    const d = el('details');
    d.append(el('summary', l10n.t('Headers ({0})', a.headers.length)));
    const dl = el('dl', undefined, 'kv mono');
    fillKv(dl, a.headers.map((x) => [x.name, x.value]));
    d.append(dl);
    card.append(d);
  }
  if (a.body) {
    const pre = el('pre', pretty(a.body), 'mono');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', l10n.t('{0}: body', heading));
    card.append(pre);
  } else if (a.status !== undefined) {
    card.append(el('p', l10n.t('Empty body.'), 'muted'));
  }
  if (a.bodyNote) card.append(el('p', a.bodyNote, 'note'));
  return card;
}

/** How old the timestamp was on arrival against the tolerance (each case one sentence, for translators). */
function skewText(s: number, tolerance: number, within: boolean): string {
  const verdict = within
    ? l10n.t({ message: 'within', comment: ['The timestamp is within the tolerance'] })
    : l10n.t({ message: 'OUTSIDE', comment: ['The timestamp is outside the tolerance (capitals: it is why the delivery was rejected)'] });
  return s >= 0
    ? l10n.t('{0} s old on arrival (tolerance ±{1} s): {2}', Math.abs(s), tolerance, verdict)
    : l10n.t('{0} s in the future on arrival (tolerance ±{1} s): {2}', Math.abs(s), tolerance, verdict);
}

/** The verdict's trace: how the timestamp, the headers and each held secret's signature compared. */
export function renderTrace(t: NonNullable<DeliveryView['trace']>, kv: HTMLElement, tried: HTMLElement): void {
  const s = t.skewSeconds;
  const within = s !== undefined && Math.abs(s) <= t.toleranceSeconds;
  fillKv(kv, [
    [l10n.t('Timestamp'), s === undefined ? l10n.t('no usable webhook-timestamp') : skewText(s, t.toleranceSeconds, within)],
    [l10n.t('Required headers'), t.missingHeaders.length ? l10n.t('missing: {0}', t.missingHeaders.join(', ')) : l10n.t('all three present')],
    [l10n.t('Signatures received'), t.received.join(' ') || l10n.t('none')],
    [l10n.t('Body as received'), l10n.t('{0} bytes, SHA-256 {1}…', t.bodyBytes.toLocaleString('en'), t.bodySha256)],
  ]);
  const rows = t.tried.map((x) => {
    const tr = el('tr');
    const result = el('td', undefined, x.matched ? 'match' : 'nomatch');
    result.append(icon(x.matched ? 'pass' : 'close'), el('span', x.matched ? l10n.t('matches') : l10n.t('no match')));
    tr.append(el('td', `${x.endpoint} · ${x.hint}`), el('td', x.expected, 'mono'), result);
    return tr;
  });
  if (!rows.length) {
    const tr = el('tr');
    tr.append(Object.assign(el('td', l10n.t('No signing secret is held here.')), { colSpan: 3 }));
    rows.push(tr);
  }
  tried.replaceChildren(...rows);
}

