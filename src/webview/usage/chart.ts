/**
 * The chart of tokens (or estimated cost) per day, stacked per deployment: inline SVG drawn here,
 * coloured with the theme's chart colours through CSS classes (the CSP allows no inline styles),
 * with a text alternative: the figure's label says the totals, and a table holds every figure.
 */
import * as l10n from '@vscode/l10n';
import type { DeploymentUsage, UsageSummary } from '../../usage/aggregate';
import { chartLegend, svg } from '../shared/chart';
import { el } from '../shared/page';

export type Metric = 'tokens' | 'cost';

/** The theme has this many chart colours; more deployments reuse them with a pattern of their own. */
export const SERIES_COLOURS = 6;
/** The drawing is as wide as its figure, in CSS pixels, so its labels keep the page's font size at any width. */
const MIN_W = 200;
const H = 180;
const PAD = { left: 4, right: 4, top: 20, bottom: 22 };

const valueOf = (d: DeploymentUsage, day: number, metric: Metric) => {
  const u = d.daily[day];
  return metric === 'tokens' ? u.tokensIn + u.tokensOut : (u.cost ?? 0);
};

export function formatValue(v: number, metric: Metric): string {
  if (metric === 'cost') return v > 0 && v < 0.01 ? '<$0.01' : `$${v.toFixed(2)}`;
  return v.toLocaleString('en');
}

/** A deployment's name as the chart and tables say it. */
export const nameOf = (d: DeploymentUsage) => `${d.deployment} (${d.connectionLabel || d.connectionId})`;

/** The chart's text alternative: its totals and busiest day (each sentence whole, for translators). */
function chartLabel(metric: Metric, days: number, figures: { sum: string; day: string; max: string } | undefined): string {
  const tokens = metric === 'tokens';
  if (!figures) {
    return tokens
      ? l10n.t('Tokens per day over the last {0} days: none.', days)
      : l10n.t('Estimated cost per day over the last {0} days: none (no request had a model with a price).', days);
  }
  const what = tokens
    ? l10n.t('Tokens per day over the last {0} days, by deployment: {1} in all; the busiest day {2} with {3}.', days, figures.sum, figures.day, figures.max)
    : l10n.t('Estimated cost per day over the last {0} days, by deployment: {1} in all; the busiest day {2} with {3}.', days, figures.sum, figures.day, figures.max);
  return `${what} ${l10n.t('Every figure is in the table below.')}`;
}

/** Draws the chart into `figure` (replacing what was there). */
export function drawChart(figure: HTMLElement, summary: UsageSummary, metric: Metric): void {
  figure.replaceChildren();
  const days = summary.days;
  const series = summary.deployments.filter((d) => days.some((_, i) => valueOf(d, i, metric) > 0));
  const totals = days.map((_, i) => series.reduce((n, d) => n + valueOf(d, i, metric), 0));
  const max = Math.max(0, ...totals);
  const W = Math.max(MIN_W, Math.floor(figure.clientWidth));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', focusable: 'false' }, 'chart');
  const busiest = totals.indexOf(max);
  const sum = totals.reduce((a, b) => a + b, 0);
  const alt = chartLabel(metric, days.length, max ? { sum: formatValue(sum, metric), day: days[busiest], max: formatValue(max, metric) } : undefined);
  chart.setAttribute('aria-label', alt);
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / days.length;
  const base = H - PAD.bottom;
  chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: base, y2: base }, 'axis'));
  if (max) {
    chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: PAD.top, y2: PAD.top }, 'grid'));
    chart.append(svg('text', { x: PAD.left, y: PAD.top - 6 }, 'label', formatValue(max, metric)));
  }
  days.forEach((day, i) => {
    let y = base;
    series.forEach((d, s) => {
      const v = valueOf(d, i, metric);
      if (!v) return;
      const h = Math.max(1, (v / max) * plotH);
      y -= h;
      const bar = svg('rect', { x: PAD.left + i * slot + slot * 0.15, y, width: slot * 0.7, height: h }, `bar series-${s % SERIES_COLOURS}${s >= SERIES_COLOURS ? ' striped' : ''}`);
      bar.append(svg('title', {}, undefined, `${nameOf(d)}, ${day}: ${formatValue(v, metric)}`));
      chart.append(bar);
    });
  });
  for (const i of [0, Math.floor(days.length / 2), days.length - 1]) {
    const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
    const x = i === 0 ? PAD.left : i === days.length - 1 ? W - PAD.right : PAD.left + (i + 0.5) * slot;
    chart.append(svg('text', { x, y: H - 6, 'text-anchor': anchor }, 'label', days[i].slice(5)));
  }
  figure.append(chart);
  figure.append(chartLegend(series.map((d, s) => ({ swatch: `series-${s % SERIES_COLOURS}${s >= SERIES_COLOURS ? ' striped' : ''}`, name: nameOf(d) }))));
}

/** The chart's figures as a table: one row per day with any, one column per deployment. */
export function fillDailyTable(table: HTMLTableElement, summary: UsageSummary, metric: Metric): void {
  table.replaceChildren();
  const series = summary.deployments.filter((d) => summary.days.some((_, i) => valueOf(d, i, metric) > 0));
  const caption = el('caption', metric === 'tokens' ? l10n.t('Tokens (in + out) per day and deployment') : l10n.t('Estimated cost (USD) per day and deployment'));
  const head = el('tr');
  head.append(Object.assign(el('th', l10n.t('Day')), { scope: 'col' }));
  for (const d of series) head.append(Object.assign(el('th', nameOf(d), 'num'), { scope: 'col' }));
  const body = el('tbody');
  summary.days.forEach((day, i) => {
    if (!series.some((d) => valueOf(d, i, metric) > 0)) return;
    const row = el('tr');
    row.append(Object.assign(el('th', day), { scope: 'row' }));
    for (const d of series) row.append(el('td', formatValue(valueOf(d, i, metric), metric), 'num'));
    body.append(row);
  });
  if (!body.children.length) {
    const row = el('tr');
    row.append(Object.assign(el('td', l10n.t('Nothing to show.')), { colSpan: series.length + 1 }));
    body.append(row);
  }
  const thead = el('thead');
  thead.append(head);
  table.append(caption, thead, body);
}
