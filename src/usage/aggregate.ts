/**
 * The usage view's tables: per deployment (a connection's deployment) for today, 7 and 30 days,
 * and per day for the chart, in the user's time zone. Records are summed into day buckets
 * (`dayBuckets.ts`: counters and binned times per day, source and model), which are then folded
 * into the tables with the filters and prices of the moment. Memory stays small whatever the log
 * holds, and days summed once can be saved and merged again (`daySummary.ts`). p50/p95 come from
 * the binned times: exact below a second, within 0.1 % above (see `histogram.ts`).
 */
import { BUCKET_DAYS, DayBuckets, type Bucket } from './dayBuckets';
import { localZone, type ZoneOffset } from './days';
import { TimeHistogram } from './histogram';
import { costOf, DEFAULT_PRICES, priceFor, type PriceTable } from './prices';
import type { RateLimitHeadroom, UsageRecord, UsageSource } from './record';
import { compareText } from '../text/format';

export type WindowName = 'today' | 'week' | 'month';
/** How many calendar days each window spans, today included. */
export const WINDOW_DAYS: Readonly<Record<WindowName, number>> = { today: 1, week: 7, month: 30 };
const WINDOWS = Object.keys(WINDOW_DAYS) as WindowName[];
const WINDOW_SPANS = WINDOWS.map((w) => WINDOW_DAYS[w]);
const CHART_DAYS = BUCKET_DAYS;

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

export interface DailyUsage {
  tokensIn: number;
  tokensOut: number;
  /** Undefined when no request of the day has a price. */
  cost?: number;
}

export interface DeploymentUsage {
  connectionId: string;
  /** The names of the latest record. */
  connectionLabel: string;
  deployment: string;
  model?: string;
  modelVersion?: string;
  windows: Record<WindowName, WindowStats>;
  /** One entry per day of `UsageSummary.days`. */
  daily: DailyUsage[];
  /** The latest rate-limit headers, and when they came. */
  headroom?: RateLimitHeadroom & { at: number };
}

export interface UsageSummary {
  /** The chart's days, oldest first, as local "YYYY-MM-DD". */
  days: string[];
  deployments: DeploymentUsage[];
  /** Every connection with records in the 30 days, filters aside (for the filter's choices). */
  connections: Array<{ id: string; label: string }>;
  /** Records summed (after the filter), and lines that were not records. */
  records: number;
  skipped: number;
}

export interface UsageFilter {
  connections?: readonly string[];
  sources?: readonly UsageSource[];
}

export interface AggregateOptions {
  now?: number;
  zone?: ZoneOffset;
  prices?: PriceTable;
  filter?: UsageFilter;
  /** Records made before this instant (epoch ms) are left out: the log's age cap. */
  notBefore?: number;
}

/** Slots of a window's counters. */
const C = { Requests: 0, Prompt: 1, Cached: 2, Completion: 3, Reasoning: 4, RateLimited: 5, Errors: 6, Cost: 7, Priced: 8, Unpriced: 9, Size: 10 } as const;

/** One deployment's tables, folded from its buckets. */
class Group {
  readonly counts = WINDOWS.map(() => new Float64Array(C.Size));
  /** Per day: tokens in, tokens out, cost, and 1 once a request of the day had a price. */
  readonly daily = new Float64Array(CHART_DAYS * 4);
  readonly firstToken = WINDOWS.map(() => new TimeHistogram());
  readonly total = WINDOWS.map(() => new TimeHistogram());
  /** The bucket of the latest record, whose names are shown, and the one of the latest rate-limit headers. */
  latest: Bucket;
  headroom?: Bucket;

  constructor(first: Bucket) {
    this.latest = first;
  }

  stats(w: number): WindowStats {
    const c = this.counts[w];
    return {
      requests: c[C.Requests],
      promptTokens: c[C.Prompt],
      cachedTokens: c[C.Cached],
      completionTokens: c[C.Completion],
      reasoningTokens: c[C.Reasoning],
      rateLimited: c[C.RateLimited],
      errors: c[C.Errors],
      firstTokenMs: this.firstToken[w].percentiles(),
      totalMs: this.total[w].percentiles(),
      cost: c[C.Priced] ? c[C.Cost] : undefined,
      unpricedRequests: c[C.Unpriced],
    };
  }

  add(b: Bucket, day: number, cost: number | undefined): void {
    if (b.lastAt > this.latest.lastAt || (b.lastAt === this.latest.lastAt && b.lastSeq > this.latest.lastSeq)) this.latest = b;
    const h = this.headroom;
    if (b.headroom && (!h || b.headroomAt > h.headroomAt || (b.headroomAt === h.headroomAt && b.headroomSeq > h.headroomSeq))) this.headroom = b;
    const daysAgo = CHART_DAYS - 1 - day;
    for (let w = 0; w < WINDOWS.length; w++) {
      if (daysAgo >= WINDOW_SPANS[w]) continue;
      const c = this.counts[w];
      c[C.Requests] += b.requests;
      c[C.Prompt] += b.prompt;
      c[C.Cached] += b.cached;
      c[C.Completion] += b.completion;
      c[C.Reasoning] += b.reasoning;
      c[C.RateLimited] += b.rateLimited;
      c[C.Errors] += b.errors;
      if (cost === undefined) c[C.Unpriced] += b.requests;
      else {
        c[C.Cost] += cost;
        c[C.Priced] = 1;
      }
      this.firstToken[w].merge(b.firstToken);
      this.total[w].merge(b.total);
    }
    const d = this.daily;
    d[day * 4] += b.prompt;
    d[day * 4 + 1] += b.completion;
    if (cost !== undefined) {
      d[day * 4 + 2] += cost;
      d[day * 4 + 3] = 1;
    }
  }
}

/**
 * The tables from day buckets, with the filter and prices of `options`. Undefined when a bucket
 * holds records on both sides of `notBefore` (the age cap cuts a saved day): read the records then.
 */
export function foldBuckets(buckets: DayBuckets, options: AggregateOptions = {}): UsageSummary | undefined {
  const prices = options.prices ?? DEFAULT_PRICES;
  const notBefore = options.notBefore ?? -Infinity;
  const sources = options.filter?.sources && new Set(options.filter.sources);
  const only = options.filter?.connections && new Set(options.filter.connections);
  const groups = new Map<string, Map<string, Group>>();
  const labels = new Map<string, Bucket>();
  let records = 0;
  for (const [b, day] of buckets.all()) {
    if (b.maxAt < notBefore) continue;
    if (b.minAt < notBefore) return undefined;
    const seen = labels.get(b.connectionId);
    if (!seen || b.lastAt > seen.lastAt || (b.lastAt === seen.lastAt && b.lastSeq > seen.lastSeq)) labels.set(b.connectionId, b);
    if (only && !only.has(b.connectionId)) continue;
    if (sources && !sources.has(b.source)) continue;
    records += b.records;
    let byName = groups.get(b.connectionId);
    if (!byName) groups.set(b.connectionId, (byName = new Map()));
    let g = byName.get(b.deployment);
    if (!g) byName.set(b.deployment, (g = new Group(b)));
    const price = priceFor(prices, b.model, b.modelVersion);
    g.add(b, day, price && costOf(price, { prompt: b.prompt, cached: b.cachedForCost, completion: b.completion }, b.source === 'batch'));
  }
  const deployments: DeploymentUsage[] = [];
  for (const g of [...groups.values()].flatMap((m) => [...m.values()])) {
    const { connectionId, label: connectionLabel, deployment, model, modelVersion } = g.latest;
    const windows = Object.fromEntries(WINDOWS.map((w, i) => [w, g.stats(i)])) as Record<WindowName, WindowStats>;
    const d = g.daily;
    const daily = buckets.labels.map((_, i) => ({ tokensIn: d[i * 4], tokensOut: d[i * 4 + 1], cost: d[i * 4 + 3] ? d[i * 4 + 2] : undefined }));
    const h = g.headroom;
    const headroom = h?.headroom && { ...h.headroom, at: h.headroomAt };
    deployments.push({ connectionId, connectionLabel, deployment, model, modelVersion, windows, daily, headroom });
  }
  deployments.sort((a, b) => compareText(a.connectionLabel, b.connectionLabel) || compareText(a.deployment, b.deployment));
  const connections = [...labels].map(([id, b]) => ({ id, label: b.label })).sort((a, b) => compareText(a.label, b.label));
  return { days: [...buckets.labels], deployments, connections, records, skipped: buckets.skipped };
}

/** Sums records fed one by one; `summary()` gives the tables. */
export class UsageAggregator {
  readonly buckets: DayBuckets;

  constructor(private readonly options: AggregateOptions = {}) {
    this.buckets = new DayBuckets(options.now ?? Date.now(), options.zone ?? localZone, options.notBefore);
  }

  /** A line that was not a record. */
  skip(): void {
    this.buckets.skip();
  }

  add(r: UsageRecord): void {
    this.buckets.add(r);
  }

  summary(): UsageSummary {
    // Records before the age cap never reach a bucket: no bucket straddles it.
    return foldBuckets(this.buckets, this.options)!;
  }
}

/** The tables for records from anywhere (an array, a generator of the log's records). */
export async function aggregateUsage(records: Iterable<UsageRecord> | AsyncIterable<UsageRecord>, options: AggregateOptions = {}): Promise<UsageSummary> {
  const agg = new UsageAggregator(options);
  for await (const r of records) agg.add(r);
  return agg.summary();
}
