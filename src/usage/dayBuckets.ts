/**
 * Usage records summed per day: one bucket per local day, connection, deployment, model and
 * version, and source, holding what the view's tables are made of (counts, tokens, the inputs of
 * the cost, 429s, the request times in bins, the latest names and rate-limit headers). Buckets are
 * what the day summaries beside the log keep, so that days already read are not read again; the
 * view's filters (connection, source) and prices apply when the buckets are folded into tables.
 */
import { DayIndex, lastDays, type ZoneOffset } from './days';
import { TimeHistogram } from './histogram';
import type { RateLimitHeadroom, UsageRecord, UsageSource } from './record';

/** The days a view shows (the month's window): older records are never summed. */
export const BUCKET_DAYS = 30;

export class Bucket {
  /** When its local day starts. */
  day: number;
  readonly connectionId: string;
  readonly deployment: string;
  readonly model?: string;
  readonly modelVersion?: string;
  readonly source: UsageSource;
  /** The first and last instants of its records: which day of a view it belongs to. */
  minAt = Infinity;
  maxAt = -Infinity;
  /** Its latest record by time, then by place in the file (`seq`): the names shown. */
  lastAt = -Infinity;
  // Stryker disable next-line UnaryOperator,StringLiteral: any start: the first record's time is later than -Infinity
  lastSeq = -1;
  // Stryker disable next-line StringLiteral: the same
  label = '';
  records = 0;
  requests = 0;
  prompt = 0;
  cached = 0;
  /** Cached tokens as the price counts them: never more than the record's prompt. */
  cachedForCost = 0;
  completion = 0;
  reasoning = 0;
  rateLimited = 0;
  errors = 0;
  firstToken = new TimeHistogram();
  total = new TimeHistogram();
  headroom?: RateLimitHeadroom;
  headroomAt = -Infinity;
  // Stryker disable next-line UnaryOperator: the same
  headroomSeq = -1;

  constructor(day: number, r: Pick<UsageRecord, 'connectionId' | 'deployment' | 'model' | 'modelVersion' | 'source'>) {
    this.day = day;
    this.connectionId = r.connectionId;
    this.deployment = r.deployment;
    this.model = r.model;
    this.modelVersion = r.modelVersion;
    this.source = r.source;
  }

  matches(r: Pick<UsageRecord, 'model' | 'modelVersion' | 'source'>): boolean {
    return this.source === r.source && this.model === r.model && this.modelVersion === r.modelVersion;
  }

  add(r: UsageRecord, seq: number): void {
    if (r.at < this.minAt) this.minAt = r.at;
    // Stryker disable next-line EqualityOperator: an equal time changes nothing
    if (r.at > this.maxAt) this.maxAt = r.at;
    if (later(r.at, seq, this.lastAt, this.lastSeq)) {
      this.lastAt = r.at;
      this.lastSeq = seq;
      this.label = r.connectionLabel;
    }
    // A batch's record stands for its requests of one minute and outcome; a request's record for one.
    const n = r.requests ?? 1;
    const t = r.tokens;
    this.records++;
    this.requests += n;
    this.prompt += t.prompt;
    this.cached += t.cached;
    this.cachedForCost += Math.min(t.cached, t.prompt);
    this.completion += t.completion;
    this.reasoning += t.reasoning;
    const kind = r.outcome.kind;
    if (kind === 'rate_limited') this.rateLimited += n;
    else if (kind === 'error') this.errors += n;
    // Times only where they were measured (never for a batch's lines), of requests that completed.
    else if (kind === 'ok') {
      if (r.firstTokenMs !== undefined) this.firstToken.add(r.firstTokenMs);
      if (r.totalMs !== undefined) this.total.add(r.totalMs);
    }
    if (r.rateLimit && later(r.at, seq, this.headroomAt, this.headroomSeq)) {
      this.headroom = r.rateLimit;
      this.headroomAt = r.at;
      this.headroomSeq = seq;
    }
  }

  /** Adds another bucket of the same key (its day read from another summary, or the same). */
  merge(o: Bucket): void {
    this.minAt = Math.min(this.minAt, o.minAt);
    this.maxAt = Math.max(this.maxAt, o.maxAt);
    if (later(o.lastAt, o.lastSeq, this.lastAt, this.lastSeq)) {
      this.lastAt = o.lastAt;
      this.lastSeq = o.lastSeq;
      this.label = o.label;
    }
    this.records += o.records;
    this.requests += o.requests;
    this.prompt += o.prompt;
    this.cached += o.cached;
    this.cachedForCost += o.cachedForCost;
    this.completion += o.completion;
    this.reasoning += o.reasoning;
    this.rateLimited += o.rateLimited;
    this.errors += o.errors;
    this.firstToken.merge(o.firstToken);
    this.total.merge(o.total);
    if (o.headroom && later(o.headroomAt, o.headroomSeq, this.headroomAt, this.headroomSeq)) {
      this.headroom = o.headroom;
      this.headroomAt = o.headroomAt;
      this.headroomSeq = o.headroomSeq;
    }
  }
}

/** Whether (at, seq) comes after (at0, seq0): by time, and for the same time by place in the file. */
// Stryker disable next-line EqualityOperator: two lines never have the same place
const later = (at: number, seq: number, at0: number, seq0: number) => at > at0 || (at === at0 && seq > seq0);

/** The buckets of the view's days (`BUCKET_DAYS` up to today, in one zone), filled from records or merged from saved ones. */
export class DayBuckets {
  /** The days, oldest first, as local "YYYY-MM-DD", and the instants they start (with tomorrow's). */
  readonly labels: string[];
  readonly starts: number[];
  readonly index: DayIndex;
  /** Connection, then deployment, then the day's buckets (a few: one per source and model). */
  private readonly byName = new Map<string, Map<string, Bucket[][]>>();
  /** Lines seen (records or not): the next one's place in the file. */
  lines = 0;
  /** Lines that were not records. */
  skipped = 0;

  /** `notBefore`: records made before it are left out (the log's age cap). */
  constructor(
    now: number,
    zone: ZoneOffset,
    private readonly notBefore = -Infinity,
  ) {
    ({ labels: this.labels, starts: this.starts } = lastDays(now, BUCKET_DAYS, zone));
    this.index = new DayIndex(this.starts);
  }

  skip(): void {
    this.lines++;
    this.skipped++;
  }

  add(r: UsageRecord): void {
    const seq = this.lines++;
    const day = this.index.of(r.at);
    // Stryker disable next-line ConditionalExpression: a bucket before the first day would never be folded (only the memory it takes)
    if (day < 0 || r.at < this.notBefore) return;
    const days = this.daysOf(r.connectionId, r.deployment);
    const list = (days[day] ??= []);
    let b: Bucket | undefined;
    for (let i = 0; i < list.length; i++) if (list[i].matches(r)) b = list[i];
    if (!b) list.push((b = new Bucket(this.starts[day], r)));
    b.add(r, seq);
  }

  /**
   * Puts a saved bucket in its day of this view, merged with one of the same key there; false
   * when its records fall on two days of this view (it was made in another time zone).
   */
  put(b: Bucket): boolean {
    const day = this.index.of(b.minAt);
    if (day !== this.index.of(b.maxAt)) return false;
    // Stryker disable next-line ConditionalExpression: the same: never folded
    if (day < 0) return true;
    b.day = this.starts[day];
    const list = (this.daysOf(b.connectionId, b.deployment)[day] ??= []);
    const same = list.find((x) => x.matches(b));
    if (same) same.merge(b);
    else list.push(b);
    return true;
  }

  private daysOf(connectionId: string, deployment: string): Bucket[][] {
    let byDeployment = this.byName.get(connectionId);
    if (!byDeployment) this.byName.set(connectionId, (byDeployment = new Map()));
    let days = byDeployment.get(deployment);
    if (!days) byDeployment.set(deployment, (days = []));
    return days;
  }

  /** Every bucket with its day of this view (0 = the oldest), day by day, in the order they were made. */
  *all(): Iterable<[Bucket, number]> {
    for (const byDeployment of this.byName.values())
      for (const days of byDeployment.values())
        // Stryker disable next-line EqualityOperator: one past the last day has no buckets
        for (let d = 0; d < days.length; d++) for (const b of days[d] ?? []) yield [b, d];
  }
}
