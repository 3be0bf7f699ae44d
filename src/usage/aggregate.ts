/**
 * The usage view's tables, summed from records one at a time: per deployment (a connection's
 * deployment) for today, 7 and 30 days, and per day for the chart, in the user's time zone.
 *
 * Memory stays small whatever the log holds: counters per deployment and day, plus, for exact
 * p50/p95, each completed request's two times in typed arrays (9 bytes a time with its day), so a
 * million records in the window cost about 18 MB instead of the ~900 MB of parsed objects.
 * Exact rather than sketched percentiles: the user can check them against the requests they made.
 */
import { DayIndex, lastDays, localZone, type ZoneOffset } from './days';
import { Times } from './percentiles';
import { costOf, DEFAULT_PRICES, priceFor, type ModelPrice, type PriceTable } from './prices';
import type { RateLimitHeadroom, UsageRecord, UsageSource } from './record';
import { compareText } from '../text/format';

export type WindowName = 'today' | 'week' | 'month';
/** How many calendar days each window spans, today included. */
export const WINDOW_DAYS: Readonly<Record<WindowName, number>> = { today: 1, week: 7, month: 30 };
const WINDOWS = Object.keys(WINDOW_DAYS) as WindowName[];
const WINDOW_SPANS = WINDOWS.map((w) => WINDOW_DAYS[w]);
const CHART_DAYS = WINDOW_DAYS.month;

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

class Group {
  readonly counts = WINDOWS.map(() => new Float64Array(C.Size));
  /** Per day: tokens in, tokens out, cost, and 1 once a request of the day had a price. */
  readonly daily = new Float64Array(CHART_DAYS * 4);
  readonly firstToken = WINDOWS.map(() => new Times());
  readonly total = WINDOWS.map(() => new Times());
  /**
   * The names of the latest record, and the latest rate-limit headers with when they came: copied
   * out, so no record outlives its turn (a million records kept a moment each cost the collector).
   */
  readonly latest: Pick<UsageRecord, 'at' | 'connectionId' | 'connectionLabel' | 'deployment' | 'model' | 'modelVersion'>;
  headroom?: RateLimitHeadroom;
  headroomAt = -Infinity;
  private priceModel?: string;
  private priceVersion?: string;
  private price?: ModelPrice;

  constructor(first: UsageRecord) {
    const { at, connectionId, connectionLabel, deployment, model, modelVersion } = first;
    this.latest = { at, connectionId, connectionLabel, deployment, model, modelVersion };
  }

  /** The price of the record's model, looked up again only when the model changes. */
  priceOf(r: UsageRecord, table: PriceTable): ModelPrice | undefined {
    // Stryker disable next-line ConditionalExpression: looking up every time gives the same price
    if (r.model !== this.priceModel || r.modelVersion !== this.priceVersion) {
      this.priceModel = r.model;
      this.priceVersion = r.modelVersion;
      this.price = priceFor(table, r.model, r.modelVersion);
    }
    return this.price;
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
}

/** Sums records fed one by one; `summary()` gives the tables. */
export class UsageAggregator {
  private readonly days: string[];
  private readonly index: DayIndex;
  private readonly prices: PriceTable;
  private readonly sources?: ReadonlySet<UsageSource>;
  private readonly only?: ReadonlySet<string>;
  /** Connection id, then deployment: two lookups of strings the reader shares, no key built per record. */
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly labels = new Map<string, { at: number; label: string }>();
  private readonly notBefore: number;
  private records = 0;
  private skipped = 0;

  constructor(options: AggregateOptions = {}) {
    const { labels, starts } = lastDays(options.now ?? Date.now(), CHART_DAYS, options.zone ?? localZone);
    this.days = labels;
    this.index = new DayIndex(starts);
    this.prices = options.prices ?? DEFAULT_PRICES;
    this.notBefore = options.notBefore ?? -Infinity;
    if (options.filter?.sources) this.sources = new Set(options.filter.sources);
    if (options.filter?.connections) this.only = new Set(options.filter.connections);
  }

  /** A line that was not a record. */
  skip(): void {
    this.skipped++;
  }

  add(r: UsageRecord): void {
    const day = this.index.of(r.at);
    if (day < 0 || r.at < this.notBefore) return;
    const seen = this.labels.get(r.connectionId);
    if (!seen) this.labels.set(r.connectionId, { at: r.at, label: r.connectionLabel });
    else if (r.at >= seen.at) {
      // Updated in place: one object per connection, not one per record.
      seen.at = r.at;
      seen.label = r.connectionLabel;
    }
    if (this.only && !this.only.has(r.connectionId)) return;
    if (this.sources && !this.sources.has(r.source)) return;
    this.records++;
    let byName = this.groups.get(r.connectionId);
    if (!byName) this.groups.set(r.connectionId, (byName = new Map()));
    let g = byName.get(r.deployment);
    if (!g) byName.set(r.deployment, (g = new Group(r)));
    const latest = g.latest;
    if (r.at >= latest.at) {
      latest.at = r.at;
      latest.connectionLabel = r.connectionLabel;
      latest.model = r.model;
      latest.modelVersion = r.modelVersion;
    }
    const price = g.priceOf(r, this.prices);
    const cost = price && costOf(price, r.tokens, r.source === 'batch');
    const daysAgo = CHART_DAYS - 1 - day;
    const t = r.tokens;
    // A batch's record stands for its requests of one minute and outcome; a request's record for one.
    const n = r.requests ?? 1;
    const kind = r.outcome.kind;
    for (let w = 0; w < WINDOWS.length; w++) {
      if (daysAgo >= WINDOW_SPANS[w]) continue;
      const c = g.counts[w];
      c[C.Requests] += n;
      c[C.Prompt] += t.prompt;
      c[C.Cached] += t.cached;
      c[C.Completion] += t.completion;
      c[C.Reasoning] += t.reasoning;
      if (kind === 'rate_limited') c[C.RateLimited] += n;
      else if (kind === 'error') c[C.Errors] += n;
      if (cost === undefined) c[C.Unpriced] += n;
      else {
        c[C.Cost] += cost;
        c[C.Priced] = 1;
      }
      // Times only where they were measured (never for a batch's lines).
      if (kind === 'ok') {
        if (r.firstTokenMs !== undefined) g.firstToken[w].push(r.firstTokenMs);
        if (r.totalMs !== undefined) g.total[w].push(r.totalMs);
      }
    }
    const d = g.daily;
    d[day * 4] += t.prompt;
    d[day * 4 + 1] += t.completion;
    if (cost !== undefined) {
      d[day * 4 + 2] += cost;
      d[day * 4 + 3] = 1;
    }
    // The headers' object is kept (it is small; the record around it is not).
    if (r.rateLimit && r.at >= g.headroomAt) {
      g.headroom = r.rateLimit;
      g.headroomAt = r.at;
    }
  }

  summary(): UsageSummary {
    const deployments: DeploymentUsage[] = [];
    for (const g of [...this.groups.values()].flatMap((m) => [...m.values()])) {
      const { connectionId, connectionLabel, deployment, model, modelVersion } = g.latest;
      const windows = Object.fromEntries(WINDOWS.map((w, i) => [w, g.stats(i)])) as Record<WindowName, WindowStats>;
      const d = g.daily;
      const daily = this.days.map((_, i) => ({ tokensIn: d[i * 4], tokensOut: d[i * 4 + 1], cost: d[i * 4 + 3] ? d[i * 4 + 2] : undefined }));
      const headroom = g.headroom && { ...g.headroom, at: g.headroomAt };
      deployments.push({ connectionId, connectionLabel, deployment, model, modelVersion, windows, daily, headroom });
    }
    deployments.sort((a, b) => compareText(a.connectionLabel, b.connectionLabel) || compareText(a.deployment, b.deployment));
    const connections = [...this.labels].map(([id, { label }]) => ({ id, label })).sort((a, b) => compareText(a.label, b.label));
    return { days: [...this.days], deployments, connections, records: this.records, skipped: this.skipped };
  }
}

/** The tables for records from anywhere (an array, a generator of the log's records). */
export async function aggregateUsage(records: Iterable<UsageRecord> | AsyncIterable<UsageRecord>, options: AggregateOptions = {}): Promise<UsageSummary> {
  const agg = new UsageAggregator(options);
  for await (const r of records) agg.add(r);
  return agg.summary();
}
