/**
 * The transport under the HTTP layer in plain Node (src/service/nodeTransport.ts: undici's Agent
 * and ProxyAgent), through HttpClient as every API call uses it, against real servers on loopback: TLS with a CA of
 * our own, straight and inside a proxy's CONNECT tunnel; kept-alive connections; each timeout; a
 * caller's abort; a reader slower than the sender.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { HttpClient } from '../../src/service/http';
import type { ProxySettings } from '../../src/service/proxyRules';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { eventually } from '../support/receiver';
import { failure } from '../support/serviceFailure';
import { makeTestCertificates } from '../support/testIssuer';
import { scratchDir } from '../support/scratchDir';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Listens on loopback and counts connections (`secureConnection` for TLS: one per handshake). */
async function listen<S extends Server>(server: S, event = 'connection'): Promise<S & { port: number; connections: number }> {
  const counted = server as S & { port: number; connections: number };
  counted.connections = 0;
  server.on(event, () => counted.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  counted.port = (server.address() as AddressInfo).port;
  return counted;
}

/** A TCP server that accepts and never says a word (no TLS handshake, no CONNECT answer), for the test's time. */
async function withSilentServer(test: (port: number) => Promise<void>): Promise<void> {
  const silent = await listen(createTcpServer((s: Socket) => s.on('error', () => {})));
  try {
    await test(silent.port);
  } finally {
    silent.close();
  }
}

/** The call fails with the connect timeout, and soon. */
async function connectTimesOut(client: HttpClient, url: string): Promise<void> {
  const t0 = Date.now();
  const err = await failure(client.json({ method: 'GET', url }));
  assert.equal(err.code, 'UND_ERR_CONNECT_TIMEOUT');
  assert.ok(Date.now() - t0 < 5_000);
}

describe('the transport in plain Node: undici\'s Agent and ProxyAgent', function () {
  this.timeout(60_000);
  const certs = makeTestCertificates(scratchDir('aoai-wire-'));
  const ca = readFileSync(certs.caFile, 'utf8');
  let handler: Handler = (_req, res) => res.end('{}');
  let https: Awaited<ReturnType<typeof listen>>;
  let http: Awaited<ReturnType<typeof listen>>;
  let proxy: TestProxy;
  const clients: HttpClient[] = [];
  const client = (proxySettings: ProxySettings = {}, timeouts: Partial<HttpClient['timeouts']> = {}) => {
    const c = new HttpClient({ kind: 'apiKey', apiKey: 'k' }, timeouts, { maxRetries: 0 }, { systemCertificates: false, ...proxySettings });
    clients.push(c);
    return c;
  };

  before(async () => {
    const serve: Handler = (req, res) => handler(req, res);
    https = await listen(createHttpsServer({ key: readFileSync(certs.keyFile), cert: readFileSync(certs.certFile) }, serve), 'secureConnection');
    http = await listen(createHttpServer(serve));
    proxy = await startProxy({ credentials: 'alice:proxy-pass' });
  });
  afterEach(async () => {
    handler = (_req, res) => res.end('{}');
    await Promise.all(clients.splice(0).map((c) => c.close()));
    proxy.targets.length = 0;
  });
  after(async () => {
    for (const s of [https, http]) {
      (s as unknown as { closeAllConnections(): void }).closeAllConnections();
      s.close();
    }
    await proxy.close();
  });

  it('https with a CA the settings add: straight, and inside the proxy\'s tunnel; refused without it', async () => {
    handler = (req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ path: req.url, key: req.headers['api-key'] }));
    const url = `https://localhost:${https.port}/openai/models?api-version=x`;
    assert.deepEqual(await client({ extraCertificates: [ca] }).json({ method: 'GET', url }), { path: '/openai/models?api-version=x', key: 'k' });
    const tunnelled = { extraCertificates: [ca], url: proxy.url.replace('//', '//alice:proxy-pass@'), proxyLoopback: true };
    assert.deepEqual(await client(tunnelled).json({ method: 'GET', url }), { path: '/openai/models?api-version=x', key: 'k' });
    assert.deepEqual(proxy.targets, [`localhost:${https.port}`], 'the proxy saw a tunnel, not the request');
    const untrusted = await failure(client().json({ method: 'GET', url }));
    assert.equal(untrusted.kind, 'network');
    assert.match(String(untrusted.code), /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
    // http.proxyStrictSSL off: through the proxy, any certificate is accepted (as VS Code does).
    const loose = { url: proxy.url.replace('//', '//alice:proxy-pass@'), proxyLoopback: true, strictSSL: false };
    assert.deepEqual(await client(loose).json({ method: 'GET', url }), { path: '/openai/models?api-version=x', key: 'k' });
  });

  // undici's pool hands the next call to a second connection while the first is still being freed: two, then both reused.
  it('keeps connections alive: ten calls one after another open at most two connections', async () => {
    const before = https.connections;
    const c = client({ extraCertificates: [ca] });
    for (let i = 0; i < 10; i++) await c.json({ method: 'GET', url: `https://127.0.0.1:${https.port}/n/${i}` });
    assert.ok(https.connections - before <= 2, `${https.connections - before} connections`);
    const plainBefore = http.connections;
    const p = client();
    for (let i = 0; i < 10; i++) await p.json({ method: 'POST', url: `http://127.0.0.1:${http.port}/n/${i}`, body: { i } });
    assert.ok(http.connections - plainBefore <= 2, `${http.connections - plainBefore} connections`);
  });

  it('sends a JSON body with its length, and an empty POST with a length of 0', async () => {
    const seen: Array<{ length?: string; chunked?: string; body: string }> = [];
    handler = (req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => {
        seen.push({ length: req.headers['content-length'], chunked: req.headers['transfer-encoding'], body });
        res.end('{}');
      });
    };
    const c = client();
    await c.json({ method: 'POST', url: `http://127.0.0.1:${http.port}/a`, body: { text: 'héllo' } });
    await c.json({ method: 'POST', url: `http://127.0.0.1:${http.port}/b` });
    assert.deepEqual(seen, [
      { length: String(Buffer.byteLength('{"text":"héllo"}')), chunked: undefined, body: '{"text":"héllo"}' },
      { length: '0', chunked: undefined, body: '' },
    ]);
  });

  it('a connection that never finishes its TLS handshake fails with the connect timeout', async () => {
    await withSilentServer((port) => connectTimesOut(client({}, { connectMs: 300 }), `https://127.0.0.1:${port}/`));
  });

  it('no headers in time, and a stream that goes silent, each fail with their own timeout', async () => {
    handler = () => {};
    const noHeaders = await failure(client({}, { headersMs: 300 }).json({ method: 'GET', url: `http://127.0.0.1:${http.port}/` }));
    assert.deepEqual([noHeaders.kind, noHeaders.code], ['timeout', 'UND_ERR_HEADERS_TIMEOUT']);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    };
    const res = await client({}, { bodyMs: 300 }).stream({ method: 'POST', url: `http://127.0.0.1:${http.port}/`, body: {} });
    const chunks: string[] = [];
    const err = await (async () => {
      for await (const chunk of res.body) chunks.push(String(chunk));
    })().then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    assert.deepEqual(chunks, ['data: {}\n\n'], 'what arrived before the silence was read');
    assert.equal(err?.code, 'UND_ERR_BODY_TIMEOUT');
  });

  it('the caller\'s abort during a stream closes the connection at the server', async () => {
    let serverSawClose!: Promise<void>;
    handler = (_req, res) => {
      serverSawClose = new Promise((r) => res.on('close', () => r()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    };
    const abort = new AbortController();
    const res = await client().stream({ method: 'POST', url: `http://127.0.0.1:${http.port}/`, body: {}, signal: abort.signal });
    const reading = (async () => {
      for await (const chunk of res.body) {
        assert.equal(String(chunk), 'data: first\n\n');
        abort.abort(new Error('stopped by the user'));
      }
    })();
    await assert.rejects(reading, /stopped by the user/);
    await serverSawClose;
  });

  it('a body dropped unread ends its request: later calls go through, and closing does not wait for it', async () => {
    handler = (req, res) => {
      if (req.url === '/big') res.end(Buffer.alloc(4 * 1024 * 1024, 1));
      else res.setHeader('content-type', 'application/json').end('{"ok":true}');
    };
    const c = client();
    const res = await c.stream({ method: 'GET', url: `http://127.0.0.1:${http.port}/big`, accept: 'application/octet-stream' });
    await res.body.dump();
    assert.deepEqual(await c.json({ method: 'GET', url: `http://127.0.0.1:${http.port}/small` }), { ok: true });
    const closed = await Promise.race([c.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still waiting'), 2_000))]);
    assert.equal(closed, 'closed');
  });

  /** An upload of `size` bytes made as it is read, and whether it was destroyed. */
  function upload(size: number) {
    const piece = Buffer.alloc(64 * 1024, 7);
    let left = size;
    const stream = new Readable({
      read() {
        const n = Math.min(left, piece.length);
        left -= n;
        this.push(n > 0 ? piece.subarray(0, n) : null);
      },
    });
    return { stream, upload: { contentType: 'application/octet-stream', length: size, open: () => stream } };
  }

  it('an upload the server stops reading fails with the headers timeout; one it reads slowly is not cut', async () => {
    const stalled = createTcpServer((s: Socket) => {
      s.on('error', () => {});
      s.once('data', () => s.pause());
    });
    await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', r));
    try {
      const big = upload(64 * 1024 * 1024);
      const url = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/files`;
      const err = await failure(client({}, { headersMs: 400 }).json({ method: 'POST', url, upload: big.upload }));
      assert.deepEqual([err.kind, err.code], ['timeout', 'UND_ERR_HEADERS_TIMEOUT']);
      assert.ok(big.stream.destroyed, 'the upload stream was closed');
    } finally {
      stalled.close();
    }
    // 64 MB read with a 50 ms pause after each MB: over three seconds of sending, with a 1 s headers timeout.
    handler = (req, res) => {
      let got = 0;
      req.on('data', (chunk: Buffer) => {
        const before = got;
        got += chunk.length;
        if (Math.floor(got / 2 ** 20) === Math.floor(before / 2 ** 20)) return;
        req.pause();
        setTimeout(() => req.resume(), 50);
      });
      req.on('end', () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ got })));
    };
    const size = 64 * 1024 * 1024;
    const t0 = Date.now();
    const answer = await client({}, { headersMs: 1_000 }).json<{ got: number }>({ method: 'POST', url: `http://127.0.0.1:${http.port}/files`, upload: upload(size).upload });
    assert.equal(answer.got, size);
    assert.ok(Date.now() - t0 > 2_000, `the upload took ${Date.now() - t0} ms: long enough to have been cut by a plain timer`);
  });

  it('an answer that comes before the upload is all sent (413) closes the upload', async () => {
    handler = (_req, res) => res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"code":"too_large","message":"File too large."}}');
    const big = upload(64 * 1024 * 1024);
    const err = await failure(client().json({ method: 'POST', url: `http://127.0.0.1:${http.port}/files`, upload: big.upload }));
    assert.equal(err.status, 413);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(big.stream.destroyed, 'the upload stream was closed, not left open with its file');
  });

  it('a https target named by its address, inside the tunnel; a proxy that never answers the CONNECT times out', async () => {
    handler = (_req, res) => res.setHeader('content-type', 'application/json').end('{"ok":true}');
    const tunnelled = { extraCertificates: [ca], url: proxy.url, proxyLoopback: true };
    // Authenticating proxy without credentials: refused before any TLS; with them, the certificate's IP name is checked.
    assert.equal((await failure(client(tunnelled).json({ method: 'GET', url: `https://127.0.0.1:${https.port}/` }))).code, 'EPROXY');
    const withCredentials = { ...tunnelled, url: proxy.url.replace('//', '//alice:proxy-pass@') };
    assert.deepEqual(await client(withCredentials).json({ method: 'GET', url: `https://127.0.0.1:${https.port}/` }), { ok: true });
    await withSilentServer((port) => connectTimesOut(client({ url: `http://127.0.0.1:${port}`, proxyLoopback: true }, { connectMs: 300 }), `https://127.0.0.1:${https.port}/`));
  });

  it('a reader slower than the sender holds the sender back, and gets every byte', async () => {
    const size = 16 * 1024 * 1024;
    let blocked = false;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
      const piece = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const more = () => {
        while (sent < size) {
          sent += piece.length;
          if (!res.write(piece)) {
            blocked = true;
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
    };
    const res = await client().stream({ method: 'GET', url: `http://127.0.0.1:${http.port}/file`, accept: 'application/octet-stream' });
    await eventually(() => blocked, undefined, 'the server to wait for the reader (a write that did not fit)');
    let got = 0;
    for await (const chunk of res.body) got += (chunk as Buffer).length;
    assert.equal(got, size);
  });
});
