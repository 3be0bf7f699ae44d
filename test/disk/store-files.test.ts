/**
 * The listener's files across restarts: after a restart the user sees what they saw before, and
 * the files stay bounded without being rewritten on every delivery.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { EventStore, FileDedupeStore } from '../../src/webhooks/store/stores';
import { seededRandom } from '../support/random';

const file = (name: string) => join(mkdtempSync(join(tmpdir(), 'store-files-')), name);
const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
const rec = (id: string, receivedAt: number, verdict: DeliveryRecord['verdict'] = 'verified'): DeliveryRecord =>
  ({ id, receivedAt, verdict, status: verdict === 'rejected' ? 400 : 200, body: '{}', headers: {} });
const ids = (records: DeliveryRecord[]) => records.map((r) => r.id);

/** Watches a file being replaced (compaction renames a new file over it). */
function rewrites(path: string) {
  let inode = statSync(path).ino;
  let count = 0;
  return () => {
    const now = statSync(path).ino;
    if (now !== inode) count++;
    inode = now;
    return count;
  };
}

describe('dedupe file across restarts', () => {
  it('rewrites the file once per cap of new ids, never on every id, and keeps it under twice the cap', async () => {
    const path = file('ids');
    const store = new FileDedupeStore(path, 10);
    store.add('first');
    await store.flush();
    const seen = rewrites(path);
    for (let i = 0; i < 100; i++) {
      store.add(`id${i}`);
      await store.flush();
      assert.ok(lineCount(path) < 20, `${lineCount(path)} lines after ${i + 2} ids`);
      seen();
    }
    // 101 ids, compacted to 10 at 20 lines and then every 10 more: 9 rewrites.
    assert.equal(seen(), 9);
    assert.equal(new FileDedupeStore(path, 10).has('id99'), true);
    assert.equal(new FileDedupeStore(path, 10).has('id80'), false);
  });

  it('counts the ids already in the file after a restart, so the file stays bounded', async () => {
    const path = file('ids');
    writeFileSync(path, Array.from({ length: 19 }, (_, i) => `old${i}\n`).join(''));
    const store = new FileDedupeStore(path, 10);
    store.add('new');
    await store.flush();
    assert.equal(lineCount(path), 10, 'the 20th line compacts to the newest 10');
    assert.equal(new FileDedupeStore(path, 10).has('new'), true);
  });

  it('stores an id with a line break as one line, so it cannot add other ids', async () => {
    const path = file('ids');
    const store = new FileDedupeStore(path, 10);
    store.add('evil\nmsg_forged');
    await store.flush();
    assert.equal(readFileSync(path, 'utf8'), 'evilmsg_forged\n');
    assert.equal(new FileDedupeStore(path, 10).has('msg_forged'), false);
  });
});

describe('event file across restarts', () => {
  it('shows after a restart exactly what the view showed, through updates, caps and compactions', async function () {
    this.timeout(60_000);
    const seed = 20261122;
    const rnd = seededRandom(seed);
    const path = file('events.jsonl');
    const live = new EventStore(path, 5, 3);
    const all: DeliveryRecord[] = [];
    for (let step = 1; step <= 300; step++) {
      const roll = rnd();
      if (roll < 0.25 && all.length) {
        // A forward result for a recent or an old record (maybe already dropped from the view).
        const target = all[Math.floor(rnd() * all.length)]!;
        await live.put({ ...target, forward: { url: 'http://127.0.0.1:1/', status: 200 + step, durationMs: 1 } });
      } else {
        const r = rec(`e${step}`, step, roll < 0.6 ? 'rejected' : 'verified');
        all.push(r);
        await live.put(r);
      }
      if (step % 25 === 0) {
        await live.flush();
        const restarted = await new EventStore(path, 5, 3).load();
        assert.deepEqual(ids(restarted), ids(live.list()), `seed ${seed}, step ${step}`);
        assert.deepEqual(restarted.map((r) => r.forward?.status), live.list().map((r) => r.forward?.status), `seed ${seed}, step ${step}`);
      }
    }
  });

  it('rewrites the file once per (cap + rejected cap) records and keeps it under twice that, counting what a restart found', async () => {
    const path = file('events.jsonl');
    const store = new EventStore(path, 3, 2);
    await store.put(rec('first', 0));
    const seen = rewrites(path);
    for (let i = 1; i <= 40; i++) {
      await store.put(rec(`v${i}`, i));
      assert.ok(lineCount(path) < 10, `${lineCount(path)} lines`);
      seen();
    }
    // Compacted to 3 at 10 lines, then every 7: at 10, 17, 24, 31, 38 records.
    assert.equal(seen(), 5);
    const restarted = new EventStore(path, 3, 2);
    await restarted.load();
    const before = lineCount(path);
    for (let i = 41; i < 41 + (10 - before); i++) await restarted.put(rec(`v${i}`, i));
    assert.equal(lineCount(path), 3, 'the restart counted the lines it found and compacted on time');
  });

  it('skips lines that are not records (a torn write, another version) and keeps the rest', async () => {
    const path = file('events.jsonl');
    const good = rec('ok', 1);
    writeFileSync(path, ['null', '42', '"text"', '{"noid":true}', '{"id":7}', JSON.stringify(good), '{"id":"tor'].join('\n'));
    const loaded = await new EventStore(path, 5, 5).load();
    assert.deepEqual(ids(loaded), ['ok']);
  });

  it('a window that loads again sees another window clear the file: nothing stale stays findable', async () => {
    const path = file('events.jsonl');
    const a = new EventStore(path, 5, 5);
    await a.put(rec('old', 1));
    const b = new EventStore(path, 5, 5);
    await b.load();
    await b.clear();
    await b.put(rec('new', 2));
    await b.flush();
    assert.deepEqual(ids(await a.load()), ['new']);
    assert.equal(a.get('old'), undefined);
    assert.equal(a.get('new')?.id, 'new');
  });
});

describe('dedupe window', () => {
  it('a repeated id pushes out nothing and is written once', async () => {
    const path = file('ids');
    const store = new FileDedupeStore(path, 3);
    for (const id of ['a', 'b', 'c', 'c', 'b']) store.add(id);
    await store.flush();
    assert.equal(store.has('a'), true, 'the oldest id is still remembered');
    assert.equal(readFileSync(path, 'utf8'), 'a\nb\nc\n');
  });

  it('compacting a file that repeats ids (two windows wrote the same) leaves no blank lines', async () => {
    const path = file('ids');
    writeFileSync(path, 'a\nb\na\nb\na\n');
    const store = new FileDedupeStore(path, 3);
    store.add('c');
    await store.flush();
    assert.equal(readFileSync(path, 'utf8'), 'a\nb\nc\n');
  });
});
