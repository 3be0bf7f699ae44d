/**
 * The loss per step as a line chart: inline SVG drawn to the figure's width, coloured with the
 * theme's chart colours through CSS classes (the CSP allows no inline styles). Its text
 * alternative says where each loss started and ended; the table below it holds every value.
 */
import * as l10n from '@vscode/l10n';
import { chartLegend, svg } from '../shared/chart';
import { el } from '../shared/page';
import { formatLoss, type LossPointView } from './protocol';

const MIN_W = 200;
const H = 180;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

type Series = { key: 'train' | 'valid'; name: string; points: Array<{ step: number; v: number }> };

function seriesOf(points: readonly LossPointView[]): Series[] {
  const of = (key: 'train' | 'valid') => points.flatMap((p) => (p[key] === undefined ? [] : [{ step: p.step, v: p[key]! }]));
  return [
    { key: 'train' as const, name: l10n.t('Training loss'), points: of('train') },
    { key: 'valid' as const, name: l10n.t('Validation loss'), points: of('valid') },
  ].filter((s) => s.points.length > 0);
}

/** What the chart shows, in words (its text alternative). */
export function describeLoss(points: readonly LossPointView[]): string {
  const series = seriesOf(points);
  if (!series.length) return l10n.t('No loss reported yet.');
  const parts = series.map((s) => {
    const first = s.points[0]!;
    const last = s.points[s.points.length - 1]!;
    if (s.points.length === 1) return l10n.t('{0} {1} at step {2}', s.name, formatLoss(last.v), last.step);
    return l10n.t('{0} from {1} at step {2} to {3} at step {4}', s.name, formatLoss(first.v), first.step, formatLoss(last.v), last.step);
  });
  return l10n.t('Loss per step: {0}. Every value is in the table below.', parts.join('; '));
}

/** Draws the chart into `figure` (replacing what was there); nothing when there is no loss yet. */
export function drawLossChart(figure: HTMLElement, points: readonly LossPointView[]): void {
  figure.replaceChildren();
  const series = seriesOf(points);
  if (!series.length) return;
  const W = Math.max(MIN_W, Math.floor(figure.clientWidth));
  const values = series.flatMap((s) => s.points.map((p) => p.v));
  const steps = series.flatMap((s) => s.points.map((p) => p.step));
  const [lo, hi] = [Math.min(0, ...values), Math.max(...values)];
  const [first, last] = [Math.min(...steps), Math.max(...steps)];
  const x = (step: number) => PAD.left + (last === first ? 0.5 : (step - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (hi === lo ? 0.5 : 1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', focusable: 'false', 'aria-label': describeLoss(points) }, 'chart');
  const base = H - PAD.bottom;
  chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: base, y2: base }, 'axis'), svg('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: base }, 'axis'));
  chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(hi), y2: y(hi) }, 'grid'));
  const label = (text: string, attrs: Record<string, string | number>) => chart.append(svg('text', attrs, 'label', text));
  label(hi.toFixed(2), { x: PAD.left - 4, y: y(hi) + 4, 'text-anchor': 'end' });
  label(lo.toFixed(2), { x: PAD.left - 4, y: base, 'text-anchor': 'end' });
  label(l10n.t('step {0}', first), { x: PAD.left, y: H - 6, 'text-anchor': 'start' });
  if (last !== first) label(String(last), { x: W - PAD.right, y: H - 6, 'text-anchor': 'end' });
  series.forEach((s, i) => {
    const cls = `series-${i}`;
    if (s.points.length > 1) chart.append(svg('polyline', { points: s.points.map((p) => `${x(p.step).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ') }, `line ${cls} ${s.key}`));
    // A sparse series (validation: one value per epoch) shows its points; on a dense one they would be a smear.
    if (s.points.length <= (W - PAD.left - PAD.right) / 10) {
      for (const p of s.points) {
        const dot = svg('circle', { cx: x(p.step).toFixed(1), cy: y(p.v).toFixed(1), r: 3 }, `dot ${cls}`);
        dot.append(svg('title', {}, undefined, l10n.t('{0} at step {1}: {2}', s.name, p.step, formatLoss(p.v))));
        chart.append(dot);
      }
    }
  });
  figure.append(chart);
  figure.append(chartLegend(series.map((s, i) => ({ swatch: `series-${i} ${s.key}`, name: s.name }))));
}

/** The chart's values as table rows: one per step, oldest first. */
export function lossRows(points: readonly LossPointView[]): HTMLTableRowElement[] {
  return points.map((p) => {
    const tr = el('tr');
    const step = el('th', String(p.step), 'num');
    step.scope = 'row';
    tr.append(step, el('td', formatLoss(p.train), 'num'), el('td', formatLoss(p.valid), 'num'));
    return tr;
  });
}
