/**
 * The compare page: one prompt box, then one column per deployment, side by side (stacked at
 * narrow widths). A reply streams in as text and is drawn with the chat's Markdown renderer (no
 * raw HTML, safe links only) once its column ends; figures, failures and a 429's countdown are text.
 */
import * as l10n from '@vscode/l10n';
import type { ColumnResult } from '../../chat/compare/figures';
import { costStat, costText, endText, ms, perSecond, statText, tokensText } from '../../chat/compare/figures';
import type { ColumnSummary } from '../../chat/compare/figures';
import { createRenderer } from '../chat/markdown';
import { isSafeLink } from '../chat/protocol';
import { $, connect, el, icon } from '../shared/page';
import { parseCompareHostMessage, type ColumnHead, type CompareHostMessage, type CompareSettings, type CompareViewMessage } from './protocol';

const vscode = connect<CompareViewMessage, CompareHostMessage>(parseCompareHostMessage, (msg) => handle(msg));
const renderer = createRenderer();

interface ColumnView {
  head: ColumnHead;
  root: HTMLElement;
  figures: HTMLElement;
  median: HTMLElement;
  error: HTMLElement;
  /** A 429's countdown: apart from the alert, so it is not announced every second. */
  wait: HTMLElement;
  reply: HTMLElement;
  cont: HTMLButtonElement;
  /** Show Trace: shown once the column's request was traced. */
  trace: HTMLButtonElement;
  text: string;
  retryAt?: number;
}

const columns = new Map<string, ColumnView>();
let busy = false;
let answered = false;
let countdown: ReturnType<typeof setInterval> | undefined;

function figure(dl: HTMLElement, name: string, value: string): void {
  dl.append(el('dt', name), el('dd', value));
}

/** A column's button (its icon made where it is named, so the codicon subset finds it): its icon and words, what a screen reader hears (the column named), what it posts. */
function columnButton(glyph: HTMLElement, text: string, label: string, message: CompareViewMessage): HTMLButtonElement {
  const b = el('button', undefined, 'secondary');
  b.type = 'button';
  b.append(glyph, text);
  b.setAttribute('aria-label', label);
  b.addEventListener('click', () => vscode.post(message));
  return b;
}

function buildColumn(head: ColumnHead): ColumnView {
  const root = el('section', undefined, 'column');
  const title = el('h2', head.label);
  title.id = `col-${columns.size}`;
  root.setAttribute('aria-labelledby', title.id);
  const figures = el('dl', undefined, 'figures');
  const median = el('p', undefined, 'median muted');
  const error = el('div', undefined, 'error');
  error.hidden = true;
  error.setAttribute('role', 'alert');
  const wait = el('p', undefined, 'wait muted');
  wait.hidden = true;
  const reply = el('div', undefined, 'reply');
  reply.setAttribute('aria-live', 'off');
  const cont = columnButton(icon('comment-discussion'), l10n.t('Continue in Chat'), l10n.t('Continue in Chat with {0}', head.label), { type: 'continueInChat', id: head.id });
  cont.disabled = true;
  const trace = columnButton(icon('list-tree'), l10n.t('Show Trace'), l10n.t('Show the trace of {0}', head.label), { type: 'showTrace', id: head.id });
  trace.hidden = true;
  root.append(title, el('p', head.detail, 'muted detail'), figures, median, error, wait, reply, cont, trace);
  return { head, root, figures, median, error, wait, reply, cont, trace, text: '' };
}

function init(heads: ColumnHead[], settings: CompareSettings): void {
  columns.clear();
  const main = $('columns');
  main.replaceChildren();
  for (const h of heads) {
    const c = buildColumn(h);
    columns.set(h.id, c);
    main.append(c.root);
  }
  $('title').textContent = l10n.t('Compare {0} deployments', heads.length);
  $<HTMLTextAreaElement>('system').value = settings.systemPrompt;
  $<HTMLInputElement>('temperature').value = settings.temperature === undefined ? '' : String(settings.temperature);
  $<HTMLInputElement>('maxTokens').value = settings.maxTokens === undefined ? '' : String(settings.maxTokens);
}

function startRound(): void {
  for (const c of columns.values()) {
    c.text = '';
    c.retryAt = undefined;
    c.reply.replaceChildren();
    c.reply.classList.add('streaming');
    c.figures.replaceChildren();
    c.error.hidden = true;
    c.wait.hidden = true;
    c.cont.disabled = true;
    c.trace.hidden = true;
  }
}

function showColumn(r: ColumnResult): void {
  const c = columns.get(r.id);
  if (!c) return;
  c.figures.replaceChildren();
  figure(c.figures, l10n.t('First token'), ms(r.firstTokenMs));
  figure(c.figures, l10n.t({ message: 'Total', comment: ['The time a reply took from sending to its end'] }), ms(r.totalMs));
  figure(c.figures, l10n.t('Tokens/s'), perSecond(r.tokensPerSecond));
  figure(c.figures, l10n.t('Tokens'), tokensText(r));
  figure(c.figures, l10n.t('Cost'), costText(r));
  figure(c.figures, l10n.t({ message: 'Finish', comment: ['How the reply ended (a finish reason such as stop or length)'] }), endText(r));
  c.text = r.content;
  c.reply.classList.remove('streaming');
  // Model output: markdown-it with HTML off and only safe links (the chat's renderer).
  c.reply.innerHTML = renderer.render(r.content);
  for (const note of r.notes) c.reply.append(el('p', note, 'note'));
  c.error.hidden = !r.failure;
  c.error.textContent = r.failure?.message ?? '';
  c.retryAt = r.failure?.retryAt;
  c.wait.hidden = !c.retryAt;
  c.wait.textContent = waitText(c);
  c.cont.disabled = r.outcome !== 'ok' && !r.content;
  c.trace.hidden = !r.traceId;
  answered = true;
  $<HTMLButtonElement>('export').disabled = false;
  if (c.retryAt && !countdown) countdown = setInterval(tick, 1000);
}

function waitText(c: ColumnView): string {
  if (!c.retryAt) return '';
  const left = Math.ceil((c.retryAt - Date.now()) / 1000);
  return left > 0 ? l10n.t('Rate limited: try again in {0} s.', left) : l10n.t('The deployment takes requests again.');
}

function tick(): void {
  let waiting = false;
  for (const c of columns.values()) {
    if (!c.retryAt || c.wait.hidden) continue;
    c.wait.textContent = waitText(c);
    waiting ||= c.retryAt > Date.now();
  }
  if (!waiting && countdown) {
    clearInterval(countdown);
    countdown = undefined;
  }
}

function showSummary(summaries: ColumnSummary[]): void {
  for (const s of summaries) {
    const c = columns.get(s.id);
    if (!c) continue;
    const figures = l10n.t(
      'first token {0}, total {1}, {2}, cost {3}',
      statText(s.firstTokenMs, ms),
      statText(s.totalMs, ms),
      statText(s.tokensPerSecond, perSecond),
      costStat(s.costUsd),
    );
    c.median.textContent = l10n.t('Median (range) of {0}/{1} runs: {2}', s.answered, s.rounds, figures);
  }
}

function setBusy(b: boolean): void {
  busy = b;
  $<HTMLButtonElement>('send').disabled = b;
  $<HTMLButtonElement>('again').disabled = b;
  $<HTMLButtonElement>('stop').disabled = !b;
  $<HTMLButtonElement>('export').disabled = b || !answered;
}

function handle(msg: CompareHostMessage): void {
  switch (msg.type) {
    case 'init':
      init(msg.columns, msg.settings);
      return setBusy(msg.busy);
    case 'roundStarted':
      startRound();
      $('status').textContent = msg.of > 1 ? l10n.t('Run {0} of {1}…', msg.round, msg.of) : l10n.t('Sent to every deployment…');
      return;
    case 'delta': {
      const c = columns.get(msg.id);
      if (!c) return;
      c.text += msg.text;
      c.reply.textContent = c.text;
      return;
    }
    case 'column':
      return showColumn(msg.column);
    case 'roundEnded':
      $('status').textContent = l10n.t('Every column has ended.');
      return;
    case 'summary':
      return showSummary(msg.summaries);
    case 'busy':
      return setBusy(msg.busy);
    case 'attachments':
      return showChips(msg.items, msg.imageInput);
  }
}

function showChips(items: Extract<CompareHostMessage, { type: 'attachments' }>['items'], imageInput: boolean): void {
  const chips = $('chips');
  chips.replaceChildren(
    ...items.map((a) => {
      const chip = el('span', a.name, 'chip');
      const remove = el('button', undefined, 'icon-button');
      remove.type = 'button';
      remove.setAttribute('aria-label', l10n.t('Remove {0}', a.name));
      remove.append(icon('close'));
      remove.addEventListener('click', () => vscode.post({ type: 'removeAttachment', id: a.id }));
      chip.append(remove);
      return chip;
    }),
  );
  $<HTMLButtonElement>('attachImage').hidden = !imageInput;
}

function settings(): CompareSettings {
  const num = (id: string) => {
    const v = $<HTMLInputElement>(id).value.trim();
    return v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);
  };
  const s: CompareSettings = { systemPrompt: $<HTMLTextAreaElement>('system').value };
  const t = num('temperature');
  const m = num('maxTokens');
  if (t !== undefined) s.temperature = Math.min(2, Math.max(0, t));
  if (m !== undefined && m >= 1) s.maxTokens = Math.floor(m);
  return s;
}

function send(runs: number): void {
  const text = $<HTMLTextAreaElement>('prompt').value;
  if (busy) return;
  if (!text.trim()) {
    $('status').textContent = l10n.t('Write a prompt first.');
    $('prompt').focus();
    return;
  }
  vscode.post({ type: 'send', text, settings: settings(), runs });
}

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  send(1);
});
$('prompt').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    send(1);
  }
});
$('again').addEventListener('click', () => send(Math.min(20, Math.max(1, Math.floor(Number($<HTMLInputElement>('runs').value) || 1)))));
$('stop').addEventListener('click', () => vscode.post({ type: 'stop' }));
$('export').addEventListener('click', () => vscode.post({ type: 'export' }));
$('attachFile').addEventListener('click', () => vscode.post({ type: 'attach', kind: 'file' }));
$('attachImage').addEventListener('click', () => vscode.post({ type: 'attach', kind: 'image' }));
$('attachSelection').addEventListener('click', () => vscode.post({ type: 'attach', kind: 'selection' }));
// Links and code buttons inside replies.
$('columns').addEventListener('click', (e) => {
  const target = e.target as HTMLElement;
  const link = target.closest('a');
  if (link) {
    e.preventDefault();
    const href = link.getAttribute('href') ?? '';
    if (isSafeLink(href)) vscode.post({ type: 'openLink', href });
    return;
  }
  const button = target.closest<HTMLButtonElement>('button[data-action]');
  const code = button?.closest('.code-block')?.querySelector('code')?.textContent;
  if (button && code != null) vscode.post({ type: button.dataset.action === 'insert' ? 'insertCode' : 'copyCode', code });
});
vscode.post({ type: 'ready' });
