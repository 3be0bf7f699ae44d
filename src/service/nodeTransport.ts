/**
 * The transport in plain Node (the emulator, tests, benches) and for loopback inside VS Code:
 * undici's own keep-alive Agent straight to the target, or its ProxyAgent (HTTP CONNECT, or
 * SOCKS5) to the proxy proxyRules.ts picks. Not undici's EnvHttpProxyAgent: its NO_PROXY reading
 * has the faults proxyRules.ts fixes (an empty no_proxy hides NO_PROXY, no CIDR), and VS Code's
 * http.proxy / http.noProxy come first. TLS trusts Node's CAs, NODE_EXTRA_CA_CERTS, the system's
 * store and any extra certificates handed in.
 */
import { createSecureContext, getCACertificates, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, Pool, ProxyAgent, errors, type Dispatcher } from 'undici';
import { loopbackLookup } from './loopback';
import { proxyFor, proxyLabel, type Env, type ProxySettings } from './proxyRules';
import { DEFAULT_TIMEOUT_MS, type Transport, type TransportRequest, type TransportResponse } from './transport';

export interface NodeTransportOptions {
  /** TCP and TLS set-up (through the proxy too), for a new connection. */
  connectTimeoutMs: number;
  /** Keep-alive connections per origin (default 16). */
  connections?: number;
  /** How long an idle connection is kept (default 30 s). */
  keepAliveMs?: number;
  /** Whom TLS trusts instead of the settings' choice (the emulator's test identity provider). */
  secureContext?: SecureContext;
}

/** http(s) proxies take a CONNECT; socks5 ones (user name and password as SOCKS5 asks them) a SOCKS5 handshake. */
const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:', 'socks:']);

/** A proxy of a kind undici cannot speak (socks4): said rather than spoken to as an HTTP proxy. */
export class UnsupportedProxyError extends Error {
  readonly code = 'EPROXYKIND';
  constructor(readonly proxy: string) {
    super(`The proxy ${proxy} is of a kind this extension cannot use: give an http://, https:// or socks5:// proxy.`);
  }
}

let systemContext: { key: string; context: SecureContext } | undefined;

/** One secure context for every connection: building it parses a few hundred certificates. */
function secureContext(settings: ProxySettings): SecureContext | undefined {
  const system = settings.systemCertificates !== false && typeof getCACertificates === 'function';
  const extra = settings.extraCertificates ?? [];
  if (!system && extra.length === 0) return undefined;
  const key = `${system}|${extra.join('\n')}`;
  if (systemContext?.key !== key) {
    // 'default' is Node's bundle plus NODE_EXTRA_CA_CERTS; setting `ca` would otherwise drop them.
    const base = typeof getCACertificates === 'function' ? getCACertificates('default') : rootCertificates;
    const ca = [...new Set([...base, ...(system ? getCACertificates('system') : []), ...extra])];
    systemContext = { key, context: createSecureContext({ ca }) };
  }
  return systemContext.context;
}

/**
 * The connection to the proxy, whose CONNECT answer counts as part of connecting: a proxy that
 * accepts and never answers fails with the connect timeout (the request was not sent, so even a
 * POST may be tried again), not after undici's 300 s headers timeout.
 */
function proxyClient(origin: URL, opts: object, timeoutMs: number): Pool {
  const pool = new Pool(origin, { ...opts, headersTimeout: timeoutMs });
  const connect = pool.connect.bind(pool) as (o: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const timedConnect = (o: Dispatcher.ConnectOptions) =>
    connect(o).catch((err: { code?: string }) => {
      throw err.code === 'UND_ERR_HEADERS_TIMEOUT' ? new errors.ConnectTimeoutError('the proxy did not answer the CONNECT in time') : err;
    });
  return Object.assign(pool, { connect: timedConnect });
}

export class NodeTransport implements Transport {
  private direct?: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(
    private readonly settings: ProxySettings = {},
    private readonly options: NodeTransportOptions = { connectTimeoutMs: 10_000 },
    private readonly env: Env = process.env,
  ) {}

  /** The dispatcher for `target`: the direct pool, or the pool through its proxy. */
  private dispatcherFor(target: URL): Dispatcher {
    const proxy = proxyFor(target, this.settings, this.env);
    const o = this.options;
    const tls = o.secureContext ?? secureContext(this.settings);
    const pool = { connections: o.connections ?? 16, keepAliveTimeout: o.keepAliveMs ?? 30_000 };
    if (!proxy) {
      // `.localhost` names are pinned to loopback: http is allowed there, so no resolver may send a key elsewhere.
      this.direct ??= new Agent({ ...pool, connect: { timeout: o.connectTimeoutMs, lookup: loopbackLookup, secureContext: tls } });
      return this.direct;
    }
    let agent = this.proxies.get(proxy.href);
    if (!agent) {
      if (!PROXY_PROTOCOLS.has(proxy.protocol)) throw new UnsupportedProxyError(proxyLabel(proxy));
      const strict = this.settings.strictSSL !== false;
      agent = new ProxyAgent({
        uri: proxy.href,
        ...pool,
        connectTimeout: o.connectTimeoutMs,
        // A tunnel for plain http too: the emulator in tests then takes the path the service's https takes.
        proxyTunnel: true,
        clientFactory: (origin: URL, opts: object) => proxyClient(origin, opts, o.connectTimeoutMs),
        requestTls: { secureContext: tls, rejectUnauthorized: strict },
        // Only an https proxy is spoken to in TLS (undici's SOCKS5 agent would wrap its connection in it too).
        ...(proxy.protocol === 'https:' ? { proxyTls: { secureContext: tls, rejectUnauthorized: strict } } : {}),
      });
      this.proxies.set(proxy.href, agent);
    }
    return agent;
  }

  async request(url: string | URL, req: TransportRequest = {}): Promise<TransportResponse> {
    const target = new URL(url);
    // The dispatcher's own `request()`: the bundled undici has no global dispatcher to fall back on.
    const res = await this.dispatcherFor(target).request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      headersTimeout: req.headersTimeout ?? DEFAULT_TIMEOUT_MS,
      bodyTimeout: req.bodyTimeout ?? DEFAULT_TIMEOUT_MS,
    });
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  }

  proxyLabel(url: string | URL): string | undefined {
    const proxy = proxyFor(new URL(url), this.settings, this.env);
    return proxy && proxyLabel(proxy);
  }

  async close(): Promise<void> {
    const all = [this.direct, ...this.proxies.values()].filter((d): d is Agent | ProxyAgent => d !== undefined);
    this.direct = undefined;
    this.proxies.clear();
    await Promise.all(all.map((d) => d.close().catch(() => d.destroy())));
  }
}
