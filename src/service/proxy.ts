/**
 * Dispatchers for outgoing calls: straight to the target or a tunnel through the proxy that
 * proxyRules.ts picks for its origin. TLS trusts Node's CAs, NODE_EXTRA_CA_CERTS, the system's
 * store and any extra certificates handed in.
 */
import { createSecureContext, getCACertificates, rootCertificates, type SecureContext } from 'node:tls';
import { Dispatcher } from 'undici';
import { loopbackLookup } from './loopback';
import { NodeDispatcher, ProxyRefusedError } from './nodeDispatcher';
import { proxyFor, type Env, type ProxySettings } from './proxyRules';

export { proxyFor, proxyLabel, type ProxySettings } from './proxyRules';

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

export interface DispatcherOptions {
  connectTimeoutMs: number;
  /** Keep-alive connections per origin. */
  connections?: number;
}

/** A keep-alive dispatcher for one target origin: straight there, or a tunnel through the proxy. */
export function dispatcherFor(origin: string, settings: ProxySettings = {}, options: DispatcherOptions, env: Env = process.env): Dispatcher {
  const target = new URL(origin);
  const proxy = proxyFor(target, settings, env);
  // Plain http straight to the target (the emulator on loopback) has no TLS to trust anything for.
  const context = proxy || target.protocol === 'https:' ? secureContext(settings) : undefined;
  const common = { connectTimeoutMs: options.connectTimeoutMs, connections: options.connections ?? 16, keepAliveMs: 30_000, secureContext: context };
  // `.localhost` names are pinned to loopback: http is allowed there, so no resolver may send a key elsewhere.
  if (!proxy) return new NodeDispatcher({ ...common, lookup: loopbackLookup });
  // Always a CONNECT tunnel: the service is https anyway, and a plain-http target (the emulator in
  // tests) then takes the same path instead of a forwarding mode no Azure call uses.
  return new NodeDispatcher({ ...common, proxy, rejectUnauthorized: settings.strictSSL !== false });
}

/**
 * One dispatcher for requests to any origin (a download that is redirected to another host):
 * each origin gets its own pool or proxy tunnel, decided as above. With `direct`, origins the
 * proxy rules leave alone go through that dispatcher instead of a pool of their own.
 */
export class ProxyRouter extends Dispatcher {
  private readonly byOrigin = new Map<string, Dispatcher>();

  constructor(
    private readonly settings: ProxySettings = {},
    private readonly options: DispatcherOptions = { connectTimeoutMs: 10_000 },
    private readonly direct?: Dispatcher,
  ) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = new URL(String(opts.origin)).origin;
    if (this.direct && !proxyFor(new URL(origin), this.settings)) return this.direct.dispatch(opts, handler);
    let d = this.byOrigin.get(origin);
    if (!d) {
      d = dispatcherFor(origin, this.settings, this.options);
      this.byOrigin.set(origin, d);
    }
    return d.dispatch(opts, handler);
  }

  override async close(): Promise<void> {
    await Promise.all([...this.byOrigin.values()].map((d) => d.close()));
  }

  override async destroy(): Promise<void> {
    await Promise.all([...this.byOrigin.values()].map((d) => d.destroy()));
  }
}

/** The status a proxy refused a tunnel with, if that is what failed. */
export function proxyRefusal(err: unknown): number | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof ProxyRefusedError) return e.proxyStatus;
  }
  return undefined;
}
