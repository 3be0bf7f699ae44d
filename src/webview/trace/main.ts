/**
 * The trace timeline page: each span a row with a bar placed on the trace's time line, its
 * duration, and its attributes on demand; errors said in words and marked. It talks to the
 * extension only through the typed protocol. Span names and attribute values come from the
 * service and the user (deployment names, tool names, captured text): put on the page as text.
 */
import '../shared/useBundle';
import * as l10n from '@vscode/l10n';
import type { Trace, TraceSpan } from '../../trace/types';
import { $, connect, el, icon } from '../shared/page';
import { parseTraceHostMessage, type TraceHostMessage, type TraceViewMessage } from './protocol';

const vscode = connect<TraceViewMessage, TraceHostMessage>(parseTraceHostMessage, (msg) => handle(msg));
const list = $<HTMLOListElement>('spans');
const statusEl = $<HTMLDivElement>('status');

const ms = (n: number) => l10n.t('{0} ms', n < 10 ? n.toFixed(1) : String(Math.round(n)));

function handle(msg: TraceHostMessage): void {
  if (msg.type === 'error') {
    statusEl.textContent = msg.text;
    statusEl.className = 'error';
    return;
  }
  render(msg.trace);
}

function attributeList(span: TraceSpan, id: string): HTMLDListElement {
  const dl = el('dl', undefined, 'attributes');
  dl.id = id;
  dl.hidden = true;
  for (const [key, value] of Object.entries(span.attributes)) {
    dl.append(el('dt', key), el('dd', Array.isArray(value) ? value.join(', ') : String(value)));
  }
  return dl;
}

function row(trace: Trace, span: TraceSpan, index: number, depth: number): HTMLLIElement {
  const total = Math.max(trace.end - trace.start, 1);
  const li = el('li', undefined, span.error !== undefined ? 'span error' : 'span');
  const button = el('button', undefined, 'span-row');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  const detailsId = `attributes-${index}`;
  button.setAttribute('aria-controls', detailsId);
  const offset = span.start - trace.start;
  const label = el('span', undefined, 'label');
  label.style.paddingInlineStart = `${depth * 12}px`;
  if (span.error !== undefined) label.append(icon('error'));
  label.append(el('span', span.name, 'name'));
  const figures = el('span', `${ms(span.end - span.start)} · +${ms(offset)}`, 'figures');
  const track = el('span', undefined, 'track');
  track.setAttribute('aria-hidden', 'true');
  const bar = el('span', undefined, 'bar');
  bar.style.left = `${(offset / total) * 100}%`;
  bar.style.width = `max(2px, ${((span.end - span.start) / total) * 100}%)`;
  track.append(bar);
  button.append(label, figures, track);
  li.append(button);
  if (span.error !== undefined) li.append(el('p', l10n.t('Error: {0}', span.error), 'error-text'));
  li.append(attributeList(span, detailsId));
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    (li.querySelector('dl') as HTMLElement).hidden = !open;
  });
  return li;
}

function render(trace: Trace): void {
  const depths = new Map<string, number>();
  const rows = trace.spans.map((s, i) => {
    const depth = s.parentSpanId !== undefined ? (depths.get(s.parentSpanId) ?? 0) + 1 : 0;
    depths.set(s.spanId, depth);
    return row(trace, s, i, depth);
  });
  list.replaceChildren(...rows);
  $('title').textContent = trace.spans[0].name;
  const errors = trace.spans.filter((s) => s.error !== undefined).length;
  $('summary').textContent = l10n.t('{0} spans over {1}, {2} with errors', trace.spans.length, ms(trace.end - trace.start), errors);
  statusEl.textContent = '';
  document.body.dataset.ready = 'true';
}

// Up and Down move between span rows, Home and End to the ends (one list, one tab stop each row).
list.addEventListener('keydown', (e) => {
  const rows = [...list.querySelectorAll<HTMLButtonElement>('.span-row')];
  const at = rows.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
  if (to === undefined || to < 0 || to >= rows.length) return;
  e.preventDefault();
  rows[to].focus();
});

vscode.post({ type: 'ready' });
