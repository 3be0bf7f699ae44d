/**
 * The append-only file behind the dedupe window and the event store: what ends up on disk, byte
 * for byte, after crashes, compactions, clears, other windows and disk trouble.
 */
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog, fileLines, type Compactor } from '../../src/storage/appendLog';

const dir = () => mkdtempSync(join(tmpdir(), 'append-log-'));
const keepAll: Compactor = async (lines) => {
  const all: string[] = [];
  for await (const l of lines) all.push(l);
  return all;
};
/** A compactor that keeps the last `n` lines and remembers every line it was shown. */
function keepLast(n: number) {
  const seen: string[][] = [];
  const compact: Compactor = async (lines) => {
    const all: string[] = [];
    for await (const l of lines) all.push(l);
    seen.push(all);
    return all.slice(-n);
  };
  return { compact, seen };
}
const openFds = () => readdirSync('/proc/self/fd').length;

describe('append log on disk', () => {
  it('writes exactly one line per append into a new file in a folder it creates, readable by the user only', async () => {
    const path = join(dir(), 'deep', 'er', 'log.jsonl');
    const log = new AppendLog(path, 100, keepAll);
    await log.append('a');
    await Promise.all([log.append('b'), log.append('c')]);
    assert.equal(readFileSync(path, 'utf8'), 'a\nb\nc\n');
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('appends after what an earlier run left, without a blank line, and makes an old readable file private', async () => {
    const path = join(dir(), 'log.jsonl');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o644);
    const log = new AppendLog(path, 100, keepAll);
    await log.append('new');
    assert.equal(readFileSync(path, 'utf8'), 'old\nnew\n');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    // An empty file left by an earlier run: no blank first line either.
    const empty = join(dir(), 'empty.jsonl');
    writeFileSync(empty, '');
    await new AppendLog(empty, 100, keepAll).append('x');
    assert.equal(readFileSync(empty, 'utf8'), 'x\n');
  });

  it('starts a fresh line after a torn last line from a crash, so the next record stays whole', async () => {
    const path = join(dir(), 'log.jsonl');
    writeFileSync(path, '{"id":"a"}\n{"id":"to');
    const log = new AppendLog(path, 100, keepAll);
    await log.append('{"id":"b"}');
    await log.append('{"id":"c"}');
    assert.equal(readFileSync(path, 'utf8'), '{"id":"a"}\n{"id":"to\n{"id":"b"}\n{"id":"c"}\n');
  });

  it('compacts when the line count reaches the limit, showing the compactor every line in order, none empty', async () => {
    const path = join(dir(), 'log.jsonl');
    writeFileSync(path, 'a\n\nb\n');
    const { compact, seen } = keepLast(2);
    const log = new AppendLog(path, 4, compact);
    log.setLineCount(2);
    await log.append('c');
    assert.equal(seen.length, 0, 'three lines: not yet');
    await log.append('d');
    assert.deepEqual(seen, [['a', 'b', 'c', 'd']]);
    assert.equal(readFileSync(path, 'utf8'), 'c\nd\n');
    // Counting restarts from what was kept: two more lines reach the limit again.
    await log.append('e');
    assert.equal(seen.length, 1);
    await log.append('f');
    assert.deepEqual(seen[1], ['c', 'd', 'e', 'f']);
    assert.equal(readFileSync(path, 'utf8'), 'e\nf\n');
  });

  it('keeps lines another window appends while it compacts, and counts them toward the next compaction', async () => {
    const path = join(dir(), 'log.jsonl');
    const seen: string[][] = [];
    let other = true;
    let late = 'late1\nlate2';
    const log = new AppendLog(path, 4, async (lines) => {
      // Another window appends (the first time without a final newline) before this one has read the file.
      if (other) appendFileSync(path, late);
      other = false;
      const all: string[] = [];
      for await (const l of lines) all.push(l);
      seen.push(all);
      return all.slice(-1);
    });
    for (const l of ['a', 'b', 'c', 'd']) await log.append(l);
    assert.deepEqual(seen[0], ['a', 'b', 'c', 'd'], 'the compactor reads the file as it was, not the late lines');
    assert.equal(readFileSync(path, 'utf8'), 'd\nlate1\nlate2\n');
    // Three lines now: one more reaches the limit of four.
    other = true;
    late = 'late3\n';
    await log.append('e');
    assert.deepEqual(seen[1], ['d', 'late1', 'late2', 'e']);
    assert.equal(readFileSync(path, 'utf8'), 'e\nlate3\n', 'a late line ending in a newline gets no second one');
    // Two lines: two more reach the limit.
    await log.append('f');
    assert.equal(seen.length, 2);
    await log.append('g');
    assert.deepEqual(seen[2], ['e', 'late3', 'f', 'g']);
  });

  it('gathers a burst spread over many turns of the event loop into one write, each append resolving once its line is on disk', async () => {
    const path = join(dir(), 'log.jsonl');
    const log = new AppendLog(path, 100, keepAll, 300);
    const written: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      written.push(log.append(`line ${i}`));
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(existsSync(path), false, 'a line was written before the burst was gathered');
    await written[0];
    assert.equal(readFileSync(path, 'utf8'), Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(''));
    // The next burst gathers again, after what is there.
    const next = log.append('next');
    await new Promise((r) => setImmediate(r));
    assert.equal(readFileSync(path, 'utf8').endsWith('line 19\n'), true);
    await next;
    assert.equal(readFileSync(path, 'utf8').endsWith('line 19\nnext\n'), true);
  });

  it('clear drops what was waiting and replaces the file for every window, even one holding the lock for a moment', async () => {
    const path = join(dir(), 'log.jsonl');
    const log = new AppendLog(path, 100, keepAll);
    await log.append('a');
    writeFileSync(`${path}.lock`, '');
    setTimeout(() => rmSync(`${path}.lock`), 200);
    void log.append('dropped');
    const cleared = log.clear();
    const after = log.append('after');
    await Promise.all([cleared, after]);
    await log.flush();
    assert.equal(readFileSync(path, 'utf8'), 'after\n');
    await log.append('next');
    assert.equal(readFileSync(path, 'utf8'), 'after\nnext\n');
    await log.clear();
    await log.flush();
    assert.equal(readFileSync(path, 'utf8'), '');
    assert.deepEqual(readdirSync(join(path, '..')).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')), []);
  });

  it('writes anyway after waiting five seconds for a lock that is never released, rather than lose the line', async function () {
    this.timeout(60_000);
    const path = join(dir(), 'log.jsonl');
    writeFileSync(`${path}.lock`, '');
    const log = new AppendLog(path, 100, keepAll);
    const t0 = Date.now();
    await log.append('a');
    const waited = Date.now() - t0;
    assert.ok(waited >= 4_500, `waited ${waited} ms`);
    assert.equal(readFileSync(path, 'utf8'), 'a\n');
  });

  it('keeps lines through disk trouble and writes them once the disk works again', async () => {
    const root = dir();
    const blocker = join(root, 'state');
    writeFileSync(blocker, 'a file where the folder should be');
    const path = join(blocker, 'log.jsonl');
    const log = new AppendLog(path, 100, keepAll);
    await log.append('one');
    assert.equal(existsSync(path), false);
    rmSync(blocker);
    await log.append('two');
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
    // A clear that cannot replace the file (the path is a folder) leaves no temporary file behind.
    const folder = join(root, 'folder.jsonl');
    mkdirSync(folder);
    const bad = new AppendLog(folder, 100, keepAll);
    await bad.clear();
    assert.deepEqual(readdirSync(root).filter((f) => f.endsWith('.tmp')), []);
  });

  it('reads a file line by line, skipping empty lines, and nothing from an empty or missing file', async () => {
    const path = join(dir(), 'log.jsonl');
    const read = async (p: string) => {
      const out: string[] = [];
      for await (const l of fileLines(p)) out.push(l);
      return out;
    };
    assert.deepEqual(await read(path), []);
    writeFileSync(path, '');
    assert.deepEqual(await read(path), []);
    writeFileSync(path, 'a\n\nb\r\nc');
    assert.deepEqual(await read(path), ['a', 'b', 'c']);
  });

  it('closes every file it opens', async function () {
    if (!existsSync('/proc/self/fd')) this.skip();
    const path = join(dir(), 'log.jsonl');
    const log = new AppendLog(path, 3, keepLast(1).compact);
    await log.append('warm-up');
    for await (const _ of fileLines(path));
    const before = openFds();
    for (let i = 0; i < 30; i++) {
      await log.append(`line ${i}`);
      for await (const _ of fileLines(path));
    }
    await log.flush();
    assert.ok(openFds() - before <= 2, `${openFds() - before} more open files`);
  });
});
