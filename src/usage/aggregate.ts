/**
 * The usage view's tables: per deployment (a connection's deployment) for today, 7 and 30 days,
 * and per day for the chart, in the user's time zone. Records are read one by one and summed per
 * deployment and day; the request times are kept and sorted once, so p50/p95 are exact. The log
 * is capped (32 MB by default, about 100,000 records): what is kept is a few numbers per record.
 */
import { lastDays, localZone, type ZoneOffset } from './days';
import { answeredBy, type AnsweredUsage, type PricedTokens } from './answered';
import { costOf, DEFAULT_PRICES, priceFor, type PriceTable } from './prices';
import type { RateLimitHeadroom, UsageRecord, UsageSource } from './record';
import { compareText } from '../text/format';

export type WindowName = 'today' | 'week' | 'month';
/** How many calendar days each window spans, today included. */
export const WINDOW_DAYS: Readonly<Record<WindowName, number>> = { today: 1, week: 7, month: 30 };
const WINDOWS = Object.keys(WINDOW_DAYS) as WindowName[];
/** The chart's days: the month's window. Older records are not summed. */
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
  /** An audio model's audio input and output tokens (parts of the prompt and completion tokens). */
  audioInTokens: number;
  audioOutTokens: number;
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
  /** Split by the model that answered, when more than one did (a model router): see answered.ts. */
  answeredBy?: Array<AnsweredUsage<WindowName>>;
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

/** One deployment's day: requests, prompt, cached, completion, reasoning, 429s, errors, audio in and out; times; tokens by price (a few). */
interface Day {
  counts: number[];
  firstToken: number[];
  total: number[];
  priced: PricedTokens[];
}

/** A record's place: its time, then its line (the later line wins a tie). */
interface Latest {
  at: number;
  seq: number;
}
const later = (at: number, seq: number, than: Latest | undefined) => !than || at > than.at || (at === than.at && seq > than.seq);

interface Group {
  latest: Latest & { record: UsageRecord };
  headroom?: Latest & { rateLimit: RateLimitHeadroom };
  days: Array<Day | undefined>;
}

/** Nearest-rank p50 and p95 of some times; undefined when there are none. */
function percentiles(times: readonly number[]): Percentiles | undefined {
  if (!times.length) return undefined;
  const sorted = Float64Array.from(times).sort();
  const rank = (q: number) => sorted[Math.ceil(q * sorted.length) - 1];
  return { p50: rank(0.5), p95: rank(0.95) };
}

/** Sums records fed one by one, in the log's order; `summary()` gives the tables. */
class UsageAggregator {
  private readonly labels: string[];
  private readonly starts: number[];
  private readonly notBefore: number;
  private readonly sources?: Set<string>;
  private readonly only?: Set<string>;
  /** By connection, then deployment. */
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly connections = new Map<string, Latest & { label: string }>();
  private lines = 0;
  private records = 0;
  private skipped = 0;

  constructor(private readonly options: AggregateOptions) {
    ({ labels: this.labels, starts: this.starts } = lastDays(options.now ?? Date.now(), CHART_DAYS, options.zone ?? localZone));
    this.notBefore = options.notBefore ?? -Infinity;
    this.sources = options.filter?.sources && new Set(options.filter.sources);
    this.only = options.filter?.connections && new Set(options.filter.connections);
  }

  /** The day of the chart an instant falls on (0 = the oldest), -1 before it; after it (a clock set back): the last. */
  private dayOf(at: number): number {
    if (at < this.starts[0]) return -1;
    let d = CHART_DAYS - 1;
    while (at < this.starts[d]) d--;
    return d;
  }

  /** A record, or undefined for a line that was not one. */
  add(r: UsageRecord | undefined): void {
    const seq = this.lines++;
    if (!r) return void this.skipped++;
    const day = this.dayOf(r.at);
    if (day < 0 || r.at < this.notBefore) return;
    if (later(r.at, seq, this.connections.get(r.connectionId))) this.connections.set(r.connectionId, { at: r.at, seq, label: r.connectionLabel });
    if ((this.only && !this.only.has(r.connectionId)) || (this.sources && !this.sources.has(r.source))) return;
    this.records++;
    let byName = this.groups.get(r.connectionId);
    if (!byName) this.groups.set(r.connectionId, (byName = new Map()));
    let g = byName.get(r.deployment);
    if (!g) byName.set(r.deployment, (g = { latest: { at: r.at, seq, record: r }, days: [] }));
    if (later(r.at, seq, g.latest)) g.latest = { at: r.at, seq, record: r };
    if (r.rateLimit && later(r.at, seq, g.headroom)) g.headroom = { at: r.at, seq, rateLimit: r.rateLimit };
    const d = (g.days[day] ??= { counts: [0, 0, 0, 0, 0, 0, 0, 0, 0], firstToken: [], total: [], priced: [] } as Day);
    // A batch's record stands for its requests of one minute and outcome; a request's record for one.
    const n = r.requests ?? 1;
    const t = r.tokens;
    const c = d.counts;
    c[0] += n;
    c[1] += t.prompt;
    c[2] += t.cached;
    c[3] += t.completion;
    c[4] += t.reasoning;
    c[7] += t.audioIn ?? 0;
    c[8] += t.audioOut ?? 0;
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

  summary(): UsageSummary {
    const prices = this.options.prices ?? DEFAULT_PRICES;
    /** A day's cost (undefined when nothing of it has a price) and the requests without one. */
    const costOfDay = (d: Day) => {
      let cost: number | undefined;
      let unpriced = 0;
      for (const p of d.priced) {
        const price = priceFor(prices, p.model, p.modelVersion);
        if (price) cost = (cost ?? 0) + costOf(price, p, p.batch);
        else unpriced += p.requests;
      }
      return { cost, unpriced };
    };
    const deployments: DeploymentUsage[] = [];
    for (const g of [...this.groups.values()].flatMap((m) => [...m.values()])) {
      const costs = g.days.map((d) => d && costOfDay(d));
      const windows = {} as Record<WindowName, WindowStats>;
      for (const w of WINDOWS) {
        const sums = [0, 0, 0, 0, 0, 0, 0, 0, 0];
        const days: Day[] = [];
        let cost: number | undefined;
        let unpriced = 0;
        for (let day = CHART_DAYS - WINDOW_DAYS[w]; day < CHART_DAYS; day++) {
          const d = g.days[day];
          if (!d) continue;
          days.push(d);
          d.counts.forEach((v, i) => (sums[i] += v));
          const dayCost = costs[day]!;
          if (dayCost.cost !== undefined) cost = (cost ?? 0) + dayCost.cost;
          unpriced += dayCost.unpriced;
        }
        const [requests, promptTokens, cachedTokens, completionTokens, reasoningTokens, rateLimited, errors, audioInTokens, audioOutTokens] = sums;
        windows[w] = {
          requests,
          promptTokens,
          cachedTokens,
          completionTokens,
          reasoningTokens,
          audioInTokens,
          audioOutTokens,
          rateLimited,
          errors,
          firstTokenMs: percentiles(days.flatMap((d) => d.firstToken)),
          totalMs: percentiles(days.flatMap((d) => d.total)),
          cost,
          unpricedRequests: unpriced,
        };
      }
      const daily = this.labels.map((_, i) => ({ tokensIn: g.days[i]?.counts[1] ?? 0, tokensOut: g.days[i]?.counts[3] ?? 0, cost: costs[i]?.cost }));
      const { connectionId, connectionLabel, deployment, model, modelVersion } = g.latest.record;
      const headroom = g.headroom && { ...g.headroom.rateLimit, at: g.headroom.at };
      const split = answeredBy(this.labels.map((_, i) => g.days[i]), WINDOW_DAYS, prices);
      deployments.push({ connectionId, connectionLabel, deployment, model, modelVersion, windows, daily, headroom, ...(split ? { answeredBy: split } : {}) });
    }
    deployments.sort((a, b) => compareText(a.connectionLabel, b.connectionLabel) || compareText(a.deployment, b.deployment));
    const connections = [...this.connections].map(([id, c]) => ({ id, label: c.label })).sort((a, b) => compareText(a.label, b.label));
    return { days: [...this.labels], deployments, connections, records: this.records, skipped: this.skipped };
  }
}

/**
 * The tables of records in the log's order: a list, or the log read as a stream a chunk of lines
 * at a time (`usageLines`). Undefined stands for a line that was not a record.
 */
export async function aggregateUsage(
  records: Iterable<UsageRecord | undefined> | AsyncIterable<Iterable<UsageRecord | undefined>>,
  options: AggregateOptions = {},
): Promise<UsageSummary> {
  const agg = new UsageAggregator(options);
  if (Symbol.asyncIterator in records) for await (const chunk of records) for (const r of chunk) agg.add(r);
  else for (const r of records) agg.add(r);
  return agg.summary();
}
