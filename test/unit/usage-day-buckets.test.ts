/**
 * Day buckets: a bucket merged from two holds what one bucket of all their records holds (the
 * latest names and headers by time, then by place in the file), and saved buckets go on the day
 * of the view their records fall on, merged with one of the same key there.
 */
import assert from 'node:assert/strict';
import { foldBuckets } from '../../src/usage/aggregate';
import { Bucket, DayBuckets } from '../../src/usage/dayBuckets';
import { ianaZone } from '../../src/usage/days';
import type { UsageRecord } from '../../src/usage/record';
import { NOW, usageRecord as rec } from '../support/usageRecords';

const UTC = ianaZone('UTC');
const H = 3_600_000;

/** A bucket's figures, to compare two. */
const figures = (b: Bucket) => JSON.stringify({ ...b, firstToken: b.firstToken.toJSON(), total: b.total.toJSON() });

function records(): UsageRecord[] {
  let seed = 3;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: 200 }, (_, i) =>
    rec({
      // Times repeat: ties are broken by the place in the file.
      at: NOW - H + Math.floor(rand() * 20) * 1000,
      connectionLabel: `label ${i}`,
      tokens: { prompt: Math.floor(rand() * 100), cached: Math.floor(rand() * 150), completion: i, reasoning: 1 },
      totalMs: Math.floor(rand() * 5000),
      firstTokenMs: i % 3 ? Math.floor(rand() * 900) : undefined,
      outcome: i % 10 === 0 ? { kind: 'rate_limited' } : i % 10 === 1 ? { kind: 'error', status: 500 } : { kind: 'ok' },
      requests: i % 7 === 0 ? 3 : undefined,
      rateLimit: i % 4 === 0 ? { remainingRequests: i } : undefined,
    }),
  );
}

describe('usage day buckets', () => {
  it('merged from two, hold what one bucket of all the records holds, whichever half came first', () => {
    const rs = records();
    const all = new Bucket(0, rs[0]);
    rs.forEach((r, i) => all.add(r, i));
    for (const split of [1, 50, 120, 199]) {
      const first = new Bucket(0, rs[0]);
      const second = new Bucket(0, rs[0]);
      rs.forEach((r, i) => (i < split ? first : second).add(r, i));
      const a = new Bucket(0, rs[0]);
      a.merge(first);
      a.merge(second);
      assert.equal(figures(a), figures(all), `split at ${split}`);
      // The later half merged first: the latest names and headers are still the latest ones.
      const b = new Bucket(0, rs[0]);
      b.merge(second);
      b.merge(first);
      assert.equal(figures(b), figures(all), `split at ${split}, reversed`);
    }
    assert.ok(all.cachedForCost < all.cached, 'cached past the prompt is capped for the price');
    assert.equal(all.requests, 200 + 2 * 29);
  });

  it('folds days wholly before the age cap out, and gives nothing for a day the cap cuts', () => {
    const all = new DayBuckets(NOW, UTC);
    all.add(rec({ at: NOW - 50 * H }));
    all.add(rec({ at: NOW - H }));
    assert.equal(foldBuckets(all, { now: NOW, zone: UTC, notBefore: NOW - 24 * H })?.records, 1);
    assert.equal(foldBuckets(all, { now: NOW, zone: UTC, notBefore: NOW - 2 * H })?.records, 1);
    all.add(rec({ at: NOW - 3 * H }));
    assert.equal(foldBuckets(all, { now: NOW, zone: UTC, notBefore: NOW - 2 * H }), undefined);
  });

  it('counts a line that was not a record in the places of the lines, so the later of two records at one time still wins', () => {
    const b = new DayBuckets(NOW, UTC);
    b.add(rec({ connectionLabel: 'A' }));
    b.skip();
    b.add(rec({ connectionLabel: 'B' }));
    assert.deepEqual([b.lines, b.skipped, foldBuckets(b)?.deployments[0].connectionLabel], [3, 1, 'B']);
  });

  it('puts a saved bucket on the view\'s day of its records, merged with one of the same key, and refuses one across two days', () => {
    const view = new DayBuckets(NOW, UTC);
    const early = new Bucket(0, rec());
    early.add(rec({ at: NOW - 3 * H, tokens: { prompt: 5 } }), 0);
    const late = new Bucket(1, rec());
    late.add(rec({ at: NOW - 2 * H, tokens: { prompt: 7 } }), 1);
    assert.equal(view.put(early), true);
    assert.equal(view.put(late), true);
    const placed = [...view.all()];
    assert.equal(placed.length, 1);
    assert.deepEqual([placed[0][1], placed[0][0].prompt, placed[0][0].day], [29, 12, Date.parse('2026-11-20T00:00:00Z')]);
    const across = new Bucket(0, rec());
    across.add(rec({ at: NOW - 20 * H }), 2);
    across.add(rec({ at: NOW - 2 * H }), 3);
    assert.equal(view.put(across), false);
    // Older than the view's days: nothing to show, nothing wrong.
    const old = new Bucket(0, rec());
    old.add(rec({ at: NOW - 40 * 24 * H }), 4);
    assert.equal(view.put(old), true);
    assert.equal([...view.all()].length, 1);
  });
});
