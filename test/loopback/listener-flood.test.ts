import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { DeliveryRecord } from '../../src/webhooks/receive/listener';
import { listenerInChild } from '../support/childListener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { flood } from '../support/flood';
import { eventually } from '../support/receiver';

describe('webhook listener under a flood of unsigned deliveries', () => {
  it('3,000 unsigned 256 KiB–1 MiB requests: memory < 300 MB, store < 50 MB, earlier verified events kept, the next valid one verified', async function () {
    this.timeout(120_000);
    const r = await flood({ requests: 3000, connections: 8, minBytes: 256 * 1024, maxBytes: 1024 * 1024, verifiedBefore: 20 });
    console.log(`      ${JSON.stringify(r)}`);
    assert.ok(r.peakRssMB < 300, `peak memory ${r.peakRssMB.toFixed(0)} MB`);
    assert.ok(r.storeMB < 50, `store ${r.storeMB.toFixed(1)} MB`);
    assert.equal(r.verifiedBeforeKept, 20);
    assert.ok(r.verifiedAfter, 'the valid delivery after the flood was verified');
    // Counted in a summary rather than kept one by one.
    assert.ok(r.rejectedRows < 100, `${r.rejectedRows} rejected rows`);
    assert.ok(r.rejectedCounted > 1000, `${r.rejectedCounted} rejections counted`);
  });

  it('2,000 replays of one signed 250 KiB delivery: counted on it, every earlier verified event kept, memory < 300 MB, store < 50 MB', async function () {
    this.timeout(120_000);
    const r = await flood({ requests: 2000, connections: 8, minBytes: 250 * 1024, maxBytes: 250 * 1024, verifiedBefore: 20, replays: true });
    console.log(`      ${JSON.stringify(r)}`);
    assert.equal(r.sent, 2000);
    assert.equal(r.verifiedBeforeKept, 20, 'no replay pushed out a verified event');
    assert.ok(r.replayedKept, 'the replayed delivery is still its one verified row');
    assert.ok(r.answered >= 1900, `${r.answered} of 2,000 replays answered`);
    assert.equal(r.duplicatesCounted, r.answered, 'every replay answered is counted on it (and the count survives a restart)');
    assert.equal(r.duplicateRows, 0, 'no row of their own');
    assert.ok(r.verifiedAfter, 'the valid delivery after the replays was verified');
    assert.ok(r.peakRssMB < 300, `peak memory ${r.peakRssMB.toFixed(0)} MB`);
    assert.ok(r.storeMB < 50, `store ${r.storeMB.toFixed(1)} MB`);
  });

  it('one socket of pipelined tiny unsigned requests is summarised, not recorded 20,000 times, with capped header values', async () => {
    const secret = generateSecret();
    const records: DeliveryRecord[] = [];
    const l = listenerInChild({ secrets: () => [{ endpointId: 'we_1', secret }], onDelivery: (r) => records.push(r), rejectionLimits: { windowMs: 1_000 } });
    await l.start();
    try {
      const one = (id: string) => `POST /webhook HTTP/1.1\r\nhost: x\r\nwebhook-id: ${id}\r\nwebhook-timestamp: 1\r\nwebhook-signature: v1,AAAA\r\ncontent-length: 2\r\n\r\n{}`;
      const socket = connect(l.port, '127.0.0.1');
      let answers = '';
      socket.on('data', (d: Buffer) => (answers += d.toString('latin1')));
      socket.write(one('i'.repeat(12 * 1024)) + one('msg_x').repeat(19_999));
      await eventually(() => answers.split('HTTP/1.1 400').length > 20_000 || undefined, 60_000);
      socket.destroy();
      // Every rejection is either a row of its own or counted in a window's summary.
      const total = () => records.reduce((n, r) => n + (r.count ?? 1), 0);
      await eventually(() => total() === 20_000 || undefined);
      const summaries = records.filter((r) => r.count);
      assert.ok(summaries.length >= 1 && records.length <= 20 * (summaries.length + 1) + summaries.length, `${records.length} records`);
      for (const r of summaries) assert.match(r.reason ?? '', /^[\d,]+ rejected deliveries from 127\.0\.0\.1 \([\d,]+\) within 1 s: counted/);
      for (const r of records) assert.ok(JSON.stringify(r).length < 2_000, 'a record stays small');
      assert.match(records[0].webhookId!, /^i{512}… \(12288 characters\)$/);
      const b = JSON.stringify({ id: 'evt_ok', type: 'response.completed' });
      const res = await fetch(`${l.url}/webhook`, { method: 'POST', headers: signedHeaders(secret, 'msg_ok', b), body: b });
      assert.equal(res.status, 200);
    } finally {
      await l.stop();
    }
  });

  it('limits open connections and the bytes buffered across all of them', async () => {
    const l = listenerInChild({ secrets: () => [], maxConnections: 2, maxBufferedBytes: 1024 * 1024, maxBodyBytes: 1024 * 1024 });
    await l.start();
    const open = () => {
      const socket = connect(l.port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
      const closed = new Promise<void>((r) => socket.on('close', () => r()));
      socket.on('error', () => undefined);
      return { socket, closed, answer: () => answer };
    };
    try {
      const head = (n: number) => `POST /webhook HTTP/1.1\r\nhost: x\r\ncontent-length: ${n}\r\n\r\n`;
      const a = open();
      a.socket.write(head(1000_000) + 'x'.repeat(700_000));
      await new Promise((r) => setTimeout(r, 200));
      const b = open();
      b.socket.write(head(1000_000) + 'x'.repeat(700_000));
      await b.closed;
      assert.match(b.answer(), /^HTTP\/1\.1 503 /);
      // A full server gives up the connection that has waited longest without a whole request: a, mid-body.
      const c = open();
      const d = open();
      await Promise.race([a.closed, c.closed, d.closed]);
      assert.match(a.answer(), /^HTTP\/1\.1 408 /);
      for (const x of [a, c, d]) x.socket.destroy();
    } finally {
      await l.stop();
    }
  });
});
