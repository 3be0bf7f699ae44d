/**
 * Which proxy, if any, a request to a target goes through: VS Code's http.proxy / http.noProxy
 * (handed in) and the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY. Loopback never goes
 * through a proxy. No undici here, so the identity bundle can use it without carrying a client.
 */
import { BlockList, isIP } from 'node:net';

export interface ProxySettings {
  /** VS Code's http.proxy; empty: HTTPS_PROXY / HTTP_PROXY from the environment. */
  url?: string;
  /** VS Code's http.proxyStrictSSL: false accepts any certificate on connections through the proxy. */
  strictSSL?: boolean;
  /** VS Code's http.noProxy, in addition to NO_PROXY. */
  noProxy?: string[];
  /** VS Code's http.systemCertificates: trust the operating system's CA store too (default true). */
  systemCertificates?: boolean;
  /** More trusted CA certificates, PEM. */
  extraCertificates?: string[];
  /**
   * Tests only: send loopback targets through the proxy too. A test cannot point a real Azure
   * host at loopback, so this is how it makes a loopback service reachable only via the proxy.
   */
  proxyLoopback?: boolean;
  /**
   * Inside VS Code: the extension host's `fetch`, which takes every non-loopback request through
   * VS Code's own proxy support (OS proxy, PAC, Kerberos, http.proxySupport). The fields above
   * then only name the proxy in messages.
   */
  hostFetch?: typeof fetch;
}

export type Env = Record<string, string | undefined>;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `host` (an address) is inside `cidr` (`10.0.0.0/8`, `fd00::/8`). */
function inCidr(host: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/');
  const family = isIP(host);
  if (!family || family !== isIP(net) || !/^\d+$/.test(bits)) return false;
  const list = new BlockList();
  const type = family === 4 ? 'ipv4' : 'ipv6';
  try {
    list.addSubnet(net, Number(bits), type);
  } catch {
    return false;
  }
  return list.check(host, type);
}

/** NO_PROXY rules as curl reads them: `*`, `host`, `.domain` / `*.domain` (subdomains too), an optional `:port`, CIDR blocks. */
function bypassed(host: string, port: string, entries: string[]): boolean {
  return entries.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    if (entry === '*') return true;
    if (entry.includes('/')) return inCidr(host, entry);
    // An IPv6 address alone: its colons are not a port.
    if (isIP(entry) === 6) return host === entry;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\]/, '$1'))!;
    if (m[2] && m[2] !== port) return false;
    const domain = m[1].replace(/^\*?\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** An environment variable, lower case first as curl reads it; an empty one does not hide the other. */
function fromEnv(env: Env, name: string): string | undefined {
  return env[name.toLowerCase()]?.trim() || env[name.toUpperCase()]?.trim() || undefined;
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: URL, settings: ProxySettings = {}, env: Env = process.env): URL | undefined {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!settings.proxyLoopback && isLoopback(host)) return undefined;
  const envProxy = target.protocol === 'https:' ? (fromEnv(env, 'https_proxy') ?? fromEnv(env, 'http_proxy')) : fromEnv(env, 'http_proxy');
  const raw = settings.url?.trim() || envProxy;
  if (!raw) return undefined;
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const noProxy = [...(settings.noProxy ?? []), ...(fromEnv(env, 'no_proxy') ?? '').split(/[\s,]+/)];
  if (bypassed(host, port, noProxy)) return undefined;
  return new URL(raw.includes('://') ? raw : `http://${raw}`);
}

/** The proxy's address as it may appear in a message: never its user name or password. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
