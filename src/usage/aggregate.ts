/**
 * The usage view's tables: per deployment (a connection's deployment) for today, 7 and 30 days,
 * and per day for the chart, in the user's time zone. Records are read one by one and summed per
 * deployment and day; the request times are kept and sorted once, so p50/p95 are exact. The log
 * is capped (32 MB by default, about 100,000 records): what is kept is a few numbers per record.
 */
import { lastDays, localZone, type ZoneOffset } from './days';
import { addToDay, CHART_DAYS, windowsOf, type Day, type WindowName, type WindowStats } from './dayTotals';
import { DEFAULT_PRICES, type PriceTable } from './prices';
import type { RateLimitHeadroom, UsageRecord, UsageSource } from './record';
import { compareText } from '../text/format';

export { WINDOW_DAYS, type Percentiles, type WindowName, type WindowStats } from './dayTotals';

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
  /**
   * The deployment's answered requests by the model that answered them, when more than one did
   * (a model router, or a model upgraded in the period): most requests first.
   */
  answeredBy?: AnsweredBy[];
}

/** What one model answered for a deployment: its requests' figures, per window. */
export interface AnsweredBy {
  model: string;
  windows: Record<WindowName, WindowStats>;
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
  /** The answered requests again, by the model the answer named. */
  byModel: Map<string, Array<Day | undefined>>;
}

/** A request an answer came back to, so its record names the model that answered (not the deployment's). */
const answered = (r: UsageRecord) => r.outcome.kind === 'ok' || r.outcome.kind === 'stopped' || r.outcome.kind === 'content_filter';

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
    if (!g) byName.set(r.deployment, (g = { latest: { at: r.at, seq, record: r }, days: [], byModel: new Map() }));
    if (later(r.at, seq, g.latest)) g.latest = { at: r.at, seq, record: r };
    if (r.rateLimit && later(r.at, seq, g.headroom)) g.headroom = { at: r.at, seq, rateLimit: r.rateLimit };
    addToDay(g.days, day, r);
    if (r.model && answered(r)) {
      let days = g.byModel.get(r.model);
      if (!days) g.byModel.set(r.model, (days = []));
      addToDay(days, day, r);
    }
  }

  summary(): UsageSummary {
    const prices = this.options.prices ?? DEFAULT_PRICES;
    const deployments: DeploymentUsage[] = [];
    for (const g of [...this.groups.values()].flatMap((m) => [...m.values()])) {
      const { windows, costs } = windowsOf(g.days, prices);
      const daily = this.labels.map((_, i) => ({ tokensIn: g.days[i]?.counts[1] ?? 0, tokensOut: g.days[i]?.counts[3] ?? 0, cost: costs[i]?.cost }));
      const { connectionId, connectionLabel, deployment, model, modelVersion } = g.latest.record;
      const headroom = g.headroom && { ...g.headroom.rateLimit, at: g.headroom.at };
      // One model answering everything is the usual case, said by the row's model already.
      const answeredBy =
        g.byModel.size > 1
          ? [...g.byModel]
              .map(([m, days]) => ({ model: m, windows: windowsOf(days, prices).windows }))
              .sort((a, b) => b.windows.month.requests - a.windows.month.requests)
          : undefined;
      deployments.push({ connectionId, connectionLabel, deployment, model, modelVersion, windows, daily, headroom, answeredBy });
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
