/**
 * The owner of received webhook events, wired to the real listener over loopback as the extension
 * wires it: typed change events, records that never change after hand-off (a forward's answer or a
 * replay is a new version), and duplicates counted on what they repeat instead of kept.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emitter } from '../../src/service/emitter';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import { MAX_REPLAYS, type DeliveryRecord, type ForwardResult } from '../../src/webhooks/store/records';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { eventually, startReceiver } from '../support/receiver';

const event = (id: string, pad = 0) => JSON.stringify({ object: 'event', id, type: 'response.completed', created_at: 1, data: { id: `resp_${id}`, pad: 'p'.repeat(pad) } });

describe('webhook events: one owner, typed changes, new versions', () => {
  let dir: string;
  let events: WebhookEvents;
  let listener: WebhookListener;
  let app: Awaited<ReturnType<typeof startReceiver>> | undefined;
  const secret = generateSecret();
  const recorded: DeliveryRecord[] = [];
  const updated: string[] = [];
  let resets = 0;

  async function open(opts: { maxStored?: number; countWriteMs?: number; forward?: boolean } = {}) {
    dir = mkdtempSync(join(tmpdir(), 'webhook-events-'));
    events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt'), maxStored: opts.maxStored, maxMetadata: 5, countWriteMs: opts.countWriteMs });
    events.onDidRecord((r) => recorded.push(r));
    events.onDidUpdate((id) => updated.push(id));
    events.onDidReset(() => resets++);
    await events.load();
    listener = new WebhookListener({
      secrets: () => [{ endpointId: 'we_1', secret }],
      dedupe: events.dedupe,
      forwardTo: () => app?.url,
      onDelivery: (r) => events.record(r),
      onForwarded: (r, f) => events.forwarded(r.id, f),
    });
    await listener.start();
  }
  /** The events file as it is now: none yet while the first write is still under way. */
  const onDisk = () => (existsSync(join(dir, 'events.jsonl')) ? readFileSync(join(dir, 'events.jsonl'), 'utf8') : '');
  const post = async (id: string, body: string) => (await fetch(`${listener.url}/webhook`, { method: 'POST', headers: signedHeaders(secret, id, body), body })).status;

  beforeEach(() => {
    recorded.length = 0;
    updated.length = 0;
    resets = 0;
    app = undefined;
  });
  afterEach(async () => {
    await listener.stop();
    await app?.close();
    // Writes already under way finish before the folder goes (else its removal races them).
    await events.flush();
    events.dispose();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  });

  it('tells listeners of a new row with the record, and of the app\'s answer with the id of a new version; the first version is never changed', async () => {
    app = await startReceiver([202]);
    await open({ countWriteMs: 60_000 });
    assert.equal(resets, 1, 'loading from disk is a reset');
    assert.equal(await post('msg_1', event('evt_1')), 200);
    const first = await eventually(() => recorded[0]);
    assert.equal(first.verdict, 'verified');
    assert.ok(Object.isFrozen(first), 'handed over frozen: nobody can change it in place');
    assert.equal(Reflect.set(first, 'verdict', 'rejected'), false, 'a change in place is refused');
    await eventually(() => updated[0]);
    assert.deepEqual(updated, [first.id]);
    assert.equal(first.forward, undefined, 'the record the views were given is unchanged');
    const now = events.get(first.id)!;
    assert.notEqual(now, first);
    assert.equal(now.forward?.status, 202);
    assert.deepEqual(events.list().map((r) => r.id), [first.id], 'an answer is a version, not a row');
    // Written at once (only duplicate counts wait for their write).
    await eventually(() => onDisk().includes('"status":202') || undefined);
  });

  it('keeps the newest replays as new versions, tells who listens, and keeps them across a restart', async () => {
    await open();
    await post('msg_r', event('evt_r'));
    const r = await eventually(() => recorded[0]);
    const answer = (n: number): ForwardResult => ({ url: 'http://127.0.0.1:9/webhook', kind: 'replay', status: 200 + n, durationMs: n });
    for (let n = 0; n < MAX_REPLAYS + 2; n++) events.replayed(r.id, answer(n));
    assert.deepEqual(events.get(r.id)!.replays!.map((x) => x.status), [202, 203, 204, 205, 206]);
    assert.equal(updated.filter((id) => id === r.id).length, MAX_REPLAYS + 2);
    assert.equal(r.replays, undefined);
    assert.equal(events.replayed('gone', answer(0)), undefined, 'nothing to answer for a record no longer stored');
    await events.flush();
    const again = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    await again.load();
    assert.equal(again.get(r.id)?.replays?.at(-1)?.status, 206);
  });

  it('counts replays of one signed delivery on it: no new row, no body kept, every verified event kept, one write per burst', async () => {
    await open({ maxStored: 5, countWriteMs: 60_000 });
    for (let i = 0; i < 5; i++) assert.equal(await post(`msg_${i}`, event(`evt_${i}`)), 200);
    const big = event('evt_big', 200 * 1024);
    assert.equal(await post('msg_big', big), 200);
    await eventually(() => recorded.length === 6 || undefined);
    const original = recorded[5];
    const sizeBefore = await events.flush().then(() => statSync(join(dir, 'events.jsonl')).size);
    for (let i = 0; i < 300; i++) assert.equal(await post('msg_big', big), 200, 'each replay is acknowledged');
    await eventually(() => events.get(original.id)!.duplicates?.count === 300 || undefined);
    assert.equal(recorded.length, 6, 'no row of its own');
    assert.deepEqual(events.list().map((r) => r.webhookId), ['msg_big', 'msg_4', 'msg_3', 'msg_2', 'msg_1'], 'the window holds the same rows');
    assert.ok(updated.filter((id) => id === original.id).length >= 300);
    assert.equal(original.duplicates, undefined, 'the first version is unchanged');
    // In memory now; on disk once, when the burst's write is due (here: the flush).
    assert.ok(statSync(join(dir, 'events.jsonl')).size - sizeBefore < 1000, 'counting wrote nothing yet');
    await events.flush();
    const grown = statSync(join(dir, 'events.jsonl')).size - sizeBefore;
    assert.ok(grown > 200 * 1024 && grown < 2 * 200 * 1024, `one new version written (${grown} bytes)`);
    await events.flush();
    assert.equal(statSync(join(dir, 'events.jsonl')).size - sizeBefore, grown, 'written once, not again at the next flush');
    const reloaded = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt'), maxStored: 5 });
    await reloaded.load();
    assert.equal(reloaded.get(original.id)?.duplicates?.count, 300, 'a restart shows the count');
  });

  it('counts duplicates of a delivery no longer stored on one body-less row, in the metadata window', async () => {
    await open({ maxStored: 2, countWriteMs: 10 });
    const b = event('evt_old', 10_000);
    await post('msg_old', b);
    for (let i = 0; i < 3; i++) await post(`msg_new_${i}`, event(`evt_new_${i}`));
    await eventually(() => recorded.length === 4 || undefined);
    assert.ok(!events.list().some((r) => r.webhookId === 'msg_old'), 'pushed out by newer verified events');
    for (let i = 0; i < 50; i++) assert.equal(await post('msg_old', b), 200);
    const row = await eventually(() => events.list().find((r) => r.webhookId === 'msg_old' && r.count === 50));
    assert.deepEqual([row.verdict, row.body, row.bodyBytes], ['duplicate', '', Buffer.byteLength(b)]);
    assert.equal(recorded.filter((r) => r.verdict === 'duplicate').length, 1, 'one row for all of them');
    assert.deepEqual(events.list().filter((r) => r.verdict === 'verified').map((r) => r.webhookId), ['msg_new_2', 'msg_new_1']);
    await eventually(() => onDisk().includes('"count":50') || undefined);
  });

  it('after a restart, a duplicate of a stored delivery still counts on it; ids of records long gone are let go', async () => {
    await open({ maxStored: 3, countWriteMs: 10 });
    for (let i = 0; i < 40; i++) await post(`msg_${i}`, event(`evt_${i}`));
    await eventually(() => recorded.length === 40 || undefined);
    // Far more ids went by than the store holds: the newest still counts, the oldest has its own row.
    await post('msg_39', event('evt_39'));
    await post('msg_0', event('evt_0'));
    await eventually(() => events.list().some((r) => r.webhookId === 'msg_0' && r.verdict === 'duplicate') || undefined);
    assert.equal(events.list().find((r) => r.webhookId === 'msg_39')?.duplicates?.count, 1);
    await listener.stop();
    await events.flush();
    events.dispose();
    // Another window (or a restart) reads the same files.
    const again = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt'), maxStored: 3, maxMetadata: 5 });
    await again.load();
    events = again;
    listener = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], dedupe: again.dedupe, onDelivery: (r) => again.record(r) });
    await listener.start();
    await post('msg_38', event('evt_38'));
    await post('msg_0', event('evt_0'));
    await eventually(() => again.list().find((r) => r.webhookId === 'msg_38')?.duplicates?.count === 1 || undefined);
    await eventually(() => again.list().find((r) => r.webhookId === 'msg_0')?.count === 2 || undefined);
    assert.equal(again.list().filter((r) => r.verdict === 'duplicate').length, 1, 'the summary row counts on');
  });

  it('a rejected delivery is never what a duplicate counts on; the app\'s answer written at once carries the count that waited', async () => {
    await open({ countWriteMs: 60_000 });
    const base = { receivedAt: 1, status: 400, body: '', headers: {}, webhookId: 'msg_x' };
    events.record({ ...base, id: 'rej', verdict: 'rejected' });
    events.record({ ...base, id: 'dup', verdict: 'duplicate', status: 200 });
    assert.deepEqual(events.list().map((r) => [r.id, r.verdict, r.count]), [['dup', 'duplicate', 1], ['rej', 'rejected', undefined]]);
    assert.equal(events.get('rej')?.duplicates, undefined);
    events.record({ ...base, id: 'ok', verdict: 'verified', status: 200, webhookId: 'msg_ok', receivedAt: 2 });
    events.record({ ...base, id: 'ok2', verdict: 'duplicate', status: 200, webhookId: 'msg_ok', receivedAt: 3 });
    events.forwarded('ok', { url: 'http://127.0.0.1:9/', status: 204, durationMs: 1 });
    await events.flush();
    const lines = onDisk().trim().split('\n').map((l) => JSON.parse(l) as DeliveryRecord);
    const written = lines.filter((r) => r.id === 'ok');
    assert.equal(written.length, 2, 'the record, then its answer (the count went with it, not on its own)');
    assert.deepEqual([written[1].forward?.status, written[1].duplicates?.count, written[1].duplicates?.lastAt], [204, 1, 3]);
    assert.equal(events.forwarded('gone', { url: 'x', durationMs: 1 }), undefined);
  });

  it('once disposed, tells nobody and writes no count that was waiting', async () => {
    await open({ countWriteMs: 20 });
    await post('msg_d', event('evt_d'));
    const r = await eventually(() => recorded[0]);
    await events.flush();
    const size = statSync(join(dir, 'events.jsonl')).size;
    await post('msg_d', event('evt_d'));
    await eventually(() => events.get(r.id)?.duplicates || undefined);
    const heard = updated.length;
    events.dispose();
    await new Promise((res) => setTimeout(res, 100));
    assert.equal(statSync(join(dir, 'events.jsonl')).size, size);
    events.record({ ...r, id: 'after', webhookId: 'msg_after' });
    events.forwarded(r.id, { url: 'x', durationMs: 1 });
    await events.clear();
    assert.deepEqual([recorded.length, updated.length, resets], [1, heard, 1]);
  });

  it('a clear empties the rows, tells listeners once, and a duplicate after it starts a row of its own', async () => {
    await open();
    await post('msg_c', event('evt_c'));
    await eventually(() => recorded[0]);
    await events.clear();
    assert.deepEqual([events.size, resets], [0, 2]);
    await post('msg_c', event('evt_c'));
    const row = await eventually(() => events.list()[0]);
    assert.deepEqual([row.verdict, row.count], ['duplicate', 1], 'the id was processed: not processed again, but shown');
  });
});

describe('core change events', () => {
  it('each subscription hears every fire until disposed; a listener that throws does not silence the rest', () => {
    const e = new Emitter<number>();
    const heard: string[] = [];
    const f = (n: number) => heard.push(`f${n}`);
    const a = e.event(f);
    e.event(f);
    e.event(() => {
      throw new Error('mine');
    });
    e.event((n) => heard.push(`g${n}`));
    e.fire(1);
    a.dispose();
    e.fire(2);
    e.dispose();
    e.fire(3);
    assert.deepEqual(heard, ['f1', 'f1', 'g1', 'f2', 'g2']);
  });
});
