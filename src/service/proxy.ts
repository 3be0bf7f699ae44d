/**
 * The transport for a set of settings: inside VS Code (the settings carry the host's `fetch`) the
 * host's network support for every non-loopback target and undici straight to loopback; in plain
 * Node undici's Agent / ProxyAgent on the proxy rules (proxyRules.ts).
 */
import { HostTransport } from './hostTransport';
import { NodeTransport, type NodeTransportOptions } from './nodeTransport';
import { proxyFor, proxyLabel, type Env, type ProxySettings } from './proxyRules';
import type { Transport } from './transport';

export { proxyFor, proxyLabel, type ProxySettings } from './proxyRules';
export { proxyRefusal, type Transport } from './transport';

export function transportFor(settings: ProxySettings = {}, options: NodeTransportOptions = { connectTimeoutMs: 10_000 }, env: Env = process.env): Transport {
  if (!settings.hostFetch) return new NodeTransport(settings, options, env);
  // Only loopback goes this way: no proxy, nothing for the settings to decide.
  const direct = new NodeTransport({ systemCertificates: settings.systemCertificates }, options, {});
  // The label names what VS Code is set to use; the host may still choose a PAC or OS proxy.
  const label = (target: URL) => {
    const proxy = proxyFor(target, { ...settings, proxyLoopback: true }, env);
    return proxy && proxyLabel(proxy);
  };
  return new HostTransport(settings.hostFetch, direct, label);
}
