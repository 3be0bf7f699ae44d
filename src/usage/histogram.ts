/**
 * Request times (whole milliseconds) counted in bins, so that days can be summed once, saved,
 * and merged into a window's p50 and p95 without keeping each time.
 *
 * The error bound, which the tests hold it to: a time under 1,024 ms has a bin of its own, so a
 * percentile there is exact (the nearest-rank one of the requests made). Above, a bin is 1/512 of
 * its lower end wide or less, and a percentile is its bin's middle: within 1/1024 (0.1 %) of the
 * exact one (±5 ms at 5 s), and never below the least time counted nor above the greatest (one
 * request's time is shown as it was). Times past 2^31 - 1 ms (24.8 days) count as that.
 */
import type { Percentiles } from './aggregate';

/** Bits of a time kept exactly: 2^10 exact bins, then 2^9 bins per doubling. */
const EXACT = 1024;
const HALF = EXACT / 2;
const MAX_MS = 2 ** 31 - 1;
/** Bins added past the one that did not fit, so that the next few fit. */
const SLACK = 64;

/** The bin of a time. */
export function binOf(ms: number): number {
  const v = Math.min(MAX_MS, Math.max(0, Math.round(ms)));
  // Stryker disable next-line EqualityOperator: 1,024 is the first wide bin's low end, the same either way
  if (v < EXACT) return v;
  // Bit length of v, from 11 on: the bin's width is 2^(bits - 10).
  const shift = 32 - Math.clz32(v) - 10;
  return EXACT + (shift - 1) * HALF + ((v >>> shift) - HALF);
}

/** The lowest time of a bin, and how many whole milliseconds it spans. */
export function binRange(bin: number): { low: number; width: number } {
  if (bin < EXACT) return { low: bin, width: 1 };
  const shift = Math.floor((bin - EXACT) / HALF) + 1;
  const width = 2 ** shift;
  // Stryker disable next-line ArithmeticOperator: bin + EXACT leaves the same remainder (2 * EXACT is a multiple of HALF)
  return { low: (((bin - EXACT) % HALF) + HALF) * width, width };
}

/** The time a bin stands for: its middle, rounded up (its only time when it is one millisecond wide). */
export function binValue(bin: number): number {
  const { low, width } = binRange(bin);
  return low + Math.floor(width / 2);
}

export class TimeHistogram {
  /** Counts from bin `first` on (grown as times come). */
  private counts = new Float64Array(0);
  private first = 0;
  total = 0;
  /** The least and greatest time counted (as their bins hold them: whole, within the cap). */
  private min = Infinity;
  private max = -Infinity;

  add(ms: number): void {
    const v = Math.min(MAX_MS, Math.max(0, Math.round(ms)));
    // Stryker disable next-line EqualityOperator: an equal time changes nothing
    if (v < this.min) this.min = v;
    // Stryker disable next-line EqualityOperator: the same
    if (v > this.max) this.max = v;
    this.addBin(binOf(v), 1);
  }

  private addBin(bin: number, n: number): void {
    // Stryker disable next-line all: growing when there is room already only copies the counts
    if (!this.counts.length || bin < this.first || bin >= this.first + this.counts.length) this.grow(bin);
    this.counts[bin - this.first] += n;
    this.total += n;
  }

  /** Makes room for `bin`, and some slack beyond it (times come in any order, mostly within a range). */
  private grow(bin: number): void {
    const old = this.counts;
    // Stryker disable next-line all: only how much room is made (room short of the bin fails to store it: the tests see that)
    const from = old.length ? Math.max(0, Math.min(this.first, bin - SLACK)) : bin;
    // Stryker disable next-line all: the same
    const to = old.length ? Math.max(this.first + old.length, bin + SLACK) : bin + SLACK;
    const grown = new Float64Array(to - from);
    // Stryker disable next-line ConditionalExpression: an empty copy changes nothing (the check only avoids a negative offset)
    if (old.length) grown.set(old, this.first - from);
    this.counts = grown;
    this.first = from;
  }

  /** Adds another histogram's counts. */
  merge(other: TimeHistogram): void {
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
    const c = other.counts;
    // Stryker disable next-line EqualityOperator: one past the end is undefined, skipped as an empty bin
    for (let i = 0; i < c.length; i++) if (c[i]) this.addBin(other.first + i, c[i]);
  }

  /** Nearest-rank p50 and p95 (see the error bound above); undefined when no time was counted. */
  percentiles(): Percentiles | undefined {
    if (!this.total) return undefined;
    return { p50: this.rank(Math.ceil(0.5 * this.total)), p95: this.rank(Math.ceil(0.95 * this.total)) };
  }

  /** The time of the `k`-th smallest (from 1). */
  private rank(k: number): number {
    // k is at most the total: the bins reach it.
    let seen = 0;
    let i = 0;
    for (; ; i++) {
      seen += this.counts[i];
      if (seen >= k) break;
    }
    return Math.min(this.max, Math.max(this.min, binValue(this.first + i)));
  }

  /** For the saved day summaries: the least and greatest time, the first bin, then the counts up to the last one counted. */
  toJSON(): number[] {
    if (!this.total) return [];
    let end = this.counts.length;
    while (!this.counts[end - 1]) end--;
    let start = 0;
    while (!this.counts[start]) start++;
    return [this.min, this.max, this.first + start, ...this.counts.subarray(start, end)];
  }

  /** Reads what `toJSON` wrote; undefined when it is not that. */
  static fromJSON(value: unknown): TimeHistogram | undefined {
    if (!Array.isArray(value)) return undefined;
    const h = new TimeHistogram();
    if (!value.length) return h;
    const [min, max, first, ...counts] = value as unknown[];
    if (!isCount(min) || !isCount(max) || !isCount(first) || min > max || !counts.length) return undefined;
    h.counts = new Float64Array(counts.length);
    h.first = first;
    h.min = min;
    h.max = max;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i];
      if (!isCount(c)) return undefined;
      h.counts[i] = c;
      h.total += c;
    }
    return h;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
