/**
 * Exact nearest-rank p50 and p95 of request times: the times kept in a typed array (8 bytes each)
 * and found by selection in linear time, rather than sorted or sketched, so the user can check
 * them against the requests they made.
 */
import type { Percentiles } from './aggregate';

/** The request times of one window, in a typed array that grows by doubling. */
export class Times {
  private values = new Float64Array(64);
  private n = 0;

  push(ms: number): void {
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.n * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = ms;
  }

  /** Nearest-rank p50 and p95, found by selection (linear time) rather than a sort. */
  percentiles(): Percentiles | undefined {
    const n = this.n;
    if (!n) return undefined;
    const a = this.values;
    const r50 = Math.ceil(0.5 * n) - 1;
    const r95 = Math.ceil(0.95 * n) - 1;
    select(a, r95, 0, n - 1);
    // Everything before r95 is now at most a[r95]: the median is among them.
    select(a, r50, 0, r95);
    return { p50: a[r50], p95: a[r95] };
  }
}

/** Puts the k-th smallest of a[lo..hi] at a[k], smaller ones before it and larger after (Hoare's selection). */
export function select(a: Float64Array, k: number, lo: number, hi: number): void {
  // Stryker disable next-line EqualityOperator: a one-element range partitions to itself and returns
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    // Stryker disable next-line all: between j and i every value is the pivot, so a[k] is right already; going on would only sort elsewhere
    if (j < k && k < i) return;
    if (k <= j) hi = j;
    else lo = i;
  }
}
