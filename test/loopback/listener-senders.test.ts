/**
 * Senders that try to hold the listener's memory or its connection slots (issue #35): bodies of
 * 1-byte chunks, and heads that promise a body that never comes, sent again and again.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import type { ChildListener } from '../../src/webhooks/receive/childListener';
import { listenerInChild } from '../support/childListener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { deliver } from '../support/ownConnection';
import { eventually } from '../support/receiver';

const event = (i: number) => JSON.stringify({ object: 'event', id: `evt_${i}`, type: 'response.completed', created_at: 1, data: { id: `resp_${i}` } });

describe('senders that try to hold the listener\'s memory or its slots', () => {
  const secret = generateSecret();
  let listener: ChildListener | WebhookListener;
  let records: DeliveryRecord[];
  const sockets: Socket[] = [];

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await listener?.stop();
  });

  it('32 connections sending chunked bodies in 1-byte chunks: each is refused (413) at the 256 KiB budget, and the heap stays bounded', async function () {
    this.timeout(240_000);
    // 8 M chunks to parse on a shared machine: deadlines long enough that only the byte budget refuses them.
    // In this process: the test reads the listener's own heap (the child runs the same class).
    listener = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], headersTimeoutMs: 100_000, requestTimeoutMs: 200_000 });
    await listener.start();
    const limit = 256 * 1024;
    // One byte more than the budget, each byte a chunk of its own: 1.5 MB on the wire per connection.
    const wire = Buffer.from(`POST /webhook HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n${'1\r\nx\r\n'.repeat(limit + 1)}0\r\n\r\n`, 'latin1');
    const t0 = Date.now();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    try {
      const answers = await Promise.all(
        Array.from({ length: 32 }, () =>
          new Promise<string>((resolve) => {
            const s = connect(listener.port, '127.0.0.1');
            sockets.push(s);
            let text = '';
            s.on('data', (d: Buffer) => (text += d.toString('latin1')));
            s.on('error', () => undefined);
            s.on('close', () => resolve(text));
            s.on('connect', () => s.write(wire));
          }),
        ),
      );
      for (const a of answers) {
        assert.match(a, /^HTTP\/1\.1 413 /);
        assert.ok(a.endsWith('\r\n\r\nPayload too large'), a);
      }
    } finally {
      clearInterval(sample);
    }
    const grownMB = (peak - before) / 2 ** 20;
    console.log(`      heap grew at most ${grownMB.toFixed(1)} MB for 32 connections in ${((Date.now() - t0) / 1000).toFixed(1)} s (the hand-written parser: 16-26 MB each)`);
    // 32 bodies of 256 KiB are 8 MiB; the wire is outside the heap.
    assert.ok(grownMB < 48, `the heap grew ${grownMB.toFixed(1)} MB`);
  });

  it('128 head-only senders (Content-Length: 200000, no body) reconnecting every request deadline: every signed delivery sent meanwhile is verified', async function () {
    this.timeout(60_000);
    records = [];
    // The defaults' ratios (head 5 s, request 10 s, senders back every 10 s), five times faster.
    const requestTimeoutMs = 2_000;
    listener = listenerInChild({ secrets: () => [{ endpointId: 'we_1', secret }], headersTimeoutMs: 1_000, requestTimeoutMs, onDelivery: (r) => records.push(r) });
    await listener.start();
    const head = 'POST /webhook HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 200000\r\n\r\n';
    let running = true;
    let dropped = 0;
    let opened = 0;
    /** One sender: a head, then nothing; a new connection every `requestTimeoutMs`, whatever became of the last. */
    const sender = async (offset: number) => {
      await new Promise((r) => setTimeout(r, offset));
      while (running) {
        const s = connect(listener.port, '127.0.0.1');
        sockets.push(s);
        opened++;
        s.on('error', () => undefined);
        s.on('connect', () => s.write(head));
        s.on('close', () => running && dropped++);
        await new Promise((r) => setTimeout(r, requestTimeoutMs));
        s.destroy();
        sockets.splice(sockets.indexOf(s), 1);
      }
    };
    const senders = Array.from({ length: 128 }, (_, i) => sender((i * 10) % 100));
    // The server is full before the first delivery.
    await eventually(() => opened >= 128 || undefined, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; Date.now() - started < 2.5 * requestTimeoutMs; i++) {
      const body = event(i);
      statuses.push(await deliver(listener.url, body, signedHeaders(secret, `msg_${i}`, body)).catch(() => 0));
      await new Promise((r) => setTimeout(r, 100));
    }
    running = false;
    await Promise.all(senders);
    assert.ok(statuses.length >= 10, `${statuses.length} deliveries sent`);
    assert.deepEqual(statuses, Array(statuses.length).fill(200), 'every delivery was answered 200');
    await eventually(() => records.length >= statuses.length || undefined, 10_000);
    assert.equal(records.filter((r) => r.verdict === 'verified').length, statuses.length, 'every delivery recorded as verified');
    assert.ok(dropped >= statuses.length, `the listener gave up ${dropped} head-only connections for them`);
  });
});
