/**
 * The day summaries beside the usage log: the view's tables from the saved days and the lines
 * after them are the tables of every line (filters, prices, time zones and all); a summary the
 * log no longer matches (another file, an edit, another version, another zone, a clock set back,
 * the age cap cutting a day) is not used; a torn line is never saved.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AggregateOptions } from '../../src/usage/aggregate';
import { RESUMMARIZE_LINES, SUMMARY_VERSION, summarizeWithDays, summaryPath } from '../../src/usage/daySummary';
import { dayLabel, ianaZone, startOfDay } from '../../src/usage/days';
import { createUsageRecord, serializeUsageRecord, type UsageRecord, type UsageSource } from '../../src/usage/record';
import { DEFAULT_USAGE_CAPS, summarizeUsageFile, UsageLog } from '../../src/usage/usageLog';

const D = 86_400_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');
const BERLIN = ianaZone('Europe/Berlin');
const SOURCES: UsageSource[] = ['panel', 'vscode-chat', 'compare', 'batch'];

/** `n` records from `days` days ago up to `end`, in time order, of two connections, three deployments, every source and outcome. */
function records(n: number, days: number, end = NOW, seed = 5): UsageRecord[] {
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: n }, (_, i) => {
    const dep = Math.floor(rand() * 3);
    const source = SOURCES[Math.floor(rand() * 4)];
    const kind = rand() < 0.05 ? 'rate_limited' : rand() < 0.05 ? 'error' : 'ok';
    return createUsageRecord({
      at: end - Math.floor(((n - i) / n) * days * D),
      connectionId: dep === 2 ? 'c2' : 'c1',
      connectionLabel: dep === 2 ? `Fabrikam ${i > n / 2 ? 'new' : 'old'}` : 'Contoso ✓',
      deployment: ['chat', 'mini', 'chat'][dep],
      model: ['gpt-4o', 'gpt-4o-mini', 'unknown-model'][dep],
      modelVersion: dep === 0 ? (i % 2 ? '2024-11-20' : '2024-08-06') : undefined,
      api: 'chat',
      route: 'v1',
      source,
      requests: source === 'batch' && rand() < 0.5 ? 2 + Math.floor(rand() * 50) : undefined,
      tokens: { prompt: Math.floor(rand() * 5000), cached: Math.floor(rand() * 6000), completion: Math.floor(rand() * 900), reasoning: 3 },
      firstTokenMs: source === 'batch' ? undefined : Math.floor(rand() * 3000),
      totalMs: source === 'batch' ? undefined : Math.floor(rand() * 60_000),
      outcome: kind === 'ok' ? { kind } : kind === 'error' ? { kind, status: 500 } : { kind, waitMs: 1000 },
      rateLimit: rand() < 0.3 ? { remainingRequests: Math.floor(rand() * 100), limitRequests: 100 } : undefined,
    });
  });
}

/** A real summary with one field of its first bucket made wrong, each way the reader must refuse. */
function bucketVariants(summary: Record<string, unknown>): Array<[string, string]> {
  const [first, ...others] = summary.buckets as Array<Record<string, unknown>>;
  const counts = first.counts as number[];
  const patches: Array<[string, Record<string, unknown>]> = [
    ['a negative count', { counts: [-1, ...counts.slice(1)] }],
    ['a count short', { counts: counts.slice(1) }],
    ['a count not a number', { counts: [...counts.slice(1), 'x'] }],
    ['a connection not a name', { connectionId: 5 }],
    ['a model not a name', { model: 5 }],
    ['an unknown source', { source: 'fax' }],
    ['a day not a time', { day: 'x' }],
    ['a first time not a time', { minAt: -1 }],
    ['a last place not a count', { lastSeq: 'x' }],
    ['times in the wrong order', { minAt: (first.maxAt as number) + 1 }],
    ['headers not a list', { headroom: 5 }],
    ['headers with no count', { headroom: [1, 1, {}] }],
    ['headers with a bad count', { headroom: [1, 1, { limitTokens: -1 }] }],
    ['a broken time histogram', { total: [1, 2] }],
  ];
  return patches.map(([what, patch]) => [what, JSON.stringify({ ...summary, buckets: [{ ...first, ...patch }, ...others] })]);
}

const lines = (rs: UsageRecord[]) => rs.map((r) => `${serializeUsageRecord(r)}\n`).join('');

function logWith(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'usage-days-')), 'usage.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** The tables both ways; asserts they are the same and gives them. */
async function same(path: string, options: AggregateOptions = {}) {
  const all = { now: NOW, zone: BERLIN, ...options };
  const full = await summarizeUsageFile(path, all);
  const fast = await summarizeWithDays(path, all);
  assert.deepEqual(fast, full);
  return full;
}

describe('usage day summaries', () => {
  it('give the tables of every line, with filters and prices, from the saved days and the lines written after them', async () => {
    const path = logWith(`${lines(records(800, 40))}not a record\n`);
    const first = await same(path);
    assert.equal(first.skipped, 1);
    // Days before today were read: the summary is saved, for the user only.
    assert.equal(statSync(summaryPath(path)).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(summaryPath(path), 'utf8')) as { bytes: number; version: number };
    assert.deepEqual([saved.bytes, saved.version], [statSync(path).size, SUMMARY_VERSION]);
    // Another window writes today's records: they are read after the saved days.
    appendFileSync(path, lines(records(300, 0.4, NOW, 9)));
    const later = await same(path);
    assert.equal(later.records, first.records + 300);
    await same(path, { filter: { connections: ['c2'] } });
    await same(path, { filter: { sources: ['batch', 'compare'] } });
    await same(path, { filter: { connections: ['c1'], sources: ['panel'] } });
    await same(path, { prices: new Map([['unknown-model', { input: 1, output: 2, batchDiscount: 0.25 }]]) });
    const filtered = await same(path, { filter: { connections: ['nobody'] } });
    assert.deepEqual([filtered.deployments, filtered.connections.map((c) => c.label)], [[], ['Contoso ✓', 'Fabrikam new']]);
  });

  it('reads only the lines after the saved days', async () => {
    const rs = records(600, 20);
    const path = logWith(lines(rs));
    const before = await same(path);
    // An edit in place, far before the summary's end, is not seen: those days are not read again.
    const text = readFileSync(path, 'utf8');
    const p = rs[100].tokens.prompt;
    const edited = serializeUsageRecord({ ...rs[100], tokens: { ...rs[100].tokens, prompt: p - (p % 10) + ((p % 10) + 1) % 10 } });
    const line = serializeUsageRecord(rs[100]);
    assert.equal(edited.length, line.length);
    writeFileSync(path, text.replace(line, edited), { flag: 'r+' });
    assert.deepEqual(await summarizeWithDays(path, { now: NOW, zone: BERLIN }), before);
    assert.notDeepEqual(await summarizeUsageFile(path, { now: NOW, zone: BERLIN }), before);
    // Grown since (another window): still those days from the summary, and the new line read.
    appendFileSync(path, lines(records(1, 0.01, NOW, 4)));
    const grown = await summarizeWithDays(path, { now: NOW, zone: BERLIN });
    assert.equal(grown?.records, before.records + 1);
    assert.notDeepEqual(grown, await summarizeUsageFile(path, { now: NOW, zone: BERLIN }));
    // The same bytes in another file (a compaction's): read again, the edit seen.
    copyFileSync(path, `${path}.copy`);
    renameSync(`${path}.copy`, path);
    await same(path);
  });

  it('is not used for another file, an edit near its end, another version or a broken summary, and is made again', async () => {
    const path = logWith(lines(records(600, 10)));
    await same(path);
    // A compaction (or a clear) puts a new file in place: another inode, other lines.
    writeFileSync(`${path}.new`, lines(records(600, 10, NOW, 77)));
    renameSync(`${path}.new`, path);
    await same(path);
    // Rewritten in place with other lines of the same length, near the end of what was summed.
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, -10).replace(/"prompt":(\d)/g, (_, d: string) => `"prompt":${(Number(d) + 1) % 10}`) + text.slice(-10), { flag: 'r+' });
    await same(path);
    const summary = JSON.parse(readFileSync(summaryPath(path), 'utf8')) as Record<string, unknown>;
    const variants: Array<[string, string]> = [
      ['another version', JSON.stringify({ ...summary, version: SUMMARY_VERSION + 1 })],
      ['not JSON', '{"version":'],
      ['a broken bucket', JSON.stringify({ ...summary, buckets: [...(summary.buckets as unknown[]), { day: 1 }] })],
      ['bad counts', JSON.stringify({ ...summary, lines: -1 })],
      ['bad skipped lines', JSON.stringify({ ...summary, skipped: 'x' })],
      ['buckets that are not a list', JSON.stringify({ ...summary, buckets: 7 })],
      ['more bytes than the log', JSON.stringify({ ...summary, bytes: statSync(path).size + 1 })],
      ['null', 'null'],
      ...bucketVariants(summary),
    ];
    for (const [what, broken] of variants) {
      writeFileSync(summaryPath(path), broken);
      await same(path).catch((err: Error) => assert.fail(`${what}: ${err.message}`));
      // Made again, whole.
      assert.equal((JSON.parse(readFileSync(summaryPath(path), 'utf8')) as { version: number }).version, SUMMARY_VERSION, what);
    }
  });

  it('leaves nothing behind when a summary cannot be written, and closes the log', async () => {
    const path = logWith(lines(records(600, 10)));
    mkdirSync(join(summaryPath(path), 'taken'), { recursive: true });
    const fds = readdirSync('/proc/self/fd').length;
    await same(path);
    assert.deepEqual(readdirSync(dirname(path)).sort(), ['usage.jsonl', 'usage.jsonl.days']);
    assert.equal(readdirSync('/proc/self/fd').length, fds);
    await assert.rejects(summarizeWithDays(join(path, 'usage.jsonl'), { now: NOW }), /ENOTDIR/);
  });

  it('puts records on the right local day in another time zone, and after the clock was set back', async () => {
    const path = logWith(lines(records(700, 35)));
    await same(path);
    await same(path, { zone: ianaZone('Asia/Tokyo') });
    await same(path, { zone: ianaZone('America/Los_Angeles') });
    await same(path, { zone: BERLIN });
    await same(path, { now: NOW - 9 * D });
    await same(path, { now: NOW + 3 * D });
  });

  it('counts a torn last line as the whole read does, never saves it, and reads the next record on a fresh line', async () => {
    const rs = records(600, 5);
    const path = logWith(`${lines(rs)}${serializeUsageRecord(rs[0]).slice(0, 40)}`);
    const torn = await same(path);
    assert.equal(torn.skipped, 1);
    const saved = JSON.parse(readFileSync(summaryPath(path), 'utf8')) as { bytes: number; skipped: number };
    assert.deepEqual([saved.bytes, saved.skipped], [Buffer.byteLength(lines(rs)), 0]);
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    log.append(records(1, 0.01, NOW, 3)[0]);
    await log.flush();
    const after = await same(path);
    assert.deepEqual([after.records, after.skipped], [torn.records + 1, 1]);
  });

  it('is saved only once days before today or enough lines were read, and the view stays right for a log that is gone', async () => {
    // Records of today only, the first at the very start of today: one line short of enough.
    const start = startOfDay(dayLabel(NOW, BERLIN), BERLIN);
    const today = logWith(lines([records(1, 0, start)[0], ...records(RESUMMARIZE_LINES - 2, 0.3)]));
    await same(today);
    assert.equal(existsSync(summaryPath(today)), false);
    appendFileSync(today, lines(records(1, 0.2, NOW, 8)));
    await same(today);
    assert.equal(existsSync(summaryPath(today)), true);
    // Saved: a few lines of today after it do not make it again.
    const saved = readFileSync(summaryPath(today), 'utf8');
    appendFileSync(today, lines(records(10, 0.1, NOW, 6)));
    await same(today);
    assert.equal(readFileSync(summaryPath(today), 'utf8'), saved);
    const gone = await summarizeWithDays(join(tmpdir(), 'no-such-usage.jsonl'), { now: NOW });
    assert.deepEqual([gone?.deployments, gone?.records], [[], 0]);
  });

  it('reads every line when the age cap cuts a saved day, and nothing once the log is cleared', async () => {
    const path = logWith(lines(records(600, 20)));
    const log = await UsageLog.open(path, { ...DEFAULT_USAGE_CAPS, maxAgeDays: 90 }, () => NOW);
    const all = await log.summarize({ zone: BERLIN });
    assert.ok(existsSync(summaryPath(path)));
    const capped = await UsageLog.open(path, { ...DEFAULT_USAGE_CAPS, maxAgeDays: 5 }, () => NOW);
    const recent = await capped.summarize({ zone: BERLIN });
    assert.deepEqual(recent, await summarizeUsageFile(path, { now: NOW, zone: BERLIN, notBefore: NOW - 5 * D }));
    assert.ok(recent.records < all.records && recent.records > 0);
    await log.clear();
    assert.equal((await log.summarize({ zone: BERLIN })).records, 0);
  });
});
