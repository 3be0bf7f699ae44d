/**
 * The append log's lock while one window compacts for longer than the stale time (30 s): the
 * holder keeps its lock fresh, so another window waits instead of taking it as a dead process's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog, type Compactor } from '../../src/storage/appendLog';

/** Resolves once `check` holds, looking every 20 ms; fails after `ms` saying what it waited for. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('append log lock held through a long compaction', () => {
  it('a compaction older than the stale time keeps its lock: the other window waits, and runs its own after', async function () {
    this.timeout(30_000);
    const path = join(mkdtempSync(join(tmpdir(), 'append-log-lock-')), 'log.jsonl');
    const lock = `${path}.lock`;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let compacting = false;
    const slow: Compactor = async (lines) => {
      compacting = true;
      const all: string[] = [];
      for await (const l of lines) all.push(l);
      await gate;
      compacting = false;
      return all.slice(-1);
    };
    const brokeIn: boolean[] = [];
    const other: Compactor = async (lines) => {
      brokeIn.push(compacting);
      const all: string[] = [];
      for await (const l of lines) all.push(l);
      return all;
    };
    const a = new AppendLog(path, 2, slow);
    const first = Promise.all([a.append('a'), a.append('b')]);
    await until(() => compacting, 10_000, 'the first window to start compacting');
    // As the lock would look 31 s into the compaction if nobody touched it.
    const old = new Date(Date.now() - 31_000);
    utimesSync(lock, old, old);
    await until(() => statSync(lock).mtimeMs > Date.now() - 10_000, 10_000, 'the compacting window to touch its lock again');
    const second = new AppendLog(path, 1, other).append('x');
    // The other window retries every few milliseconds; after one more touch it has met the fresh lock many times.
    const seen = statSync(lock).mtimeMs;
    await until(() => statSync(lock).mtimeMs > seen, 10_000, 'one more touch of the lock');
    assert.deepEqual(brokeIn, [], 'the other window has not compacted while the first one holds the lock');
    release();
    await Promise.all([first, second]);
    assert.deepEqual(brokeIn, [false], 'the other window compacted once, after the first one finished');
    assert.equal(readFileSync(path, 'utf8'), 'b\nx\n');
  });
});
