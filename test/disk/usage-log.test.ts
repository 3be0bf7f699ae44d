/**
 * The usage log on disk: records round-trip, the caps (age, records, bytes) hold through
 * compaction, torn and foreign lines are skipped, two windows write one file at once, and the
 * view's tables are read from the file as a stream.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ianaZone } from '../support/zones';
import { createUsageRecord, serializeUsageRecord, type UsageInput, type UsageRecord } from '../../src/usage/record';
import { DEFAULT_USAGE_CAPS, FLUSH_AT, FLUSH_MS, surveyUsageFile, usageCaps, usageLines, UsageLog, type UsageCaps } from '../../src/usage/usageLog';

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
const run = promisify(execFile);

/** Polls `read` until `done` holds or `ms` pass; gives the last value. */
async function waitFor<T>(read: () => T, done: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let v = read();
  while (!done(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
    v = read();
  }
  return v;
}

describe('usage log', () => {
  it('gives back the records it was given, in order, from a file only the user can read', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    const records = [rec(1), rec(2, { outcome: { kind: 'rate_limited', waitMs: 2000 }, rateLimit: { remainingRequests: 0, remainingTokens: 10 } }), rec(3, { connectionLabel: 'say "hi", ✓' })];
    for (const r of records) log.append(r);
    await log.flush();
    assert.deepEqual(await log.records(), records);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(fileLines(path), records.map(serializeUsageRecord));
    const reopened = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    assert.deepEqual(await reopened.records(), records);
  });

  it('skips a torn last line and foreign lines, and writes the next record whole on a line of its own', async () => {
    const path = file();
    const first = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    first.append(rec(1));
    await first.flush();
    appendFileSync(path, serializeUsageRecord(rec(2)).slice(0, 50));
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    log.append(rec(3));
    await log.flush();
    appendFileSync(path, 'not json\n{"at":5}\n\n');
    log.append(rec(4));
    await log.flush();
    assert.deepEqual(await log.records(), [rec(1), rec(3), rec(4)]);
    const summary = await log.summarize({ zone: ianaZone('UTC') });
    assert.deepEqual([summary.records, summary.skipped], [3, 3]);
  });

  it('compacts to the newest records once the file passes the record cap by a tenth, dropping broken lines', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'garbage\n');
    const log = await UsageLog.open(path, caps({ maxRecords: 100 }), () => NOW);
    for (let i = 0; i < 162; i++) {
      log.append(rec(i));
      await log.flush();
    }
    assert.equal(fileLines(path).length, 163);
    log.append(rec(162));
    await log.flush();
    // 100 + 64 lines (the garbage one included) make the compaction: the newest 100 are kept.
    assert.deepEqual(await log.records(), Array.from({ length: 100 }, (_, i) => rec(63 + i)));
    assert.equal(fileLines(path).length, 100);
    log.append(rec(163));
    await log.flush();
    assert.equal(fileLines(path).length, 101);
  });

  it('never reads a record older than the age cap, and drops it from the file at the next compaction', async () => {
    const path = file();
    let now = NOW;
    const log = await UsageLog.open(path, caps({ maxAgeDays: 10, maxRecords: 100 }), () => now);
    log.append(rec(1, { at: NOW - 20 * D }));
    await log.flush();
    log.append(rec(2, { at: NOW - 9 * D }));
    await log.flush();
    log.append(rec(3));
    await log.flush();
    assert.deepEqual((await log.records()).map((r) => r.tokens.prompt), [2, 3]);
    assert.equal(fileLines(path).length, 3);
    // A record made exactly at the cap is still in.
    const edge = await UsageLog.open(path, caps({ maxAgeDays: 9, maxRecords: 100 }), () => NOW);
    assert.deepEqual((await edge.records()).map((r) => r.tokens.prompt), [2, 3]);
    const month = async () => (await log.summarize({ zone: ianaZone('UTC') })).deployments.reduce((n, d) => n + d.windows.month.requests, 0);
    assert.equal(await month(), 2, 'the 30-day table leaves out what the 10-day cap drops');
    now += 2 * D;
    assert.deepEqual((await log.records()).map((r) => r.tokens.prompt), [3]);
    assert.equal(await month(), 1);
    // A window opened on a file whose oldest record is too old compacts at its first append.
    const next = await UsageLog.open(path, caps({ maxAgeDays: 10, maxRecords: 100 }), () => now);
    next.append(rec(4));
    await next.flush();
    assert.deepEqual(fileLines(path), [rec(3), rec(4)].map(serializeUsageRecord));
    // A window whose first record is exactly at the cap does not compact; the next compaction keeps it.
    const at = NOW - 1000 + 3;
    const exact = await UsageLog.open(path, caps({ maxAgeDays: 1, maxRecords: 100 }), () => at + D);
    const ino = statSync(path).ino;
    exact.append(rec(5));
    await exact.flush();
    assert.equal(statSync(path).ino, ino);
    const squeezed = await UsageLog.open(path, caps({ maxAgeDays: 1, maxRecords: 1 }), () => at + D);
    // 1 + 64 lines make a compaction, which keeps the newest: made exactly at the cap.
    for (let i = fileLines(path).length; i < 65; i++) {
      squeezed.append(rec(3));
      await squeezed.flush();
    }
    assert.deepEqual(fileLines(path), [serializeUsageRecord(rec(3))]);
  });

  it('keeps records in memory for a moment and writes them together, on its own or when asked to flush', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    log.append(rec(1));
    log.append(rec(2));
    // The caller paid a push: nothing is on disk yet, nor half a moment later.
    await new Promise((r) => setTimeout(r, FLUSH_MS / 2));
    assert.equal(existsSync(path), false);
    // A moment later both are written, in one write, without a flush.
    const lines = await waitFor(() => (existsSync(path) ? fileLines(path) : []), (l) => l.length === 2, FLUSH_MS * 20);
    assert.deepEqual(lines, [rec(1), rec(2)].map(serializeUsageRecord));
    // A flush writes at once what waits; clearing writes it first, then empties the file.
    log.append(rec(3));
    await log.flush();
    assert.equal(fileLines(path).length, 3);
    log.append(rec(4));
    await log.clear();
    assert.deepEqual(await log.records(), []);
  });

  it('writes records handed over steadily a moment after the first of them, not once they stop coming', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    const count = () => (existsSync(path) ? fileLines(path).length : 0);
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      log.append(rec(i));
      await new Promise((r) => setTimeout(r, FLUSH_MS * 0.8));
      seen.push(count());
    }
    // Records kept coming every 0.8 moment: the first ones were written long before the last came.
    assert.ok(seen[5] >= 2, `lines on disk after each record: ${seen.join(', ')}`);
    assert.deepEqual(await waitFor(count, (n) => n === 8, FLUSH_MS * 20), 8);
  });

  /** Another process appends `count` records (`count` may name FLUSH_AT), then runs `after`, and ends as a process does. */
  const appendInAProcess = (path: string, count: string, after = '') =>
    run(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        [
          "const { UsageLog, FLUSH_AT } = require('./src/usage/usageLog');",
          '(async () => {',
          `  const log = await UsageLog.open(${JSON.stringify(path)});`,
          "  const base = { at: Date.now(), connectionId: 'c', connectionLabel: '', deployment: 'd', api: 'chat', route: 'v1', source: 'panel', outcome: { kind: 'ok' } };",
          `  for (let i = 0; i < ${count}; i++) log.append({ ...base, tokens: { prompt: i } });`,
          after,
          '})();',
        ].join('\n'),
      ],
      { cwd: join(__dirname, '..', '..') },
    );

  it('writes at once when a batch\'s worth of records waits', async () => {
    // A process that appends a batch's worth and never flushes: only a write started at once, not
    // the (unref'd) timer's, keeps it alive until the records are on disk.
    const path = file();
    await appendInAProcess(path, 'FLUSH_AT');
    assert.equal(existsSync(path) ? fileLines(path).length : 0, FLUSH_AT, 'the batch was not written before the process ended');
  });

  it('loses no record when a process ends normally after flushing, however recent', async () => {
    const path = file();
    await appendInAProcess(path, '5', '  await log.flush();');
    assert.deepEqual(fileLines(path).map((l) => (JSON.parse(l) as UsageRecord).tokens.prompt), [0, 1, 2, 3, 4]);
  });

  it('surveys a file in chunks: its lines, its size and its first record, and closes it', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    const lines = Array.from({ length: 700 }, (_, i) => serializeUsageRecord(rec(i)));
    writeFileSync(path, `${lines.join('\n')}\n${'x'.repeat(100)}`);
    const fds = readdirSync('/proc/self/fd').length;
    assert.ok(statSync(path).size > 2 * 65_536);
    assert.deepEqual(await surveyUsageFile(path), { lines: 700, bytes: statSync(path).size, first: rec(0).at });
    writeFileSync(path, `\n${lines[0]}\n`);
    assert.deepEqual(await surveyUsageFile(path), { lines: 2, bytes: lines[0].length + 2, first: undefined });
    assert.deepEqual(await surveyUsageFile(`${path}.none`), { lines: 0, bytes: 0 });
    await UsageLog.open(path);
    assert.equal(readdirSync('/proc/self/fd').length, fds);
  });

  it('keeps the file within the byte cap: the write that passes it compacts to the newest within 90 % of it', async () => {
    const path = file();
    // Every line here has the same length: the cap is set so that 9 lines fit in 90 % of it, and 11 in all of it.
    const L = serializeUsageRecord(rec(100)).length + 1;
    const maxBytes = Math.floor((10 * L - 10) / 0.9);
    const log = await UsageLog.open(path, caps({ maxBytes, maxRecords: 1000 }), () => NOW);
    const inode = () => statSync(path).ino;
    let i = 100;
    log.append(rec(i++));
    await log.flush();
    let before = inode();
    while (inode() === before && i < 150) {
      before = inode();
      log.append(rec(i++));
      await log.flush();
    }
    // The 12th line passed the cap: compacted (a new file) to the newest 9.
    assert.equal(i, 112);
    assert.equal(statSync(path).size, 9 * L);
    assert.deepEqual(await log.records(), Array.from({ length: 9 }, (_, k) => rec(103 + k)));
    // The next two fit under the cap and are appended to the same file; the third compacts again.
    const compacted = inode();
    log.append(rec(i++));
    await log.flush();
    log.append(rec(i++));
    await log.flush();
    assert.deepEqual([inode(), statSync(path).size], [compacted, 11 * L]);
    log.append(rec(i++));
    await log.flush();
    assert.notEqual(inode(), compacted);
    assert.equal(statSync(path).size, 9 * L);
    // Reopened over the cap (another window wrote a lot): the first append compacts.
    for (let k = 0; k < 20; k++) appendFileSync(path, `${serializeUsageRecord(rec(200 + k))}\n`);
    const other = await UsageLog.open(path, caps({ maxBytes, maxRecords: 1000 }), () => NOW);
    other.append(rec(300));
    await other.flush();
    assert.equal(statSync(path).size, 9 * L);
    assert.deepEqual((await other.records()).at(-1), rec(300));
  });

  it('two windows appending to one file at once, with compactions, lose and repeat nothing', async () => {
    const path = file();
    const c = caps({ maxRecords: 200 });
    const [a, b] = await Promise.all([UsageLog.open(path, c, () => NOW), UsageLog.open(path, c, () => NOW)]);
    for (let i = 0; i < 150; i++) {
      a.append(rec(i, { connectionId: 'window-a' }));
      b.append(rec(i, { connectionId: 'window-b' }));
      // Both windows write at once, a few records each time.
      if (i % 10 === 9) await Promise.all([a.flush(), b.flush()]);
    }
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
    log.append(rec(1));
    await log.flush();
    await log.clear();
    assert.deepEqual(await log.records(), []);
    log.append(rec(2));
    await log.flush();
    assert.deepEqual(await log.records(), [rec(2)]);
  });

  it('reads the view\'s tables from a file as a stream, closes it, and an empty table from a missing file', async () => {
    const path = file();
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    for (let i = 0; i < 30; i++) {
      log.append(rec(i));
      await log.flush();
    }
    writeFileSync(`${path}.copy`, readFileSync(path, 'utf8').trimEnd());
    const copy = await UsageLog.open(`${path}.copy`, DEFAULT_USAGE_CAPS, () => NOW);
    const fds = readdirSync('/proc/self/fd').length;
    const s = await copy.summarize({ zone: ianaZone('UTC') });
    assert.deepEqual(s.deployments.map((d) => [d.deployment, d.windows.today.requests]), [['dep-0', 10], ['dep-1', 10], ['dep-2', 10]]);
    assert.deepEqual([s.records, s.skipped], [30, 0], 'the last line without its newline is read too');
    assert.equal(readdirSync('/proc/self/fd').length, fds);
    const missing = await UsageLog.open(join(tmpdir(), 'no-such-usage-file.jsonl'), DEFAULT_USAGE_CAPS, () => NOW);
    const none = await missing.summarize();
    assert.deepEqual([none.deployments, none.records, none.skipped], [[], 0, 0]);
    await assert.rejects(async () => {
      for await (const chunk of usageLines(tmpdir())) assert.fail(`a folder has no lines: ${JSON.stringify(chunk)}`);
    }, /EISDIR/);
  });

  it('reads a file starting with an empty line, and a character split between two reads', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    // '✓' is three bytes: put the record's across the 64 KiB mark, where one read ends and the next begins.
    const line = serializeUsageRecord(rec(1, { connectionLabel: 'Contoso ✓' }));
    const pad = 'a'.repeat((1 << 16) - 1 - 2 - Buffer.byteLength(line.slice(0, line.indexOf('✓'))));
    writeFileSync(path, `\n${pad}\n${line}\n`);
    const seen: Array<UsageRecord | undefined> = [];
    for await (const chunk of usageLines(path)) seen.push(...chunk);
    assert.deepEqual(seen, [undefined, rec(1, { connectionLabel: 'Contoso ✓' })]);
  });

  it('skips a line longer than a read chunk as one line, and reads the record after it', async () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `a\n${'x'.repeat(3 << 20)}\n${serializeUsageRecord(rec(2))}`);
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    assert.deepEqual(await log.records(), [rec(2)]);
    const s = await log.summarize({ zone: ianaZone('UTC') });
    assert.deepEqual([s.records, s.skipped], [1, 2]);
  });

  it('removes a day-summary file an older version left beside the log, which changes nothing shown', async () => {
    const path = file();
    const first = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    for (let i = 0; i < 5; i++) first.append(rec(i));
    await first.flush();
    const shown = await first.summarize({ zone: ianaZone('UTC') });
    // What version 1 saved: the days it had summed (here a record that is not in the log) and how far it had read.
    const days = { version: 1, dev: 0, ino: statSync(path).ino, bytes: 0, lines: 0, check: '', from: 0, skipped: 0, buckets: [{ connectionId: 'ghost', deployment: 'gone' }] };
    writeFileSync(`${path}.days`, JSON.stringify(days));
    const log = await UsageLog.open(path, DEFAULT_USAGE_CAPS, () => NOW);
    assert.equal(existsSync(`${path}.days`), false);
    assert.deepEqual(await log.summarize({ zone: ianaZone('UTC') }), shown);
  });

  it('takes caps from settings within sane bounds, and the defaults for what is missing or not a number', () => {
    assert.deepEqual(usageCaps(), DEFAULT_USAGE_CAPS);
    assert.deepEqual(usageCaps({ maxAgeDays: 0, maxRecords: 1e12, maxBytes: 'big' }), { maxAgeDays: 1, maxRecords: 10_000_000, maxBytes: DEFAULT_USAGE_CAPS.maxBytes });
    assert.deepEqual(
      usageCaps({ maxAgeDays: 30.7, maxRecords: Number.NaN, maxBytes: 1 }),
      { maxAgeDays: 30, maxRecords: DEFAULT_USAGE_CAPS.maxRecords, maxBytes: 64 * 1024 },
    );
    assert.deepEqual(usageCaps({ maxAgeDays: 99_999, maxBytes: 2 ** 40 }), { ...DEFAULT_USAGE_CAPS, maxAgeDays: 3650, maxBytes: 1024 ** 3 });
  });
});
