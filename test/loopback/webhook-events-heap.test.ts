/**
 * What the kept deliveries cost the JS heap (issue #35): the store keeps each record as its bytes
 * outside the heap, and the dedupe window its ids, so a burst leaves a small wrapper a delivery
 * for V8's scavenges to copy, not the record's objects and strings. Through the real listener, on
 * loopback, with the event files on disk; what callers read back is what was recorded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import { generateSecret } from '../../src/webhooks/signature';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { eventually } from '../support/receiver';
import { pipelinedDeliveries } from '../support/pipelinedDeliveries';

/** A full collection on demand (what the heap keeps, not what it has not collected yet). */
function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** The heap's objects, without the code compiled meanwhile (~0.15 MB here, whatever is kept). */
function objectBytes(): number {
  return getHeapSpaceStatistics()
    .filter((s) => /^(new|old|large_object|new_large_object)_space$/.test(s.space_name))
    .reduce((sum, s) => sum + s.space_used_size, 0);
}

describe('webhook events on the JS heap', () => {
  let dir: string;
  let events: WebhookEvents;
  let listener: WebhookListener;
  const secret = generateSecret();
  /** What the listener handed over, as JSON bytes (outside the heap measured). */
  let handed: Buffer[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'events-heap-'));
    events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt'), maxStored: 1000 });
    await events.load();
    listener = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], dedupe: events.dedupe, onDelivery: (r) => (events.record(r), handed.push(Buffer.from(JSON.stringify(r)))) });
    await listener.start();
  });
  after(async () => {
    await listener.stop();
    await events.flush();
    events.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(wire: Buffer, total: number): Promise<void> {
    const socket = connect(listener.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(wire);
    await eventually(() => handed.length >= total || undefined, 60_000);
    socket.destroy();
    await events.flush();
  }

  it('1,000 kept deliveries and their webhook-ids cost the heap a small wrapper each, and read back as recorded', async () => {
    const gc = forcedGc();
    // A first few, so that the listener's and the store's own structures exist before measuring.
    await send(pipelinedDeliveries('warm', 50, secret), 50);
    const wire = pipelinedDeliveries('kept', 1000, secret);
    handed = [];
    gc();
    gc();
    const before = objectBytes();
    await send(wire, 1000);
    gc();
    gc();
    const grown = objectBytes() - before;
    const each = handed.map((b) => b.toString());
    const kept = events.list();
    assert.equal(kept.length, 1000, 'the newest 1,000 are kept');
    assert.deepEqual(kept.map((r) => JSON.stringify(r)).reverse(), each, 'each reads back as recorded, newest first');
    assert.equal(Object.isFrozen(events.get(kept[0]!.id)), true, 'a record read back is frozen');
    assert.equal(events.dedupe.has('msg_kept_' + '0'.repeat(28)), true, 'the first id is still a duplicate');
    // As objects and strings a record and its id were ~1.4 KB (1.42 MB measured); kept as bytes, the wrappers
    // and the test's own 1,000 Buffers come to 0.47 MB.
    assert.ok(grown < 800_000, `the heap grew ${(grown / 1e6).toFixed(2)} MB for 1,000 kept deliveries`);
  });
});
