/**
 * The listener's HTTP/1.1 layer at its edges: limits to the byte, keep-alive, bytes split at
 * awkward places, a sender that does not read its answers, a sender that resets.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createHttp1Server, type Http1Options, type Http1Response, type Http1Server } from '../../src/webhooks/receive/http1';
import { exchange, statuses } from '../support/rawHttp';

async function serve(options: Partial<Http1Options> = {}, answer: () => Http1Response = () => ({ status: 200, body: 'ok' })) {
  let handled = 0;
  const http: Http1Server = createHttp1Server({ maxBodyBytes: 100, headersTimeoutMs: 300, requestTimeoutMs: 600, maxHeaderBytes: 1024, ...options }, () => {
    handled++;
    return answer();
  });
  await new Promise<void>((r) => http.server.listen(0, '127.0.0.1', r));
  const port = (http.server.address() as AddressInfo).port;
  const close = () => new Promise<void>((r) => (http.server.close(() => r()), http.closeAllConnections()));
  return { port, handled: () => handled, close };
}

const body = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n') + 4);
const post = (extra = '') => `POST / HTTP/1.1\r\nContent-Length: 0\r\n${extra}\r\n`;
const open = (port: number) => new Promise<Socket>((resolve, reject) => {
  const s = connect(port, '127.0.0.1', () => resolve(s));
  s.on('error', reject);
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('HTTP/1.1 layer at its edges', () => {
  it('keeps an idle keep-alive connection open for its timeout, then closes it without an answer', async () => {
    const s = await serve({ keepAliveTimeoutMs: 400 });
    try {
      const socket = await open(s.port);
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
      socket.write(post());
      await sleep(150);
      socket.write(post());
      await sleep(100);
      assert.deepEqual(statuses(out), [200, 200], 'the second request, 150 ms later, is answered on the same connection');
      const idleFrom = Date.now();
      const at = await Promise.race([closed, sleep(3_000).then(() => 0)]);
      assert.ok(at > 0, 'an idle connection is closed');
      assert.ok(at - idleFrom >= 250, `closed after ${at - idleFrom} ms of idleness`);
      assert.deepEqual(statuses(out), [200, 200], 'no answer (no 408) to a connection that sent nothing');
    } finally {
      await s.close();
    }
  });

  it('answers a head that ends exactly at the header limit, and refuses one byte more, or an unfinished head past it, at once', async () => {
    const s = await serve({ maxHeaderBytes: 1024 });
    try {
      const head = (size: number) => {
        const start = 'POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\nX-Pad: ';
        return start + 'a'.repeat(size - start.length);
      };
      assert.equal(head(1024).length, 1024);
      // The head's first 1024 bytes arrive before its end: waiting for the rest is right.
      assert.deepEqual(statuses(await exchange(s.port, head(1024), '\r\n\r\n')), [200]);
      const refused = await exchange(s.port, `${head(1025)}\r\n\r\n`);
      assert.deepEqual(statuses(refused), [431]);
      assert.equal(body(refused), 'Request header fields too large');
      const t0 = Date.now();
      const unfinished = await exchange(s.port, head(1025));
      assert.equal(body(unfinished), 'Request header fields too large');
      assert.ok(Date.now() - t0 < 250, 'refused as soon as it passed the limit, not at the deadline');
    } finally {
      await s.close();
    }
  });

  it('skips only blank lines before a request: other bytes there are a bad request', async () => {
    const s = await serve();
    try {
      assert.deepEqual(statuses(await exchange(s.port, `\r\n\r\n${post('Connection: close\r\n')}`)), [200]);
      assert.deepEqual(statuses(await exchange(s.port, `P\n${post()}`)), [400]);
      assert.deepEqual(statuses(await exchange(s.port, `\r${post()}`)), [400]);
    } finally {
      await s.close();
    }
  });

  it('says why it refused: timeout, expectation, chunk errors, size', async () => {
    const s = await serve();
    try {
      const cases: Array<[string[], number, string]> = [
        [[post('Expect: something-else\r\n')], 417, 'Expectation failed'],
        [['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'], 400, 'Bad chunk size'],
        [[`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;${'a'.repeat(1030)}`], 400, 'Bad chunk size line'],
        [['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\rX0\r\n\r\n'], 400, 'Bad chunk'],
        [['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n'], 413, 'Payload too large'],
      ];
      for (const [parts, status, reason] of cases) {
        const raw = await exchange(s.port, ...parts);
        assert.deepEqual(statuses(raw), [status], reason);
        assert.equal(body(raw), reason);
      }
    } finally {
      await s.close();
    }
    const quick = await serve({ headersTimeoutMs: 60, requestTimeoutMs: 60 });
    try {
      const raw = await exchange(quick.port, 'POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab');
      assert.deepEqual(statuses(raw), [408]);
      assert.equal(body(raw), 'Request timeout');
    } finally {
      await quick.close();
    }
  });

  it('reads a chunked body sent one byte at a time, with a chunk size line of 1024 bytes and trailers, then the next request', async () => {
    const s = await serve({ headersTimeoutMs: 3_000, requestTimeoutMs: 3_000 });
    try {
      const sizeLine = `5;${'e'.repeat(1022)}`;
      assert.equal(sizeLine.length, 1024);
      const chunked = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n';
      const raw = await exchange(
        s.port,
        chunked, sizeLine, '\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n',
        chunked, ...'5\r\nhello\r\n0\r\n\r\n',
        `${chunked}0\r\nA\nB: c\r\n\r\n${post('Connection: close\r\n')}`,
      );
      assert.deepEqual(statuses(raw), [200, 200, 200, 200]);
      assert.equal(s.handled(), 4);
    } finally {
      await s.close();
    }
  });

  it('waits for trailers up to the header limit, counting from the last chunk', async () => {
    const s = await serve({ maxHeaderBytes: 1024 });
    try {
      const trailer = `0\r\nX: ${'a'.repeat(1018)}`;
      assert.equal(trailer.length, 1024);
      const raw = await exchange(s.port, 'POST / HTTP/1.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n', trailer, '\r\n\r\n');
      assert.deepEqual(statuses(raw), [200]);
      const over = await exchange(s.port, 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n', `${trailer}a`);
      assert.deepEqual(statuses(over), [431]);
    } finally {
      await s.close();
    }
  });

  it('holds at most the buffer budget across connections, counting chunked bodies in progress, and frees it after each request', async () => {
    const s = await serve({ maxBufferedBytes: 300, maxBodyBytes: 1_000, headersTimeoutMs: 2_000, requestTimeoutMs: 2_000 });
    try {
      // A request of exactly the budget is accepted, one after another: the budget is given back.
      const head = `POST / HTTP/1.1\r\nContent-Length: ${300 - 40}\r\n\r\n`;
      assert.equal(head.length, 40);
      for (let i = 0; i < 3; i++) assert.deepEqual(statuses(await exchange(s.port, head + 'x'.repeat(300 - 40))), [200]);
      // Two senders each holding 200 bytes of an unfinished chunked body: the second passes the budget.
      const a = await open(s.port);
      a.write(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nc8\r\n${'x'.repeat(200)}\r\n`);
      await sleep(50);
      const raw = await exchange(s.port, `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nc8\r\n${'x'.repeat(200)}\r\n`);
      assert.deepEqual(statuses(raw), [503]);
      assert.equal(body(raw), 'Too much data in flight; try again later');
      a.destroy();
    } finally {
      await s.close();
    }
  });

  it('stops reading from a sender that does not read its answers, instead of queueing answers without end', async function () {
    this.timeout(20_000);
    // Large requests (about one per read) and 1 MB answers: what the connection's buffers cannot
    // take must not pile up in the listener's memory.
    const answer = 'x'.repeat(1024 * 1024);
    const s = await serve({ maxBodyBytes: 100_000, headersTimeoutMs: 10_000, requestTimeoutMs: 10_000 }, () => ({ status: 200, body: answer }));
    try {
      const socket = await open(s.port);
      socket.pause();
      const request = `POST / HTTP/1.1\r\nContent-Length: 65536\r\n\r\n${'r'.repeat(65_536)}`;
      for (let i = 0; i < 100; i++) socket.write(request);
      await sleep(1_500);
      assert.ok(s.handled() > 0);
      assert.ok(s.handled() < 70, `${s.handled()} of 100 requests answered into a connection nobody reads`);
      socket.destroy();
    } finally {
      await s.close();
    }
  });

  it('survives a sender that resets its connection mid-request, and keeps serving', async () => {
    const s = await serve();
    try {
      const socket = await open(s.port);
      socket.write('POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\npartial');
      await sleep(30);
      socket.resetAndDestroy();
      await sleep(50);
      assert.deepEqual(statuses(await exchange(s.port, post('Connection: close\r\n'))), [200]);
    } finally {
      await s.close();
    }
  });

  it('answers 500 "Internal server error" when the handler throws', async () => {
    const s = await serve({}, () => {
      throw new Error('boom');
    });
    try {
      assert.equal(body(await exchange(s.port, post('Connection: close\r\n'))), 'Internal server error');
    } finally {
      await s.close();
    }
  });
});
