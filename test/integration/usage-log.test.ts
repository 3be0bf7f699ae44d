/**
 * The usage log on disk: records round-trip, the caps (age, records, bytes) hold through
 * compaction, torn and foreign lines are skipped, two windows write one file at once, and the
 * view's tables are read from the file as a stream.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ianaZone } from '../../src/usage/days';
import { createUsageRecord, serializeUsageRecord, type UsageInput, type UsageRecord } from '../../src/usage/record';
import { DEFAULT_USAGE_CAPS, forEachLine, summarizeUsageFile, usageCaps, UsageLog, type UsageCaps } from '../../src/usage/usageLog';

const D = 86_400_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');
const file = () => join(mkdtempSync(join(tmpdir(), 'usage-log-')), 'usage', 'usage.jsonl');
const rec = (i: number, over: Partial<UsageInput> = {}): UsageRecord =>
  createUsageRecord({
    at: NOW - 1000 + i,
    connectionId: 'c1',
    connectionLabel: 'Emulator',
    deployment: `dep-${i % 3}`,
    model: 'gpt-4o',
    api: 'chat',
    route: 'v1',
    source: 'panel',
    tokens: { prompt: i, completion: 1 },
    totalMs: 10 + i,
    outcome: { kind: 'ok' },
    ...over,
  });
const caps = (over: Partial<UsageCaps>): UsageCaps => ({ ...DEFAULT_USAGE_CAPS, ...over });
const fileLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('usage log', () => {
  it('gives back the records it was given, in order, from a file only the user can read', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    const records = [rec(1), rec(2, { outcome: { kind: 'rate_limited', waitMs: 2000 }, rateLimit: { remainingRequests: 0, remainingTokens: 10 } }), rec(3, { connectionLabel: 'say "hi", ✓' })];
    await Promise.all(records.map((r) => log.append(r)));
    assert.deepEqual(await log.records(), records);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(fileLines(path), records.map(serializeUsageRecord));
    const reopened = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    assert.deepEqual(await reopened.records(), records);
  });

  it('skips a torn last line and foreign lines, and writes the next record whole on a line of its own', async () => {
    const path = file();
    const first = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    await first.append(rec(1));
    appendFileSync(path, serializeUsageRecord(rec(2)).slice(0, 50));
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    await log.append(rec(3));
    appendFileSync(path, 'not json\n{"at":5}\n\n');
    await log.append(rec(4));
    assert.deepEqual(await log.records(), [rec(1), rec(3), rec(4)]);
    const summary = await log.summarize({ zone: ianaZone('UTC') });
    assert.deepEqual([summary.records, summary.skipped], [3, 3]);
  });

  it('compacts to the newest records once the file passes the record cap by a tenth, dropping broken lines', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'garbage\n');
    const log = await UsageLog.open(path, caps({ maxRecords: 100 }), () => NOW);
    for (let i = 0; i < 162; i++) await log.append(rec(i));
    assert.equal(fileLines(path).length, 163);
    await log.append(rec(162));
    // 100 + 64 lines (the garbage one included) make the compaction: the newest 100 are kept.
    assert.deepEqual(await log.records(), Array.from({ length: 100 }, (_, i) => rec(63 + i)));
    assert.equal(fileLines(path).length, 100);
    await log.append(rec(163));
    assert.equal(fileLines(path).length, 101);
  });

  it('never reads a record older than the age cap, and drops it from the file at the next compaction', async () => {
    const path = file();
    let now = NOW;
    const log = await UsageLog.open(path, caps({ maxAgeDays: 10, maxRecords: 100 }), () => now);
    await log.append(rec(1, { at: NOW - 20 * D }));
    await log.append(rec(2, { at: NOW - 9 * D }));
    await log.append(rec(3));
    assert.deepEqual((await log.records()).map((r) => r.tokens.prompt), [2, 3]);
    assert.equal(fileLines(path).length, 3);
    now += 2 * D;
    assert.deepEqual((await log.records()).map((r) => r.tokens.prompt), [3]);
    // A window opened on a file whose oldest record is too old compacts at its first append.
    const next = await UsageLog.open(path, caps({ maxAgeDays: 10, maxRecords: 100 }), () => now);
    await next.append(rec(4));
    assert.deepEqual(fileLines(path), [rec(3), rec(4)].map(serializeUsageRecord));
  });

  it('keeps the file within the byte cap: the write that passes it compacts to the newest that fit', async () => {
    const path = file();
    const lineBytes = serializeUsageRecord(rec(100)).length + 1;
    const log = await UsageLog.open(path, caps({ maxBytes: lineBytes * 10, maxRecords: 1000 }), () => NOW);
    for (let i = 100; i < 125; i++) await log.append(rec(i));
    const size = statSync(path).size;
    assert.ok(size <= lineBytes * 10, `${size} bytes`);
    const kept = await log.records();
    assert.ok(kept.length >= 5 && kept.length <= 10, `${kept.length} kept`);
    assert.deepEqual(kept.at(-1), rec(124));
    // Reopened over the cap (another window wrote a lot): the first append compacts.
    for (let i = 0; i < 20; i++) appendFileSync(path, `${serializeUsageRecord(rec(200 + i))}\n`);
    const other = await UsageLog.open(path, caps({ maxBytes: lineBytes * 10, maxRecords: 1000 }), () => NOW);
    await other.append(rec(300));
    assert.ok(statSync(path).size <= lineBytes * 10);
    assert.deepEqual((await other.records()).at(-1), rec(300));
  });

  it('two windows appending to one file at once, with compactions, lose and repeat nothing', async () => {
    const path = file();
    const c = caps({ maxRecords: 200 });
    const [a, b] = await Promise.all([UsageLog.open(path, c, () => NOW), UsageLog.open(path, c, () => NOW)]);
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 150; i++) writes.push(a.append(rec(i, { connectionId: 'window-a' })), b.append(rec(i, { connectionId: 'window-b' })));
    await Promise.all(writes);
    await Promise.all([a.flush(), b.flush()]);
    const all = await a.records();
    const ids = all.map((r) => `${r.connectionId}:${r.tokens.prompt}`);
    assert.equal(new Set(ids).size, ids.length, 'no record twice');
    assert.ok(all.length >= 200 && all.length <= 300, `${all.length} records`);
    // Whatever compaction dropped is the oldest of each window: each keeps an unbroken newest run.
    for (const w of ['window-a', 'window-b']) {
      const mine = all.filter((r) => r.connectionId === w).map((r) => r.tokens.prompt);
      assert.deepEqual(mine, Array.from({ length: mine.length }, (_, i) => 150 - mine.length + i), w);
    }
  });

  it('clears the log for every window', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    await log.append(rec(1));
    await log.clear();
    assert.deepEqual(await log.records(), []);
    await log.append(rec(2));
    assert.deepEqual(await log.records(), [rec(2)]);
  });

  it('reads the view\'s tables from a file as a stream, and an empty table from a missing file', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    for (let i = 0; i < 30; i++) await log.append(rec(i));
    writeFileSync(`${path}.copy`, readFileSync(path, 'utf8').trimEnd());
    const s = await summarizeUsageFile(`${path}.copy`, { now: NOW, zone: ianaZone('UTC') });
    assert.deepEqual(s.deployments.map((d) => [d.deployment, d.windows.today.requests]), [['dep-0', 10], ['dep-1', 10], ['dep-2', 10]]);
    const none = await summarizeUsageFile(join(tmpdir(), 'no-such-usage-file.jsonl'), { now: NOW });
    assert.deepEqual([none.deployments, none.records, none.skipped], [[], 0, 0]);
    const seen: string[] = [];
    await forEachLine(`${path}.copy`, (l) => seen.push(l));
    assert.equal(seen.length, 30);
    await assert.rejects(forEachLine(tmpdir(), () => undefined), /EISDIR/);
  });

  it('reads lines longer than a read chunk whole', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    const long = 'x'.repeat(3 << 20);
    writeFileSync(path, `a\n${long}\nb`);
    const seen: string[] = [];
    await forEachLine(path, (l) => seen.push(l));
    assert.deepEqual(seen.map((l) => l.length), [1, long.length, 1]);
  });

  it('takes caps from settings within sane bounds, and the defaults for what is missing or not a number', () => {
    assert.deepEqual(usageCaps(), DEFAULT_USAGE_CAPS);
    assert.deepEqual(usageCaps({ maxAgeDays: 0, maxRecords: 1e12, maxBytes: 'big' }), { maxAgeDays: 1, maxRecords: 10_000_000, maxBytes: DEFAULT_USAGE_CAPS.maxBytes });
    assert.deepEqual(usageCaps({ maxAgeDays: 30.7, maxRecords: Number.NaN, maxBytes: 1 }), { maxAgeDays: 30, maxRecords: DEFAULT_USAGE_CAPS.maxRecords, maxBytes: 64 * 1024 });
    assert.deepEqual(usageCaps({ maxAgeDays: 99_999, maxBytes: 2 ** 40 }), { ...DEFAULT_USAGE_CAPS, maxAgeDays: 3650, maxBytes: 1024 ** 3 });
  });
});
