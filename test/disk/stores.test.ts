import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryRecord, Verdict } from '../../src/webhooks/receive/listener';
import { EventStore, FileDedupeStore } from '../../src/webhooks/store/stores';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'stores-')), name);
const rec = (i: number, verdict: Verdict = 'verified'): DeliveryRecord => ({ id: `${verdict}_${i}`, receivedAt: i, verdict, status: verdict === 'rejected' ? 400 : 200, body: '{}', headers: {} });

describe('event store under load', () => {
  it('rejected deliveries have their own cap and never push out verified ones, in memory or after a restart', async () => {
    const path = tempFile('events.jsonl');
    const s = new EventStore(path, 10, 5);
    for (let i = 0; i < 10; i++) void s.put(rec(i));
    for (let i = 10; i < 5000; i++) void s.put(rec(i, 'rejected'));
    await s.flush();
    const check = (list: DeliveryRecord[]) => {
      assert.equal(list.filter((r) => r.verdict === 'verified').length, 10);
      assert.deepEqual(list.filter((r) => r.verdict === 'rejected').map((r) => r.id), ['rejected_4999', 'rejected_4998', 'rejected_4997', 'rejected_4996', 'rejected_4995']);
    };
    check(s.list());
    check(await new EventStore(path, 10, 5).load());
  });
});

describe('append-only stores shared and crashed', () => {
  it('a record appended after a torn last line is kept (each append starts on a fresh line)', async () => {
    const path = tempFile('events.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, `${JSON.stringify(rec(1))}\n{"id":"torn", "rece`);
    const s = new EventStore(path, 10);
    await s.load();
    await s.put(rec(2));
    assert.deepEqual((await new EventStore(path, 10).load()).map((r) => r.id), ['verified_2', 'verified_1']);
    // The id store too: an id lost to a torn line would be processed twice after a restart.
    const ids = tempFile('ids.txt');
    writeFileSync(ids, 'msg_a\nmsg_to');
    const d = new FileDedupeStore(ids);
    d.add('msg_b');
    await d.flush();
    assert.ok(new FileDedupeStore(ids).has('msg_b'));
  });

  it('one window compacting keeps the events the other window appended', async () => {
    const path = tempFile('events.jsonl');
    const a = new EventStore(path, 10);
    const b = new EventStore(path, 10);
    await Promise.all([a.load(), b.load()]);
    // b's arrive first.
    for (let i = 0; i < 5; i++) await b.put({ ...rec(100 + i), receivedAt: i - 10 });
    // Enough for a to compact the file (at twice its caps).
    for (let i = 0; i < 30; i++) await a.put(rec(i));
    await a.flush();
    const ids = (await new EventStore(path, 10).load()).map((r) => r.id);
    assert.deepEqual(ids.slice(0, 10), Array.from({ length: 10 }, (_, i) => `verified_${29 - i}`));
    // b's were older than the cap's worth of a's: gone by age, not by whose they were. A smaller flood keeps them:
    const path2 = tempFile('events.jsonl');
    const c = new EventStore(path2, 50, 5);
    const d = new EventStore(path2, 50, 5);
    for (let i = 0; i < 5; i++) await d.put(rec(100 + i));
    for (let i = 0; i < 120; i++) await c.put(rec(i, 'rejected'));
    await c.flush();
    const kept = (await new EventStore(path2, 50, 5).load()).map((r) => r.id);
    for (let i = 0; i < 5; i++) assert.ok(kept.includes(`verified_${100 + i}`), `verified_${100 + i} kept`);
  });

  it('compactions by several windows keep the newest ids of all of them, at once or in turn, and leave no temporary files', async () => {
    const { readdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const path = tempFile('ids.txt');
    const stores = Array.from({ length: 4 }, () => new FileDedupeStore(path, 50));
    const newest: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const [k, s] of stores.entries()) {
        for (let j = 0; j < 10; j++) {
          s.add(`msg_${round}_${k}_${j}`);
          newest.push(`msg_${round}_${k}_${j}`);
        }
        await s.flush();
      }
    }
    const reread = new FileDedupeStore(path, 50);
    for (const id of newest.slice(-50)) assert.ok(reread.has(id), `${id} kept`);
    // All at once: four windows each near their compaction, then each appends and compacts in the same turn.
    const path2 = tempFile('ids.txt');
    const windows = Array.from({ length: 4 }, () => new FileDedupeStore(path2, 50));
    for (const [k, w] of windows.entries()) {
      for (let j = 0; j < 95; j++) w.add(`old_${k}_${j}`);
      await w.flush();
    }
    for (let i = 0; i < 40; i++) windows[i % 4].add(`now_${i}`);
    await Promise.all(windows.map((w) => w.flush()));
    const after = new FileDedupeStore(path2, 50);
    for (let i = 0; i < 40; i++) assert.ok(after.has(`now_${i}`), `now_${i} kept`);
    assert.deepEqual(readdirSync(dirname(path2)).filter((f) => f !== 'ids.txt'), []);
  });

  it('store files are readable by their owner only', async function () {
    if (process.platform === 'win32') this.skip();
    const { statSync, writeFileSync } = await import('node:fs');
    const events = tempFile('events.jsonl');
    // Left readable by others by an older version.
    writeFileSync(events, `${JSON.stringify(rec(0))}\n`, { mode: 0o644 });
    await new EventStore(events, 1).put(rec(1));
    const ids = tempFile('ids.txt');
    const d = new FileDedupeStore(ids, 1);
    for (let i = 0; i < 5; i++) d.add(`m${i}`);
    await d.flush();
    for (const p of [events, ids]) assert.equal(statSync(p).mode & 0o777, 0o600, p);
  });
});
