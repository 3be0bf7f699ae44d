/**
 * Binned request times: a percentile is exact below 1,024 ms and within 0.1 % above, never
 * outside the times counted, and a histogram merged or saved and read back gives the same.
 */
import assert from 'node:assert/strict';
import { binOf, binRange, binValue, TimeHistogram } from '../../src/usage/histogram';

let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

/** Exact nearest-rank percentile of the times. */
function exact(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.ceil(q * sorted.length) - 1];
}

describe('usage time histogram', () => {
  it('gives each time under 1,024 ms a bin of its own, and wider bins above that hold the time within 0.1 %', () => {
    for (let v = 0; v < 1024; v++) assert.deepEqual([binOf(v), binValue(binOf(v))], [v, v]);
    assert.equal(binOf(1024), 1024);
    assert.deepEqual(binRange(1024), { low: 1024, width: 2 });
    assert.equal(binOf(1025), 1024);
    assert.equal(binOf(1026), 1025);
    assert.deepEqual(binRange(binOf(2048)), { low: 2048, width: 4 });
    assert.deepEqual(binRange(binOf(2047)), { low: 2046, width: 2 });
    // Rounded to whole milliseconds, never below 0, capped at 2^31 - 1.
    assert.equal(binOf(2.4), 2);
    assert.equal(binOf(2.6), 3);
    assert.equal(binOf(-5), 0);
    assert.equal(binOf(1e15), binOf(2 ** 31 - 1));
    for (let i = 0; i < 20_000; i++) {
      const v = Math.floor(rand() ** 3 * 2 ** 31);
      const bin = binOf(v);
      const { low, width } = binRange(bin);
      assert.ok(low <= v && v < low + width, `${v} in [${low}, ${low + width})`);
      assert.ok(width === 1 || width <= low / 512, `${v}: width ${width}`);
      assert.ok(Math.abs(binValue(bin) - v) <= v / 1024, `${v} shown as ${binValue(bin)}`);
      // The bins are in the order of their times, with no gap (up to the cap's).
      if (low + width < 2 ** 31) assert.equal(binOf(low + width), bin + 1);
    }
  });

  it('gives p50 and p95 within the bound of the exact nearest-rank ones, and exact ones below a second', () => {
    for (let round = 0; round < 60; round++) {
      const n = 1 + Math.floor(rand() * 3000);
      const scale = [900, 20_000, 600_000][round % 3];
      const times = Array.from({ length: n }, () => Math.floor(rand() * scale));
      const h = new TimeHistogram();
      for (const t of times) h.add(t);
      const p = h.percentiles()!;
      for (const [q, got] of [[0.5, p.p50], [0.95, p.p95]] as const) {
        const want = exact(times, q);
        if (scale < 1024) assert.equal(got, want, `round ${round}, p${q * 100}`);
        else assert.ok(Math.abs(got - want) <= want / 1024, `round ${round}, p${q * 100}: ${got} for ${want}`);
      }
    }
    assert.equal(new TimeHistogram().percentiles(), undefined);
  });

  it('never shows a time below the least or above the greatest counted', () => {
    const one = new TimeHistogram();
    one.add(3000);
    assert.deepEqual(one.percentiles(), { p50: 3000, p95: 3000 });
    const two = new TimeHistogram();
    two.add(5001);
    two.add(5003);
    // Both in the bin 5000-5007, whose middle 5004 is more than the greatest: shown as that.
    assert.deepEqual(two.percentiles(), { p50: 5003, p95: 5003 });
    for (let i = 0; i < 3; i++) two.add(4003);
    // The median is now the least, in the bin 4000-4003 whose middle 4002 is below it: shown as 4003.
    assert.deepEqual(two.percentiles(), { p50: 4003, p95: 5003 });
  });

  it('counts a negative time as 0 and one past the cap as the cap, shown as such', () => {
    const below = new TimeHistogram();
    below.add(-5);
    assert.deepEqual(below.percentiles(), { p50: 0, p95: 0 });
    const above = new TimeHistogram();
    above.add(1e15);
    assert.deepEqual(above.percentiles(), { p50: 2 ** 31 - 1, p95: 2 ** 31 - 1 });
  });

  it('merges histograms into the one of all their times, in any order of arrival', () => {
    const all = new TimeHistogram();
    const parts = [new TimeHistogram(), new TimeHistogram(), new TimeHistogram()];
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      // Far apart and in any order: the counts grow down and up.
      const t = i % 7 === 0 ? 50_000 + i : i % 5 === 0 ? 3 : 4000 - i;
      times.push(t);
      all.add(t);
      parts[i % 3].add(t);
    }
    const merged = new TimeHistogram();
    for (const p of parts) merged.merge(p);
    merged.merge(new TimeHistogram());
    assert.deepEqual(merged.percentiles(), all.percentiles());
    assert.equal(merged.total, 2000);
    assert.deepEqual(merged.toJSON(), all.toJSON());
    const p = all.percentiles()!;
    assert.ok(Math.abs(p.p95 - exact(times, 0.95)) <= exact(times, 0.95) / 1024);
  });

  it('reads back what it saved, and nothing from a value that is not a saved histogram', () => {
    const h = new TimeHistogram();
    for (const t of [700, 700, 1500, 90_000, 12]) h.add(t);
    const saved = h.toJSON();
    assert.deepEqual(saved.slice(0, 3), [12, 90_000, 12], 'least, greatest, first bin');
    const back = TimeHistogram.fromJSON(JSON.parse(JSON.stringify(saved)))!;
    assert.deepEqual([back.total, back.percentiles(), back.toJSON()], [5, h.percentiles(), saved]);
    assert.deepEqual(new TimeHistogram().toJSON(), []);
    assert.equal(TimeHistogram.fromJSON([])?.total, 0);
    for (const bad of [undefined, 'x', {}, [1], [5, 4, 0, 1], [1, 2, 3], [1, 2, -1, 1], [1, 2, 3, 1.5], [1, 2, 3, 'a'], [1.5, 2, 3, 1], [1, 2.5, 3, 1], [1, 2, 3, -1]]) {
      assert.equal(TimeHistogram.fromJSON(bad), undefined, JSON.stringify(bad));
    }
  });
});
