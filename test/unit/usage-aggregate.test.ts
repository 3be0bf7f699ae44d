/**
 * The usage view's tables: per deployment for today, 7 and 30 days (requests, tokens with cached
 * and reasoning apart, p50/p95, 429s, estimated cost), per day for the chart in the user's
 * time zone, the latest rate-limit headroom, and the filters.
 */
import assert from 'node:assert/strict';
import { aggregateUsage, type AggregateOptions } from '../../src/usage/aggregate';
import { lastDays } from '../../src/usage/days';
import { ianaZone } from '../support/zones';
import { NOW, usageRecord } from '../support/usageRecords';
import type { UsageRecord } from '../../src/usage/record';

const H = 3_600_000;
const D = 24 * H;
const UTC = ianaZone('UTC');

const rec = usageRecord;
const summarize = (records: Array<UsageRecord | undefined>, options: AggregateOptions = {}) => aggregateUsage(records, { now: NOW, zone: UTC, ...options });
const GPT4O_COST = (600 * 2.5 + 400 * 1.25 + 500 * 10) / 1e6;

describe('usage aggregation', () => {
  it('counts a request in today, 7 and 30 days by the calendar day it was made, and leaves older ones out', async () => {
    const s = await summarize([rec(), rec({ at: NOW - 3 * D }), rec({ at: NOW - 20 * D }), rec({ at: NOW - 40 * D }), rec({ at: NOW - 12 * H - 1 })]);
    const w = s.deployments[0].windows;
    assert.deepEqual([w.today.requests, w.week.requests, w.month.requests], [1, 3, 4]);
    assert.equal(s.records, 4);
    assert.equal(s.days.length, 30);
    assert.equal(s.days[29], '2026-11-20');
    assert.equal(s.days[0], '2026-10-22');
  });

  it('counts a request of exactly 7 days ago in the 30 days only, and one of 29 days ago still in them', async () => {
    const s = await summarize([rec({ at: NOW - 7 * D }), rec({ at: NOW - 6 * D }), rec({ at: NOW - 29 * D }), rec({ at: NOW - 30 * D })]);
    const w = s.deployments[0].windows;
    assert.deepEqual([w.today.requests, w.week.requests, w.month.requests], [0, 1, 3]);
  });

  it('takes names from the later line when two records have the same time', async () => {
    const s = await summarize([rec({ connectionLabel: 'First', modelVersion: '1' }), rec({ connectionLabel: 'Second', modelVersion: '2' })]);
    assert.deepEqual([s.deployments[0].connectionLabel, s.deployments[0].modelVersion, s.connections[0].label], ['Second', '2', 'Second']);
    const h = await summarize([
      rec({ rateLimit: { remainingRequests: 1, remainingTokens: 1 } }),
      rec({ rateLimit: { remainingRequests: 2, remainingTokens: 2 } }),
    ]);
    assert.equal(h.deployments[0].headroom?.remainingRequests, 2);
    // The same across sources (and buckets): the later line wins, whichever source it came from.
    for (const [first, second] of [['compare', 'panel'], ['panel', 'compare']] as const) {
      const both = await summarize([
        rec({ source: first, connectionLabel: 'First', rateLimit: { remainingRequests: 1 } }),
        rec({ source: second, connectionLabel: 'Second', rateLimit: { remainingRequests: 2 } }),
      ]);
      assert.deepEqual([both.deployments[0].headroom?.remainingRequests, both.deployments[0].connectionLabel, both.connections[0].label], [2, 'Second', 'Second']);
    }
  });

  it('names a deployment and its connection after the latest record, and keeps its latest headers, whichever source came first', async () => {
    const H2 = 2 * H;
    const s = await summarize([
      rec({ source: 'compare', at: NOW - H, connectionLabel: 'Newer', rateLimit: { remainingRequests: 5 } }),
      rec({ source: 'panel', at: NOW - H2, connectionLabel: 'Older', rateLimit: { remainingRequests: 9 } }),
    ]);
    assert.deepEqual([s.deployments[0].connectionLabel, s.deployments[0].headroom?.remainingRequests, s.connections[0].label], ['Newer', 5, 'Newer']);
    // The same time: the later line, though its source's bucket came first.
    const tie = await summarize([
      rec({ source: 'compare', connectionLabel: 'A', rateLimit: { remainingRequests: 1 } }),
      rec({ source: 'panel', connectionLabel: 'B', rateLimit: { remainingRequests: 2 } }),
      rec({ source: 'compare', connectionLabel: 'C', rateLimit: { remainingRequests: 3 } }),
    ]);
    assert.deepEqual([tie.deployments[0].connectionLabel, tie.deployments[0].headroom?.remainingRequests, tie.connections[0].label], ['C', 3, 'C']);
  });

  it('prices cached tokens past a record\'s prompt as the prompt only', async () => {
    const prices = new Map([['gpt-4o', { input: 2, cachedInput: 1, output: 0 }]]);
    const s = await summarize([rec({ tokens: { prompt: 100, cached: 300 } }), rec({ tokens: { prompt: 100, cached: 0 } })], { prices });
    assert.deepEqual([s.deployments[0].windows.today.cachedTokens, s.deployments[0].windows.today.cost], [300, (100 * 1 + 100 * 2) / 1e6]);
  });

  it('prices each record at its own version when a deployment moves to another', async () => {
    const prices = new Map([['gpt-4o', { input: 2.5, output: 10 }], ['gpt-4o@2024-05-13', { input: 5, output: 15 }]]);
    const tokens = { prompt: 1e6, cached: 0, completion: 0, reasoning: 0 };
    const s = await summarize([rec({ modelVersion: '2024-05-13', tokens }), rec({ modelVersion: '2024-11-20', tokens }), rec({ modelVersion: '2024-05-13', tokens })], { prices });
    assert.equal(s.deployments[0].windows.today.cost, 12.5);
  });

  it('leaves out records made before the log\'s age cap, the one made at the cap itself counted', async () => {
    const s = await summarize([rec({ at: NOW - 10 * D }), rec({ at: NOW - 5 * D }), rec({ at: NOW - 5 * D - 1 })], { notBefore: NOW - 5 * D });
    assert.equal(s.deployments[0].windows.month.requests, 1);
    assert.equal(s.records, 1);
  });

  it('sums tokens with cached input and reasoning apart, and counts 429s and other errors', async () => {
    const s = await summarize([
      rec(),
      rec({ tokens: { prompt: 10, cached: 0, completion: 20, reasoning: 5 } }),
      rec({ outcome: { kind: 'rate_limited', waitMs: 3000 }, tokens: {} }),
      rec({ outcome: { kind: 'rate_limited' }, tokens: {} }),
      rec({ outcome: { kind: 'error', status: 500 }, tokens: {} }),
      rec({ outcome: { kind: 'content_filter' } }),
    ]);
    const t = s.deployments[0].windows.today;
    assert.deepEqual(
      [t.requests, t.promptTokens, t.cachedTokens, t.completionTokens, t.reasoningTokens, t.rateLimited, t.errors],
      [6, 2010, 800, 1020, 205, 2, 1],
    );
  });

  it('gives nearest-rank p50 and p95 of the requests that completed, per window, exact below a second', async () => {
    const records = Array.from({ length: 100 }, (_, i) => rec({ totalMs: 100 - i, firstTokenMs: (i + 1) * 10 }));
    records.push(rec({ totalMs: 99_999, firstTokenMs: 99_999, outcome: { kind: 'error', status: 500 } }));
    records.push(rec({ totalMs: 99_999, firstTokenMs: 99_999, outcome: { kind: 'stopped' } }));
    records.push(rec({ totalMs: 7, firstTokenMs: undefined, at: NOW - 2 * D }));
    const s = await summarize(records);
    const w = s.deployments[0].windows;
    assert.deepEqual(w.today.totalMs, { p50: 50, p95: 95 });
    assert.deepEqual(w.today.firstTokenMs, { p50: 500, p95: 950 });
    // The week adds one completed request without a first token: it counts in the total only.
    assert.deepEqual(w.week.totalMs, { p50: 50, p95: 95 });
    assert.deepEqual(w.week.firstTokenMs, { p50: 500, p95: 950 });
    const one = await summarize([rec({ totalMs: 42, firstTokenMs: undefined })]);
    assert.deepEqual(one.deployments[0].windows.today.totalMs, { p50: 42, p95: 42 });
    assert.equal(one.deployments[0].windows.today.firstTokenMs, undefined);
    const none = await summarize([rec({ outcome: { kind: 'rate_limited' } })]);
    assert.equal(none.deployments[0].windows.month.totalMs, undefined);
    // Shuffled: the median is found among the values left below the 95th.
    const shuffled = Array.from({ length: 200 }, (_, i) => ((i * 73) % 200) + 1);
    const mixed = await summarize(shuffled.map((ms) => rec({ totalMs: ms, firstTokenMs: 1000 - ms })));
    assert.deepEqual(mixed.deployments[0].windows.today.totalMs, { p50: 100, p95: 190 });
    assert.deepEqual(mixed.deployments[0].windows.today.firstTokenMs, { p50: 899, p95: 989 });
    const three = await summarize([rec({ totalMs: 30 }), rec({ totalMs: 10 }), rec({ totalMs: 20 })]);
    assert.deepEqual(three.deployments[0].windows.today.totalMs, { p50: 20, p95: 30 });
  });

  it('gives exact p50 and p95 of a day of 200,000 requests to one deployment, the slowest over a minute', async () => {
    const times = Array.from({ length: 200_000 }, (_, i) => ((i * 7919) % 200_000) + 1);
    const s = await summarize(times.map((ms) => rec({ totalMs: ms * 1000, firstTokenMs: ms })));
    assert.deepEqual(s.deployments[0].windows.today.totalMs, { p50: 100_000_000, p95: 190_000_000 });
    assert.deepEqual(s.deployments[0].windows.month.firstTokenMs, { p50: 100_000, p95: 190_000 });
  });

  it('counts a batch record as the requests it stands for, its failures too, and keeps its unknown times out of the percentiles', async () => {
    const s = await summarize([
      rec({ totalMs: 1000, firstTokenMs: 300 }),
      rec({ source: 'batch', requests: 40, firstTokenMs: undefined, totalMs: undefined, tokens: { prompt: 4000, cached: 0, completion: 2000, reasoning: 0 } }),
      rec({ source: 'batch', requests: 3, firstTokenMs: undefined, totalMs: undefined, outcome: { kind: 'error', status: 400 }, tokens: {} }),
      rec({ source: 'batch', firstTokenMs: undefined, totalMs: undefined, outcome: { kind: 'rate_limited' }, tokens: {} }),
    ]);
    const w = s.deployments[0].windows.today;
    assert.deepEqual([w.requests, w.errors, w.rateLimited, w.promptTokens, w.completionTokens], [45, 3, 1, 5000, 2500]);
    assert.deepEqual(w.totalMs, { p50: 1000, p95: 1000 }, 'only the measured request');
    assert.deepEqual(w.firstTokenMs, { p50: 300, p95: 300 });
  });

  it('estimates cost from the model and version, at half price for batches, and none for a model without a price', async () => {
    const s = await summarize([
      rec(),
      rec({ source: 'batch' }),
      rec({ deployment: 'ft', model: 'my-fine-tune' }),
      rec({ deployment: 'mixed', model: 'my-fine-tune' }),
      rec({ deployment: 'mixed', model: 'gpt-4o' }),
      rec({ deployment: 'old', model: 'gpt-4o', modelVersion: '2024-05-13' }),
    ], { prices: new Map([['gpt-4o', { input: 2.5, cachedInput: 1.25, output: 10 }], ['gpt-4o@2024-05-13', { input: 5, output: 15 }]]) });
    const by = (name: string) => s.deployments.find((d) => d.deployment === name)!.windows.today;
    assert.ok(Math.abs(by('gpt-4o').cost! - GPT4O_COST * 1.5) < 1e-12);
    assert.equal(by('gpt-4o').unpricedRequests, 0);
    assert.equal(by('ft').cost, undefined, 'no price: no cost, not 0');
    assert.equal(by('ft').unpricedRequests, 1);
    assert.equal(by('mixed').cost, GPT4O_COST);
    assert.equal(by('mixed').unpricedRequests, 1);
    assert.equal(by('old').cost, (1000 * 5 + 500 * 15) / 1e6);
  });

  it('puts tokens and cost on the local day for the chart, across a daylight-saving change', async () => {
    const ny = ianaZone('America/New_York');
    const now = Date.parse('2026-11-02T15:00:00Z');
    // 2026-11-01 is 25 hours long in New York: 00:30 and 23:30 local both fall on it.
    const records = [
      rec({ at: Date.parse('2026-11-01T04:30:00Z'), tokens: { prompt: 1, completion: 2 } }),
      rec({ at: Date.parse('2026-11-02T04:30:00Z'), tokens: { prompt: 10, completion: 20 } }),
      rec({ at: Date.parse('2026-11-02T05:30:00Z'), tokens: { prompt: 100, completion: 200 }, deployment: 'ft', model: 'my-ft' }),
      rec({ at: Date.parse('2026-11-01T03:30:00Z'), tokens: { prompt: 1000, completion: 2000 } }),
    ];
    const s = await aggregateUsage(records, { now, zone: ny });
    const day = (label: string, dep = 'gpt-4o') => s.deployments.find((d) => d.deployment === dep)!.daily[s.days.indexOf(label)];
    assert.equal(s.days.at(-1), '2026-11-02');
    assert.deepEqual([day('2026-11-01').tokensIn, day('2026-11-01').tokensOut], [11, 22]);
    assert.deepEqual([day('2026-10-31').tokensIn, day('2026-10-31').tokensOut], [1000, 2000]);
    assert.equal(day('2026-11-01').cost, (11 * 2.5 + 22 * 10) / 1e6);
    assert.deepEqual(day('2026-11-02', 'ft'), { tokensIn: 100, tokensOut: 200, cost: undefined });
    assert.deepEqual(day('2026-11-02'), { tokensIn: 0, tokensOut: 0, cost: undefined });
    assert.equal(s.deployments.find((d) => d.deployment === 'ft')!.windows.today.requests, 1);
    // The same records seen from UTC fall on other days.
    const utc = await aggregateUsage(records, { now, zone: UTC });
    const gpt = utc.deployments.find((d) => d.deployment === 'gpt-4o')!;
    assert.deepEqual([utc.days.indexOf('2026-11-01'), gpt.daily[utc.days.indexOf('2026-11-01')].tokensIn], [28, 1001]);
    assert.equal(gpt.daily[utc.days.indexOf('2026-11-02')].tokensIn, 10);
  });

  it('keeps the latest rate-limit headroom of each deployment, by when it came, not by file order', async () => {
    const s = await summarize([
      rec({ at: NOW - 2 * H, rateLimit: { remainingRequests: 10, remainingTokens: 1000 } }),
      rec({ at: NOW - 3 * H, rateLimit: { remainingRequests: 99, remainingTokens: 9999 } }),
      rec({ at: NOW - H }),
      rec({ at: NOW - 2 * H, deployment: 'other' }),
    ]);
    const h = s.deployments.find((d) => d.deployment === 'gpt-4o')!.headroom;
    assert.deepEqual(h, { remainingRequests: 10, remainingTokens: 1000, limitRequests: undefined, limitTokens: undefined, at: NOW - 2 * H });
    assert.equal(s.deployments.find((d) => d.deployment === 'other')!.headroom, undefined);
  });

  it('keeps deployments of the same name on two connections apart, named after their latest record', async () => {
    const s = await summarize([
      rec({ connectionLabel: 'Old name', at: NOW - 5 * H }),
      rec({ connectionLabel: 'Emulator', at: NOW - H, modelVersion: '2025-01-01' }),
      rec({ connectionLabel: 'Stale', at: NOW - 9 * H }),
      rec({ connectionId: 'c2', connectionLabel: 'Azure' }),
    ]);
    assert.deepEqual(s.deployments.map((d) => [d.connectionLabel, d.deployment, d.windows.today.requests, d.modelVersion]), [
      ['Azure', 'gpt-4o', 1, '2024-11-20'],
      ['Emulator', 'gpt-4o', 3, '2025-01-01'],
    ]);
    assert.deepEqual(s.connections, [{ id: 'c2', label: 'Azure' }, { id: 'c1', label: 'Emulator' }]);
  });

  it('filters by connection and by source, still listing every connection for the filter', async () => {
    const records = [
      rec(),
      rec({ source: 'compare' }),
      rec({ connectionId: 'c2', connectionLabel: 'Azure', source: 'vscode-chat' }),
      rec({ connectionId: 'c3', connectionLabel: 'Old', at: NOW - 45 * D }),
    ];
    const byConn = await summarize(records, { filter: { connections: ['c2'] } });
    assert.deepEqual(byConn.deployments.map((d) => d.connectionId), ['c2']);
    assert.deepEqual(byConn.connections.map((c) => c.id), ['c2', 'c1']);
    assert.equal(byConn.records, 1);
    const bySource = await summarize(records, { filter: { sources: ['compare', 'vscode-chat'] } });
    assert.deepEqual(bySource.deployments.map((d) => [d.connectionId, d.windows.today.requests]), [['c2', 1], ['c1', 1]]);
    const both = await summarize(records, { filter: { connections: ['c1'], sources: ['panel'] } });
    assert.equal(both.deployments[0].windows.today.requests, 1);
    assert.equal((await summarize(records, { filter: { sources: [] } })).deployments.length, 0);
  });

  it('counts lines that were not records, and sums records read a chunk at a time too', async () => {
    // The later of two records at one time names the deployment, lines that were not records between them.
    const lines = await summarize([undefined, rec({ connectionLabel: 'First' }), undefined, rec({ connectionLabel: 'Second' })]);
    assert.deepEqual([lines.skipped, lines.records, lines.deployments[0].connectionLabel], [2, 2, 'Second']);
    async function* gen() {
      yield [rec(), undefined];
      yield [rec({ at: NOW - D })];
    }
    assert.equal((await aggregateUsage(gen(), { now: NOW, zone: UTC })).deployments[0].windows.week.requests, 2);
    const empty = await summarize([]);
    assert.deepEqual([empty.deployments, empty.connections, empty.records, empty.skipped], [[], [], 0, 0]);
  });

  it('puts a record on its local day from the day\'s first instant, and one after today (a clock set back) on today', async () => {
    const now = Date.parse('2026-11-02T12:00:00Z');
    const ny = ianaZone('America/New_York');
    const { starts } = lastDays(now, 30, ny);
    const at = [starts[0] - 1, starts[0], starts[1] - 1, starts[1], starts[28] + 1, starts[29], starts[30] + 1000 * H];
    const s = await aggregateUsage(at.map((t, i) => rec({ at: t, tokens: { prompt: 10 ** i } })), { now, zone: ny });
    assert.deepEqual(s.deployments[0].daily.map((d) => d.tokensIn).filter(Boolean), [110, 1000, 10_000, 1_100_000]);
    assert.deepEqual(s.deployments[0].daily.map((d) => d.tokensIn).slice(-2), [10_000, 1_100_000]);
    assert.equal(s.records, 6, 'the one before the first day is left out');
  });

  it('defaults to now, the local zone and the shipped prices', async () => {
    const s = await aggregateUsage([rec({ at: Date.now() })]);
    assert.equal(s.deployments[0].windows.today.requests, 1);
    assert.equal(s.deployments[0].windows.today.cost, GPT4O_COST);
  });
});
