/**
 * Which proxy, if any, a request to a target goes through: VS Code's http.proxy / http.noProxy
 * (handed in) and the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY. Loopback never goes
 * through a proxy. No undici here, so the identity bundle can use it without carrying a client.
 */

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
}

export type Env = Record<string, string | undefined>;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** NO_PROXY rules as curl reads them: `*`, `host`, `.domain` / `*.domain` (subdomains too), an optional `:port`. */
function bypassed(host: string, port: string, entries: string[]): boolean {
  return entries.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\]/, '$1'))!;
    if (m[2] && m[2] !== port) return false;
    const domain = m[1].replace(/^\*?\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: URL, settings: ProxySettings = {}, env: Env = process.env): URL | undefined {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!settings.proxyLoopback && isLoopback(host)) return undefined;
  const fromEnv = target.protocol === 'https:' ? (env.https_proxy ?? env.HTTPS_PROXY ?? env.http_proxy ?? env.HTTP_PROXY) : (env.http_proxy ?? env.HTTP_PROXY);
  const raw = settings.url?.trim() || fromEnv?.trim();
  if (!raw) return undefined;
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const noProxy = [...(settings.noProxy ?? []), ...(env.no_proxy ?? env.NO_PROXY ?? '').split(/[\s,]+/)];
  if (bypassed(host, port, noProxy)) return undefined;
  return new URL(raw.includes('://') ? raw : `http://${raw}`);
}

/** The proxy's address as it may appear in a message: never its user name or password. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
