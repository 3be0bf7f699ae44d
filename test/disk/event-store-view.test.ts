/** What the Webhook Events view shows from the event store: order, lookups, updates, caps, clear, reload. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { EventStore } from '../../src/webhooks/store/stores';

const file = () => join(mkdtempSync(join(tmpdir(), 'event-view-')), 'events.jsonl');
const rec = (id: string, receivedAt: number, verdict: DeliveryRecord['verdict'] = 'verified'): DeliveryRecord =>
  ({ id, receivedAt, verdict, status: verdict === 'rejected' ? 400 : 200, body: '{}', headers: {} });
const ids = (s: EventStore) => s.list().map((r) => r.id);

describe('event store as the view sees it', () => {
  it('lists verified and rejected deliveries newest first, interleaved by arrival', async () => {
    const s = new EventStore(file(), 10, 10);
    for (const r of [rec('v1', 1), rec('x2', 2, 'rejected'), rec('v3', 3), rec('x4', 4, 'rejected'), rec('x5', 5, 'rejected'), rec('v6', 6, 'duplicate'), rec('v7', 7, 'malformed')]) await s.put(r);
    assert.deepEqual(ids(s), ['v7', 'v6', 'x5', 'x4', 'v3', 'x2', 'v1']);
    assert.equal(s.size, 7);
    // Same arrival time: the verified one first.
    const t = new EventStore(file(), 10, 10);
    await t.put(rec('x', 5, 'rejected'));
    await t.put(rec('v', 5));
    assert.deepEqual(ids(t), ['v', 'x']);
  });

  it('finds a record by id, updates it in place (a forward result) and keeps each list to its own cap', async () => {
    const path = file();
    const s = new EventStore(path, 3, 2);
    for (let i = 1; i <= 4; i++) await s.put(rec(`v${i}`, i));
    for (let i = 5; i <= 8; i++) await s.put(rec(`x${i}`, i, 'rejected'));
    assert.deepEqual(ids(s), ['x8', 'x7', 'v4', 'v3', 'v2']);
    assert.equal(s.size, 5);
    assert.equal(s.get('v1'), undefined, 'dropped past the cap');
    assert.equal(s.get('x6'), undefined);
    const updated = { ...s.get('v3')!, forward: { url: 'http://127.0.0.1:1/', status: 500, durationMs: 4 } };
    await s.put(updated);
    assert.deepEqual(ids(s), ['x8', 'x7', 'v4', 'v3', 'v2'], 'an update does not add a row');
    assert.equal(s.get('v3')?.forward?.status, 500);
    assert.equal(s.list().find((r) => r.id === 'v3')?.forward?.status, 500);
    // Read back from disk: the same rows, the update included, and lookups work.
    const again = new EventStore(path, 3, 2);
    assert.deepEqual((await again.load()).map((r) => r.id), ['x8', 'x7', 'v4', 'v3', 'v2']);
    assert.equal(again.get('v3')?.forward?.status, 500);
    assert.equal(again.get('x8')?.verdict, 'rejected');
    await again.put({ ...again.get('v4')!, forward: { url: 'http://127.0.0.1:1/', status: 204, durationMs: 1 } });
    assert.equal(again.size, 5);
    await again.clear();
    assert.deepEqual([again.size, again.get('v4'), ids(again)], [0, undefined, []]);
    assert.deepEqual((await new EventStore(path, 3, 2).load()).length, 0);
  });
});

describe('event store and a window that crashed', () => {
  it('takes over a lock left behind by a crashed compaction, compacts, and leaves no lock', async () => {
    const { existsSync, readFileSync, utimesSync, writeFileSync } = await import('node:fs');
    const path = file();
    writeFileSync(`${path}.lock`, '');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(`${path}.lock`, hourAgo, hourAgo);
    const s = new EventStore(path, 5, 5);
    for (let i = 0; i < 40; i++) await s.put(rec(`v${i}`, i));
    await s.flush();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
    assert.ok(lines < 40, `compacted to ${lines} lines`);
    assert.equal(existsSync(`${path}.lock`), false);
    assert.deepEqual((await new EventStore(path, 5, 5).load()).map((r) => r.id), ['v39', 'v38', 'v37', 'v36', 'v35']);
  });

  it('waits while another window holds the lock (compacting), then writes everything it was given', async () => {
    const { writeFileSync, unlinkSync } = await import('node:fs');
    const path = file();
    writeFileSync(`${path}.lock`, '');
    const s = new EventStore(path, 100, 100);
    setTimeout(() => unlinkSync(`${path}.lock`), 300);
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await s.put(rec(`v${i}`, i));
    await s.flush();
    assert.ok(Date.now() - t0 >= 250, 'it waited for the lock');
    assert.deepEqual((await new EventStore(path, 100, 100).load()).map((r) => r.id), ['v4', 'v3', 'v2', 'v1', 'v0']);
  });
});
