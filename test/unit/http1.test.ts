/** The listener's HTTP/1.1 layer on raw sockets: what it accepts, and the shapes it refuses. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createHttp1Server, type Http1Request, type Http1Server } from '../../src/webhooks/receive/http1';
import { IdWindow } from '../../src/webhooks/store/records';
import { exchange, statuses } from '../support/rawHttp';

describe('HTTP/1.1 layer of the listener', () => {
  let http: Http1Server;
  let port: number;
  const seen: Http1Request[] = [];

  before(async () => {
    http = createHttp1Server({ maxBodyBytes: 100, headersTimeoutMs: 300, requestTimeoutMs: 600, maxHeaderBytes: 1024 }, (req) => {
      seen.push(req);
      return { status: 200, body: `got ${req.body.length}` };
    });
    await new Promise<void>((r) => http.server.listen(0, '127.0.0.1', r));
    port = (http.server.address() as AddressInfo).port;
  });
  beforeEach(() => (seen.length = 0));
  after(() => new Promise<void>((r) => (http.server.close(() => r()), http.closeAllConnections())));

  it('answers pipelined requests in order on one connection, Content-Length and chunked alike', async () => {
    const a = 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello';
    const b = 'POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n';
    const raw = await exchange(port, a + b, 'POST /c HTTP/1.1\r\nContent-Length: 0\r\n\r\n');
    assert.deepEqual(statuses(raw), [200, 200, 200]);
    assert.deepEqual(seen.map((r) => [r.target, r.body.toString()]), [['/a', 'hello'], ['/b', 'abcde'], ['/c', '']]);
    assert.match(raw, /got 5[\s\S]*got 5[\s\S]*got 0/);
  });

  it('reassembles a chunked body sent a few bytes at a time, of exactly the limit, and skips blank lines between requests', async () => {
    const body = 'x'.repeat(100);
    const wire = `\r\n\r\nPOST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nx\r\n63\r\n${body.slice(1)}\r\n0\r\n\r\n`;
    // Pieces sent 20 ms apart: few enough to finish well within the request deadline on a busy machine.
    const pieces = wire.match(/[\s\S]{1,13}/g)!;
    const raw = await exchange(port, ...pieces);
    assert.deepEqual(statuses(raw), [200]);
    assert.equal(seen[0].body.toString(), body);
    assert.match(raw, /got 100/);
  });

  it('reads a body split across packets, and answers Expect: 100-continue', async () => {
    const raw = await exchange(port, 'POST / HTTP/1.1\r\nContent-Length: 6\r\nExpect: 100-continue\r\n\r\n', 'abc', 'def');
    assert.deepEqual(statuses(raw), [100, 200]);
    assert.equal(seen[0].body.toString(), 'abcdef');
  });

  const refusals: Array<[string, string, number]> = [
    ['Content-Length and Transfer-Encoding together (smuggling)', 'POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
    ['two different Content-Lengths', 'POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 400],
    ['a transfer coding other than chunked', 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 501],
    ['an obs-folded header', 'POST / HTTP/1.1\r\nX-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n', 400],
    ['a body over the limit (declared)', 'POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n', 413],
    ['a chunked body over the limit', `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n${'x'.repeat(101)}\r\n0\r\n\r\n`, 413],
    ['a bad chunk size', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400],
    ['headers over the limit', `POST / HTTP/1.1\r\nX-Big: ${'a'.repeat(2000)}\r\n\r\n`, 431],
    ['garbage', 'HELLO THERE\r\n\r\n', 400],
    ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 505],
    ['an unknown expectation', 'POST / HTTP/1.1\r\nExpect: magic\r\nContent-Length: 0\r\n\r\n', 417],
    ['chunk data longer than its size', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n', 400],
    ['chunk data not ended by CRLF', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\nX0\r\n\r\n', 400],
    ['a chunk size with trailing garbage', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2x\r\nab\r\n0\r\n\r\n', 400],
    ['a chunk size of nine hex digits', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n000000002\r\nab\r\n0\r\n\r\n', 400],
    ['a chunk size line that never ends', `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${'0'.repeat(1100)}`, 400],
    ['trailers over the header limit', `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: ${'a'.repeat(1100)}`, 431],
    // A bare LF or a NUL in a value: another parser on the way could read a header line there (request smuggling).
    ['a header value with a bare LF', 'POST / HTTP/1.1\r\nX-A: one\nContent-Length: 5\r\nContent-Length: 0\r\n\r\n', 400],
    ['a header value with a NUL', 'POST / HTTP/1.1\r\nX-A: a\0b\r\nContent-Length: 0\r\n\r\n', 400],
    // Repeated, the codings are one list: chunked last after gzip is still gzip first, not a chunked body.
    ['gzip then chunked in two Transfer-Encoding headers', 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 501],
    ['a version past HTTP/1.1', 'POST / HTTP/1.10\r\nContent-Length: 0\r\n\r\n', 505],
    ['chunks that add up to more than the limit', `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n32\r\n${'x'.repeat(50)}\r\n33\r\n${'x'.repeat(51)}\r\n0\r\n\r\n`, 413],
  ];
  for (const [name, bytes, status] of refusals) {
    it(`refuses ${name} with ${status} and closes`, async () => {
      const raw = await exchange(port, bytes);
      assert.deepEqual(statuses(raw), [status]);
      assert.match(raw, /connection: close/);
      assert.equal(seen.length, 0, 'the handler never saw it');
    });
  }

  it('tells a sender what was wrong, in the answer\'s body', async () => {
    const cases: Array<[string, RegExp]> = [
      ['POST / HTTP/1.1\r\n: no-name\r\nContent-Length: 0\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\nBad header line$/],
      ['POST / HTTP/1.1\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\nBad header name$/],
      ['POST / HTTP/1.2\r\nContent-Length: 0\r\n\r\n', /^HTTP\/1\.1 505 [^]*\r\n\r\nHTTP version not supported$/],
      ['POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', /\r\n\r\nBoth Content-Length and Transfer-Encoding$/],
      ['POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n', /^HTTP\/1\.1 501 [^]*\r\n\r\nOnly chunked transfer coding is supported$/],
      ['POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n', /^HTTP\/1\.1 413 [^]*\r\n\r\nPayload too large$/],
      ['HELLO THERE\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\nBad request line$/],
      ['POST / HTTP/1.1\r\nX-A: a\0b\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\nBad header value$/],
      ['POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /^HTTP\/1\.1 400 [^]*\r\n\r\nBad Content-Length$/],
    ];
    for (const [wire, expected] of cases) assert.match(await exchange(port, wire), expected, JSON.stringify(wire));
    // A body of exactly the limit is taken; the answer keeps the connection open and says so.
    const atLimit = await exchange(port, `POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n${'x'.repeat(100)}`);
    assert.deepEqual(statuses(atLimit), [200]);
    assert.match(atLimit, /\r\nconnection: keep-alive\r\n/);
    // The same Content-Length twice is one length, not a conflict.
    assert.deepEqual(statuses(await exchange(port, 'POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok')), [200]);
  });

  it('closes after the answer for Connection: close and for HTTP/1.0 without keep-alive', async () => {
    for (const req of ['POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', 'POST / HTTP/1.0\r\nContent-Length: 0\r\n\r\n']) {
      const raw = await exchange(port, req, 'POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n');
      assert.deepEqual(statuses(raw), [200], 'the second request on a closing connection is not read');
    }
  });

  it('answers 408 to a sender that trickles its headers past the deadline, one byte at a time', async () => {
    const parts = Array.from({ length: 25 }, () => 'X');
    const raw = await exchange(port, 'POST / HTTP/1.1\r\nX-Slow: ', ...parts);
    assert.deepEqual(statuses(raw), [408]);
  });

  it('a handler that throws becomes a 500, and the server keeps serving', async () => {
    const failing = createHttp1Server({ maxBodyBytes: 10, headersTimeoutMs: 1000, requestTimeoutMs: 1000 }, () => {
      throw new Error('boom');
    });
    await new Promise<void>((r) => failing.server.listen(0, '127.0.0.1', r));
    const p = (failing.server.address() as AddressInfo).port;
    const raw = await exchange(p, 'POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\nPOST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n');
    assert.deepEqual(statuses(raw), [500, 500]);
    await new Promise<void>((r) => (failing.server.close(() => r()), failing.closeAllConnections()));
  });

  it('trims only space and tab around header values and chunk sizes (other whitespace is refused)', async () => {
    for (const ws of ['\v', '\f', '\xa0']) {
      assert.deepEqual(statuses(await exchange(port, `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${ws}2\r\n\r\nok`)), [400], `content-length with ${JSON.stringify(ws)}`);
      assert.deepEqual(statuses(await exchange(port, `POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n${ws}2\r\nok\r\n0\r\n\r\n`)), [400], `chunk size with ${JSON.stringify(ws)}`);
    }
    const answers = await exchange(
      port,
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: \t2 \r\n\r\nok',
      'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n2 \t\r\nok\r\n0\r\n\r\n',
    );
    assert.deepEqual(statuses(answers), [200, 200]);
  });
});

describe('dedupe window', () => {
  it('remembers the last ids in arrival order and says whether an id was new', () => {
    const w = new IdWindow(3);
    assert.deepEqual(['a', 'b', 'a', 'c', 'd'].map((id) => w.add(id)), [true, true, false, true, true]);
    assert.deepEqual(w.ids(), ['b', 'c', 'd']);
    assert.deepEqual([w.has('a'), w.has('b'), w.has('d')], [false, true, true]);
    assert.deepEqual(new IdWindow(5).ids(), [], 'empty slots are not ids');
  });
});
