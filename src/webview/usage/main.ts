/**
 * The usage page: per deployment for today, 7 or 30 days, a chart per day and the last known
 * rate-limit headroom. It talks to the extension only through the typed protocol and validates
 * everything it receives. Names in the data are the user's and the service's: put on the page as
 * text, never as HTML.
 */
import '../shared/useBundle';
import * as l10n from '@vscode/l10n';
import type { DeploymentUsage, UsageSummary, WindowName, WindowStats } from '../../usage/aggregate';
import { $, connect, el } from '../shared/page';
import { drawChart, fillDailyTable, type Metric } from './chart';
import { ago, headroomFigures, shareLeft, type DeploymentLimits, type HeadroomFigure } from './headroom';
import { formatPercentiles, parseUsageHostMessage, type UsageFilterChoice, type UsageHostMessage, type UsageViewMessage } from './protocol';

const vscode = connect<UsageViewMessage, UsageHostMessage>(parseUsageHostMessage, (msg) => handle(msg));
const post = (msg: UsageViewMessage) => vscode.post(msg);

const windowSelect = $<HTMLSelectElement>('window');
const connectionSelect = $<HTMLSelectElement>('connection');
const sourceSelect = $<HTMLSelectElement>('source');
const metricSelect = $<HTMLSelectElement>('metric');
const statusEl = $<HTMLDivElement>('status');

let summary: UsageSummary | undefined;
let limits: DeploymentLimits[] = [];

/** What the page keeps across a reload: the period and the chart's measure. */
interface PageState {
  window?: WindowName;
  metric?: Metric;
}
const saved = (vscode.getState() ?? {}) as PageState;
if (saved.window && ['today', 'week', 'month'].includes(saved.window)) windowSelect.value = saved.window;
if (saved.metric === 'cost' || saved.metric === 'tokens') metricSelect.value = saved.metric;
const saveState = () => vscode.setState({ window: windowSelect.value as WindowName, metric: metricSelect.value as Metric } satisfies PageState);

const count = (n: number) => n.toLocaleString('en');
/** An estimated cost: "~$1.20", or "<$0.01" for a tiny one (itself an approximation). */
const estimate = (v: number) => (v > 0 && v < 0.01 ? '<$0.01' : `~$${v.toFixed(2)}`);

function handle(msg: UsageHostMessage): void {
  if (msg.type === 'error') {
    statusEl.textContent = msg.text;
    statusEl.className = 'error';
    return;
  }
  statusEl.textContent = '';
  statusEl.className = '';
  summary = msg.summary;
  limits = msg.limits;
  setConnections(msg.summary, msg.filter);
  sourceSelect.value = msg.filter.source;
  render();
}

function setConnections(s: UsageSummary, filter: UsageFilterChoice): void {
  connectionSelect.replaceChildren(new Option(l10n.t('All connections'), ''), ...s.connections.map((c) => new Option(c.label || c.id, c.id)));
  connectionSelect.value = s.connections.some((c) => c.id === filter.connection) ? filter.connection : '';
}

/** A cell with the main figure and, beside it, a smaller part of it ("1,200 (300 cached)"). */
function figure(main: string, part?: string): HTMLTableCellElement {
  const td = el('td', main, 'num');
  if (part) td.append(' ', el('span', part, 'sub'));
  return td;
}

function costCell(w: WindowStats): HTMLTableCellElement {
  if (w.cost === undefined) return figure(w.requests ? l10n.t('tokens only') : '–', w.requests ? l10n.t('(no price)') : undefined);
  return figure(estimate(w.cost), w.unpricedRequests ? l10n.t('(+{0} unpriced)', count(w.unpricedRequests)) : undefined);
}

function row(d: DeploymentUsage, w: WindowStats): HTMLTableRowElement {
  const tr = el('tr');
  const name = el('th');
  name.scope = 'row';
  name.append(el('span', d.deployment, 'name'), el('span', `${d.connectionLabel || d.connectionId}${d.model ? ` · ${d.model}` : ''}`, 'sub block'));
  tr.append(
    name,
    figure(count(w.requests), w.errors ? l10n.t('({0} failed)', count(w.errors)) : undefined),
    // Cached and, for an audio model, audio input apart; reasoning and audio output apart.
    figure(count(w.promptTokens), `(${count(w.cachedTokens)}${w.audioInTokens ? `, ${l10n.t('{0} audio', count(w.audioInTokens))}` : ''})`),
    figure(count(w.completionTokens), `(${count(w.reasoningTokens)}${w.audioOutTokens ? `, ${l10n.t('{0} audio', count(w.audioOutTokens))}` : ''})`),
    figure(formatPercentiles(w.firstTokenMs)),
    figure(formatPercentiles(w.totalMs)),
    figure(count(w.rateLimited)),
    costCell(w),
  );
  if (w.rateLimited) tr.children[6].classList.add('warn');
  return tr;
}

/** A model router's deployment: a row under it for each model that answered in the period (requests, tokens, cost). */
function answeredRows(d: DeploymentUsage, win: WindowName): HTMLTableRowElement[] {
  return (d.answeredBy ?? [])
    .filter((a) => a.windows[win].requests > 0)
    .map((a) => {
      const w = a.windows[win];
      const tr = el('tr', undefined, 'answered');
      const name = el('th', undefined, 'sub');
      name.scope = 'row';
      name.append(el('span', l10n.t('answered by {0}', a.model), 'name'));
      const cost = w.cost === undefined ? figure(l10n.t('tokens only'), l10n.t('(no price)')) : figure(estimate(w.cost));
      tr.append(name, figure(count(w.requests)), figure(count(w.promptTokens), `(${count(w.cachedTokens)})`), figure(count(w.completionTokens)), el('td'), el('td'), el('td'), cost);
      return tr;
    });
}

/** Above the table: the period, whether filtered, how many deployments (each sentence whole, for translators). */
function headingText(win: WindowName, filtered: boolean, n: number): string {
  const period = { today: l10n.t('today'), week: l10n.t('the last 7 days'), month: l10n.t('the last 30 days') }[win];
  const deployments = n === 1 ? l10n.t('1 deployment') : l10n.t('{0} deployments', count(n));
  return filtered
    ? l10n.t('Requests per deployment, {0} (filtered): {1}', period, deployments)
    : l10n.t('Requests per deployment, {0}: {1}', period, deployments);
}

function noRequestsText(win: WindowName, filtered: boolean): string {
  if (win === 'today') return filtered ? l10n.t('No requests today with these filters.') : l10n.t('No requests today.');
  const days = win === 'week' ? 7 : 30;
  return filtered ? l10n.t('No requests in the last {0} days with these filters.', days) : l10n.t('No requests in the last {0} days.', days);
}

function render(): void {
  if (!summary) return;
  const s = summary;
  const win = windowSelect.value as WindowName;
  const filtered = connectionSelect.value !== '' || sourceSelect.value !== '';
  const anything = s.connections.length > 0;
  $('empty').hidden = anything;
  $('content').hidden = !anything;
  if (!anything) return;
  const rows = s.deployments.filter((d) => d.windows[win].requests > 0);
  // Said above the table (a caption would scroll away with a wide table) and, for screen readers, as its caption.
  const heading = headingText(win, filtered, rows.length);
  $('usage-heading').textContent = heading;
  $('usage-caption').textContent = heading;
  const body = $('usage-rows');
  body.replaceChildren(...rows.flatMap((d) => [row(d, d.windows[win]), ...answeredRows(d, win)]));
  if (!rows.length) {
    const tr = el('tr');
    tr.append(Object.assign(el('td', noRequestsText(win, filtered)), { colSpan: 8 }));
    body.append(tr);
  }
  const unpriced = rows.some((d) => d.windows[win].unpricedRequests > 0);
  $('cost-note').textContent = [
    l10n.t('Costs are estimates from list prices (Prices sets your own), for requests in the chosen period.'),
    ...(unpriced ? [l10n.t('A model without a price shows tokens only.')] : []),
  ].join(' ');
  const metric = metricSelect.value as Metric;
  drawChart($('chart'), s, metric);
  fillDailyTable($<HTMLTableElement>('daily-table'), s, metric);
  renderHeadroom(s, limits);
}

/** One figure: its text, and a meter when the limit is known (the text is the meter's alternative). */
function headroomLine(f: HeadroomFigure, deployment: string): HTMLElement {
  const line = el('div', undefined, 'figure');
  line.append(el('span', f.text));
  const share = shareLeft(f);
  if (share === undefined) return line;
  const meter = el('div', undefined, share < 0.1 ? 'meter low' : 'meter');
  meter.setAttribute('role', 'meter');
  meter.setAttribute('aria-label', f.what === 'tokens' ? l10n.t('Tokens left, {0}', deployment) : l10n.t('Requests left, {0}', deployment));
  meter.setAttribute('aria-valuemin', '0');
  meter.setAttribute('aria-valuemax', String(f.limit));
  meter.setAttribute('aria-valuenow', String(Math.min(f.left, f.limit!)));
  meter.setAttribute('aria-valuetext', f.text);
  const fill = el('div', undefined, 'fill');
  fill.style.width = `${(share * 100).toFixed(1)}%`;
  meter.append(fill);
  line.append(meter);
  return line;
}

function renderHeadroom(s: UsageSummary, limits: readonly DeploymentLimits[]): void {
  const list = $('headroom-list');
  const now = Date.now();
  const known = s.deployments.filter((d) => d.headroom);
  list.replaceChildren(
    ...known.map((d) => {
      const h = d.headroom!;
      const item = el('li');
      const when = el('span', l10n.t('{0} · as of {1}', d.connectionLabel || d.connectionId, ago(h.at, now)), 'sub block');
      when.title = new Date(h.at).toLocaleString();
      item.append(el('span', d.deployment, 'name'), when);
      const own = limits.find((l) => l.connectionId === d.connectionId && l.deployment === d.deployment);
      for (const f of headroomFigures(h, own)) item.append(headroomLine(f, d.deployment));
      return item;
    }),
  );
  if (!known.length) list.append(el('li', l10n.t('No answer carried rate-limit headers yet.'), 'note'));
}

const sendFilter = () => post({ type: 'filter', filter: { connection: connectionSelect.value, source: sourceSelect.value as UsageFilterChoice['source'] } });
connectionSelect.addEventListener('change', sendFilter);
sourceSelect.addEventListener('change', sendFilter);
for (const select of [windowSelect, metricSelect]) {
  select.addEventListener('change', () => {
    saveState();
    render();
  });
}
// The chart is drawn to its width: drawn again when the panel is resized.
let drawnWidth = 0;
new ResizeObserver(() => {
  const width = $('chart').clientWidth;
  if (summary && width !== drawnWidth) drawChart($('chart'), summary, metricSelect.value as Metric);
  drawnWidth = width;
}).observe($('chart'));
$('export').addEventListener('click', () => post({ type: 'exportCsv' }));
$('prices').addEventListener('click', () => post({ type: 'editPrices' }));
post({ type: 'ready' });
