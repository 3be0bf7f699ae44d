/**
 * A deployment's usage by day (or an answering model's, within it), and its windows' figures:
 * counts summed, times kept for exact percentiles, tokens grouped by what prices them alike.
 */
import type { UsageRecord } from './record';
import { costOf, priceFor, type PriceTable } from './prices';

export type WindowName = 'today' | 'week' | 'month';
/** How many calendar days each window spans, today included. */
export const WINDOW_DAYS: Readonly<Record<WindowName, number>> = { today: 1, week: 7, month: 30 };
export const WINDOWS = Object.keys(WINDOW_DAYS) as WindowName[];
/** The chart's days: the month's window. Older records are not summed. */
export const CHART_DAYS = WINDOW_DAYS.month;

export interface Percentiles {
  p50: number;
  p95: number;
}

export interface WindowStats {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Answered 429. */
  rateLimited: number;
  /** Ended in another error. */
  errors: number;
  /** Over the requests that completed (outcome ok); undefined when none did. */
  firstTokenMs?: Percentiles;
  totalMs?: Percentiles;
  /** Estimated US dollars of the requests whose model has a price; undefined when none has. */
  cost?: number;
  /** Requests left out of `cost`: their model has no price. */
  unpricedRequests: number;
}

/** Tokens of one day priced alike (the same model, version, and batch or not): a price applies to their sum. */
interface Priced {
  model?: string;
  modelVersion?: string;
  batch: boolean;
  requests: number;
  prompt: number;
  /** Cached tokens as the price counts them: never more than the record's prompt. */
  cached: number;
  completion: number;
}

/** One deployment's day: requests, prompt, cached, completion, reasoning, 429s, errors; times; tokens by price (a few). */
export interface Day {
  counts: number[];
  firstToken: number[];
  total: number[];
  priced: Priced[];
}

/** Nearest-rank p50 and p95 of some times; undefined when there are none. */
function percentiles(times: readonly number[]): Percentiles | undefined {
  if (!times.length) return undefined;
  const sorted = Float64Array.from(times).sort();
  const rank = (q: number) => sorted[Math.ceil(q * sorted.length) - 1];
  return { p50: rank(0.5), p95: rank(0.95) };
}

/** Sums a record into its day of a deployment's (or an answering model's) days. */
export function addToDay(days: Array<Day | undefined>, day: number, r: UsageRecord): void {
  const d = (days[day] ??= { counts: [0, 0, 0, 0, 0, 0, 0], firstToken: [], total: [], priced: [] } as Day);
  // A batch's record stands for its requests of one minute and outcome; a request's record for one.
  const n = r.requests ?? 1;
  const t = r.tokens;
  const c = d.counts;
  c[0] += n;
  c[1] += t.prompt;
  c[2] += t.cached;
  c[3] += t.completion;
  c[4] += t.reasoning;
  const kind = r.outcome.kind;
  if (kind === 'rate_limited') c[5] += n;
  else if (kind === 'error') c[6] += n;
  // Times only where they were measured (never for a batch's lines), of requests that completed.
  else if (kind === 'ok') {
    if (r.firstTokenMs !== undefined) d.firstToken.push(r.firstTokenMs);
    if (r.totalMs !== undefined) d.total.push(r.totalMs);
  }
  const batch = r.source === 'batch';
  let p = d.priced.find((x) => x.batch === batch && x.model === r.model && x.modelVersion === r.modelVersion);
  if (!p) d.priced.push((p = { model: r.model, modelVersion: r.modelVersion, batch, requests: 0, prompt: 0, cached: 0, completion: 0 }));
  p.requests += n;
  p.prompt += t.prompt;
  p.cached += Math.min(t.cached, t.prompt);
  p.completion += t.completion;
}

/** A day's cost (undefined when nothing of it has a price) and its requests without one. */
type DayCost = { cost?: number; unpriced: number };

/** A day's tokens priced. */
function costOfDay(d: Day, prices: PriceTable): DayCost {
  let cost: number | undefined;
  let unpriced = 0;
  for (const p of d.priced) {
    const price = priceFor(prices, p.model, p.modelVersion);
    if (price) cost = (cost ?? 0) + costOf(price, p, p.batch);
    else unpriced += p.requests;
  }
  return { cost, unpriced };
}

/** The figures of each window from a deployment's (or an answering model's) days. */
export function windowsOf(days: Array<Day | undefined>, prices: PriceTable): { windows: Record<WindowName, WindowStats>; costs: Array<DayCost | undefined> } {
  const costs = days.map((d) => d && costOfDay(d, prices));
  const windows = {} as Record<WindowName, WindowStats>;
  for (const w of WINDOWS) {
    const sums = [0, 0, 0, 0, 0, 0, 0];
    const inWindow: Day[] = [];
    let cost: number | undefined;
    let unpriced = 0;
    for (let day = CHART_DAYS - WINDOW_DAYS[w]; day < CHART_DAYS; day++) {
      const d = days[day];
      if (!d) continue;
      inWindow.push(d);
      d.counts.forEach((v, i) => (sums[i] += v));
      const dayCost = costs[day]!;
      if (dayCost.cost !== undefined) cost = (cost ?? 0) + dayCost.cost;
      unpriced += dayCost.unpriced;
    }
    const [requests, promptTokens, cachedTokens, completionTokens, reasoningTokens, rateLimited, errors] = sums;
    windows[w] = {
      requests,
      promptTokens,
      cachedTokens,
      completionTokens,
      reasoningTokens,
      rateLimited,
      errors,
      firstTokenMs: percentiles(inWindow.flatMap((d) => d.firstToken)),
      totalMs: percentiles(inWindow.flatMap((d) => d.total)),
      cost,
      unpricedRequests: unpriced,
    };
  }
  return { windows, costs };
}
