/**
 * The transport as it runs inside VS Code (src/service/hostTransport.ts), in plain Node: the
 * "host's fetch" here is Node's own fetch with an undici ProxyAgent added to each call, which is
 * what VS Code's extension host does to the global fetch when http.proxy names a proxy. Real
 * servers and a real proxy on loopback; the host test (test/host/proxy.test.ts) runs the same in
 * VS Code. Also the proxy rules' review findings, and SOCKS proxies in plain Node.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { fetch as undiciFetch, ProxyAgent } from 'undici';
import { HttpClient } from '../../src/service/http';
import { proxyFor, type ProxySettings } from '../../src/service/proxyRules';
import { transportFor } from '../../src/service/proxy';
import { proxyRefusal } from '../../src/service/transport';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { failure } from '../support/serviceFailure';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('the transport inside VS Code: the host\'s fetch for every non-loopback host', function () {
  this.timeout(20_000);
  let handler: Handler;
  const hits: string[] = [];
  const servers = ['127.0.0.1', '127.0.0.2'].map(() => createServer((req, res) => (hits.push(`${req.headers.host}${req.url}`), handler(req, res))));
  const ports: number[] = [];
  let open: TestProxy;
  let authenticating: TestProxy;
  const clients: HttpClient[] = [];
  /** undici's fetch through `proxy`, as VS Code's patched fetch sends it (Node's own fetch takes only its own undici's dispatchers). */
  const hostFetch = (proxy: string): typeof fetch =>
    ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...init, dispatcher: new ProxyAgent(proxy) } as never)) as unknown as typeof fetch;
  const client = (settings: ProxySettings, timeouts = {}) => {
    const c = new HttpClient({ kind: 'apiKey', apiKey: 'k' }, timeouts, { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, settings);
    clients.push(c);
    return c;
  };

  before(async () => {
    for (const [i, host] of ['127.0.0.1', '127.0.0.2'].entries()) {
      await new Promise<void>((r) => servers[i]!.listen(0, host, r));
      ports.push((servers[i]!.address() as AddressInfo).port);
    }
    open = await startProxy();
    authenticating = await startProxy({ credentials: 'alice:pw-9f3e' });
  });
  beforeEach(() => {
    handler = (_req, res) => res.setHeader('content-type', 'application/json').end('{"ok":true}');
    hits.length = 0;
    open.targets.length = 0;
  });
  afterEach(() => Promise.all(clients.splice(0).map((c) => c.close())));
  after(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
    await open.close();
    await authenticating.close();
  });

  it('127.0.0.1, localhost and *.localhost go direct; 127.0.0.2 (not loopback to VS Code) takes the host\'s fetch', async () => {
    const c = client({ hostFetch: hostFetch(open.url) });
    for (const url of [`http://127.0.0.1:${ports[0]}/a`, `http://localhost:${ports[0]}/b`, `http://app.localhost:${ports[0]}/c`]) {
      assert.deepEqual(await c.json({ method: 'GET', url }), { ok: true }, url);
    }
    assert.equal(open.targets.length, 0, `loopback never reached the host's fetch: ${open.targets}`);
    assert.deepEqual(await c.json({ method: 'POST', url: `http://127.0.0.2:${ports[1]}/d`, body: { x: 1 } }), { ok: true });
    assert.ok(open.targets.some((t) => t.includes(`127.0.0.2:${ports[1]}`)), `the proxy saw it: ${open.targets}`);
  });

  it('a streamed body, an upload and the caller\'s abort work through the host\'s fetch', async () => {
    handler = (req, res) => {
      let n = 0;
      req.on('data', (d: Buffer) => (n += d.length)).on('end', () => res.end(JSON.stringify({ n })));
    };
    const c = client({ hostFetch: hostFetch(open.url) });
    const size = 3 * 1024 * 1024;
    const upload = { contentType: 'application/octet-stream', length: size, open: () => Readable.from([Buffer.alloc(size / 2, 1), Buffer.alloc(size / 2, 2)]) };
    assert.deepEqual(await c.json({ method: 'POST', url: `http://127.0.0.2:${ports[1]}/up`, upload }), { n: size });
    handler = (_req, res) => res.write('data: 1\n\n');
    const ctl = new AbortController();
    const res = await c.stream({ method: 'POST', url: `http://127.0.0.2:${ports[1]}/s`, signal: ctl.signal });
    const first = await new Promise((r) => res.body.once('data', r));
    assert.ok(first);
    ctl.abort();
    await assert.rejects(res.body.text());
  });

  it('no headers in time, or a body gone silent, fail with their own timeout; a POST that timed out is not sent again', async () => {
    handler = () => {};
    const c = client({ hostFetch: hostFetch(open.url) }, { headersMs: 300, bodyMs: 300 });
    const err = await failure(c.json({ method: 'POST', url: `http://127.0.0.2:${ports[1]}/slow`, body: {} }));
    assert.equal([err.kind, err.code].join(' '), 'timeout UND_ERR_HEADERS_TIMEOUT');
    assert.equal(hits.length, 1, 'the service may have acted on it: sent once');
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: 1\n\n');
    const res = await c.stream({ method: 'GET', url: `http://127.0.0.2:${ports[1]}/silent` });
    await assert.rejects(res.body.text(), (e: { code?: string }) => e.code === 'UND_ERR_BODY_TIMEOUT');
  });

  it('a proxy that asks for credentials: the error names the proxy VS Code is set to use, and the fix', async () => {
    const c = client({ hostFetch: hostFetch(authenticating.url), url: authenticating.url });
    const err = await failure(c.json({ method: 'GET', url: `http://127.0.0.2:${ports[1]}/x` }));
    assert.equal(err.code, 'EPROXY', String((err as { cause?: { cause?: unknown } }).cause?.cause));
    assert.match(err.message, new RegExp(`proxy ${authenticating.url.replace(/[/.]/g, '\\$&')} asks for a user name and password \\(407\\)`));
    // VS Code's proxy agent words a tunnel's refusal its own way, and says the status in a field.
    assert.equal(proxyRefusal(new TypeError('fetch failed', { cause: new Error('Proxy response (407) ?.== 200 when HTTP Tunneling') })), 407);
    assert.equal(proxyRefusal(new TypeError('fetch failed', { cause: Object.assign(new Error('aborted'), { connectResponseStatusCode: 403 }) })), 403);
    const withCredentials = client({ hostFetch: hostFetch(authenticating.url.replace('//', '//alice:pw-9f3e@')) });
    assert.deepEqual(await withCredentials.json({ method: 'GET', url: `http://127.0.0.2:${ports[1]}/x` }), { ok: true });
  });
});

describe('proxy rules and proxy kinds in plain Node', () => {
  it('NO_PROXY: an empty no_proxy does not hide NO_PROXY; CIDR blocks and IPv6 addresses match', () => {
    const at = (u: string, env: Record<string, string>, s: ProxySettings = {}) => proxyFor(new URL(u), s, env)?.host;
    assert.equal(at('https://r.example', { HTTPS_PROXY: 'http://p:1', no_proxy: '', NO_PROXY: 'r.example' }), undefined);
    assert.equal(at('https://r.example', { https_proxy: '', HTTPS_PROXY: 'http://p:1' }), 'p:1', 'an empty https_proxy does not hide HTTPS_PROXY');
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: '10.0.0.0/8, fd00::/8, 2001:db8::1' };
    assert.equal(at('https://10.20.30.40', env), undefined);
    assert.equal(at('https://11.0.0.1', env), 'p:1');
    assert.equal(at('https://[fd00::5]', env), undefined);
    assert.equal(at('https://[2001:db8::1]', env), undefined);
    assert.equal(at('https://[2001:db8::2]', env), 'p:1');
    assert.equal(at('https://192.168.1.9', {}, { url: 'http://p:1', noProxy: ['192.168.0.0/16'] }), undefined);
  });

  it('a socks5 proxy is spoken to in SOCKS5, never sent an HTTP CONNECT with the password; a socks4 one is refused by name', async () => {
    const first: Buffer[] = [];
    const socks = createTcpServer((s: Socket) => s.once('data', (d) => (first.push(d), s.destroy())));
    await new Promise<void>((r) => socks.listen(0, '127.0.0.1', r));
    const port = (socks.address() as AddressInfo).port;
    const t = transportFor({ url: `socks5://alice:socks-pw@127.0.0.1:${port}`, proxyLoopback: true }, { connectTimeoutMs: 2_000 }, {});
    try {
      await assert.rejects(t.request('https://service.example/'));
      assert.equal(first[0]?.[0], 0x05, 'a SOCKS5 greeting');
      assert.ok(!first[0]?.toString('latin1').includes('CONNECT') && !first[0]?.toString('latin1').includes('socks-pw'));
    } finally {
      await t.close();
      socks.close();
    }
    const c = new HttpClient({ kind: 'apiKey', apiKey: 'k' }, {}, { maxRetries: 0 }, { url: 'socks4://127.0.0.1:1080' });
    const err = await failure(c.json({ method: 'GET', url: 'https://service.example/' }));
    assert.match(err.message, /socks4:\/\/127\.0\.0\.1:1080 is of a kind this extension cannot use/);
    await c.close();
  });
});
