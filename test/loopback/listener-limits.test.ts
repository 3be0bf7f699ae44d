import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { diagnose } from '../../src/webhooks/inspect/doctor';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import type { ChildListener } from '../../src/webhooks/receive/childListener';
import { listenerInChild } from '../support/childListener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { deliver } from '../support/ownConnection';
import { eventually } from '../support/receiver';

const event = (pad: number) => ({ object: 'event', id: 'evt_big', type: 'response.completed', created_at: 1, data: { id: 'resp_1', pad: 'x'.repeat(pad) } });

/** A full collection on demand (what the heap keeps, not what it has not collected yet). */
function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * `n` signed deliveries in one Buffer, each with a `padBytes` header. Built in a function of its
 * own and outside the JS heap, so that a heap measured after it holds only what the listener keeps.
 */
function paddedDeliveries(n: number, padBytes: number, secrets: Array<{ secret: string }>): Buffer {
  const pad = 'p'.repeat(padBytes);
  const requests = Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify({ ...event(10), id: `evt_head_${i}` });
    const headers = { ...signedHeaders(secrets[i % secrets.length].secret, `msg_head_${String(i).padStart(20, '0')}`, body), 'x-padding': pad };
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    return `POST /webhook-with-a-long-path-${i} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${lines}\r\n${body}`;
  });
  return Buffer.from(requests.join(''), 'latin1');
}

describe('what one unsigned sender can cost the listener', () => {
  const secrets = Array.from({ length: 16 }, (_, i) => ({ endpointId: `we_${i}`, secret: generateSecret() }));
  let listener: WebhookListener;
  let records: DeliveryRecord[];
  /** Called on each delivery, after the answer. */
  let onDelivery: (r: DeliveryRecord) => void;

  beforeEach(async () => {
    records = [];
    onDelivery = () => undefined;
    // In this process: these tests read the listener's own event loop and heap (the child runs the same class).
    listener = new WebhookListener({
      secrets: () => secrets,
      onDelivery: (r) => {
        records.push(r);
        onDelivery(r);
      },
    });
    await listener.start();
  });
  afterEach(() => listener.stop());

  it('a body over 256 KiB is refused (413) even when signed; a 250 KiB signed event is verified', async () => {
    const big = JSON.stringify(event(300 * 1024));
    assert.equal(await deliver(listener.url, big, signedHeaders(secrets[3].secret, 'msg_big', big)), 413);
    const fits = JSON.stringify(event(250 * 1024));
    assert.equal(await deliver(listener.url, fits, signedHeaders(secrets[3].secret, 'msg_fits', fits)), 200);
    const r = await eventually(() => records.find((x) => x.webhookId === 'msg_fits'));
    assert.equal(r.verdict, 'verified');
    assert.equal(records.some((x) => x.webhookId === 'msg_big'), false, 'the refused body reached no verdict');
  });

  it('a burst of unsigned deliveries is traced one per turn of the event loop: other work runs between them', async () => {
    const body = JSON.stringify(event(300), null, 2);
    const forged = signedHeaders(generateSecret(), 'msg_forged', body);
    const head = `POST /webhook HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${Object.entries(forged)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    let otherWorkRan = false;
    let otherWorkBeforeLast: boolean | undefined;
    onDelivery = () => {
      if (records.length === 1) setImmediate(() => (otherWorkRan = true));
      if (records.length === 8) otherWorkBeforeLast = otherWorkRan;
    };
    // Eight requests in one write: the listener answers them in one go.
    const socket = connect(listener.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write((head + body).repeat(8));
    await eventually(() => records.length >= 8 || undefined);
    socket.destroy();
    assert.equal(records.every((r) => r.verdict === 'rejected' && r.trace?.tried.length === 16), true, 'each is traced against every held secret');
    assert.equal(otherWorkBeforeLast, true, 'a timer or an answer can run between two traces');
  });

  it('a kept record holds its capped header values, not the request head they were read from (14 KiB heads, 200 deliveries)', async () => {
    const gc = forcedGc();
    const socket = connect(listener.port, '127.0.0.1');
    socket.on('error', () => undefined);
    const wire = paddedDeliveries(200, 14 * 1024, secrets);
    gc();
    gc();
    const before = getHeapStatistics().used_heap_size;
    socket.write(wire);
    await eventually(() => records.length >= 200 || undefined);
    socket.destroy();
    gc();
    gc();
    const grown = getHeapStatistics().used_heap_size - before;
    assert.equal(records.filter((r) => r.verdict === 'verified').length, 200);
    assert.equal(records[0].headers['x-padding'].length < 600, true, 'the value is capped');
    // Held heads would add 200 × 14 KiB = 2.8 MB (4.1 MB measured before); the records themselves are ~6 KB each (16 secrets tried).
    assert.ok(grown < 2e6, `the heap grew ${(grown / 1e6).toFixed(2)} MB for 200 kept records`);
  });

  it('a body over 64 KiB is not searched for a re-serialization (the doctor says so); a small re-serialized event still is', async () => {
    const secret = secrets[5].secret;
    const sendReformatted = async (pad: number, id: string) => {
      const signedAs = JSON.stringify(event(pad));
      const sent = JSON.stringify(event(pad), null, 2);
      assert.equal(await deliver(listener.url, sent, signedHeaders(secret, id, signedAs)), 400);
      return eventually(() => records.find((x) => x.webhookId === id));
    };
    const small = await sendReformatted(200, 'msg_small');
    assert.equal(small.trace?.reserialized?.form, 'compact JSON');
    assert.equal(diagnose(small)[0].cause, 'reserialized');
    const large = await sendReformatted(100 * 1024, 'msg_large');
    assert.equal(large.trace?.reserialized, undefined);
    assert.equal(large.trace?.reformsNotTried, true);
    const d = diagnose(large).find((x) => x.cause === 'changed-on-the-way');
    assert.match(d?.evidence.join('\n') ?? '', /Not checked for a re-serialization: the body is over 64 KiB/);
  });
});

describe('slow senders and the listener\'s connection slots', () => {
  const secret = generateSecret();
  let listener: ChildListener;
  const slow: Socket[] = [];

  beforeEach(async () => {
    listener = listenerInChild({ secrets: () => [{ endpointId: 'we_1', secret }] });
    await listener.start();
  });
  afterEach(async () => {
    for (const s of slow.splice(0)) s.destroy();
    await listener.stop();
  });

  /** A sender that opens a connection and trickles a head that never ends. */
  function slowSender(port: number): Promise<void> {
    return new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      slow.push(s);
      s.on('error', () => undefined);
      s.on('connect', () => {
        s.write('POST /webhook HTTP/1.1\r\nhost: x\r\n');
        const drip = setInterval(() => (s.writable ? s.write('x') : clearInterval(drip)), 200);
        s.on('close', () => clearInterval(drip));
        resolve();
      });
    });
  }

  it('128 slow senders hold every slot; then 12 signed deliveries all get through', async function () {
    this.timeout(60_000);
    await Promise.all(Array.from({ length: 128 }, () => slowSender(listener.port)));
    await new Promise((r) => setTimeout(r, 100));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const body = JSON.stringify({ object: 'event', id: `evt_${i}`, type: 'response.completed', created_at: 1, data: { id: `resp_${i}` } });
      statuses.push(await deliver(listener.url, body, signedHeaders(secret, `msg_${i}`, body)).catch(() => 0));
    }
    assert.deepEqual(statuses, Array(12).fill(200));
  });

  it('a sender that trickles its head is answered 408 within the 5 s head deadline; one that sends nothing is dropped as soon', async function () {
    this.timeout(60_000);
    const t0 = Date.now();
    const answer = (send: boolean) =>
      new Promise<{ text: string; ms: number }>((resolve) => {
        const s = connect(listener.port, '127.0.0.1');
        slow.push(s);
        let text = '';
        s.on('error', () => undefined);
        s.on('data', (d: Buffer) => (text += d.toString('latin1')));
        s.on('close', () => resolve({ text, ms: Date.now() - t0 }));
        if (send) s.on('connect', () => s.write('POST /webhook HTTP/1.1\r\nhost: x\r\n'));
      });
    const [trickled, silent] = await Promise.all([answer(true), answer(false)]);
    assert.match(trickled.text, /^HTTP\/1\.1 408 /);
    for (const r of [trickled, silent]) assert.ok(r.ms >= 4_500 && r.ms < 7_000, `closed after ${r.ms} ms`);
  });
});
