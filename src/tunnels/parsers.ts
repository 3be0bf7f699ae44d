/**
 * Reading the public URL (and the reason for a failure) out of each tunnel CLI's output and local
 * API. Those APIs are unauthenticated local ports (anyone on the machine can answer there first),
 * so every URL taken is anchored to its provider's domain: `https://abc.devtunnels.ms.attacker.example`
 * is not a Dev Tunnels URL.
 */
import * as l10n from '@vscode/l10n';

export const TUNNEL_DOMAINS = {
  cloudflared: ['trycloudflare.com'],
  ngrok: ['ngrok-free.app', 'ngrok-free.dev', 'ngrok.app', 'ngrok.dev', 'ngrok.io', 'ngrok.pizza'],
  devtunnel: ['devtunnels.ms'],
} as const;

/** The origin of `candidate` when it is an https URL on a subdomain of one of `domains` (no user, nothing odd in the name). */
export function tunnelOrigin(candidate: string, domains: readonly string[]): string | undefined {
  let u: URL;
  try {
    u = new URL(candidate);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return undefined;
  const host = u.hostname.toLowerCase();
  const onDomain = domains.some((d) => host.endsWith(`.${d}`) && /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host.slice(0, -d.length - 1)));
  return onDomain ? u.origin : undefined;
}

/**
 * cloudflared prints the quick tunnel's address in a banner on stderr. Its own API host
 * (`api.trycloudflare.com`, named in its failure lines with a path) is not a tunnel.
 */
export function parseCloudflaredUrl(output: string): string | undefined {
  for (const m of output.matchAll(/https:\/\/([a-z0-9-]+)\.trycloudflare\.com(?![\w./-])/gi)) {
    if (m[1].toLowerCase() !== 'api') return m[0];
  }
  return undefined;
}

/** cloudflared's metrics port answers `{"hostname": …}`: one quick tunnel host, never its API host. */
export function parseCloudflaredHostname(hostname: unknown): string | undefined {
  if (typeof hostname !== 'string' || !/^[a-z0-9-]+\.trycloudflare\.com$/i.test(hostname) || /^api\./i.test(hostname)) return undefined;
  return tunnelOrigin(`https://${hostname}`, TUNNEL_DOMAINS.cloudflared);
}

/** ngrok with `--log-format json`: a `started tunnel` line carries `url`. */
export function parseNgrokLog(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      const url = entry.msg === 'started tunnel' && entry.url ? tunnelOrigin(entry.url, TUNNEL_DOMAINS.ngrok) : undefined;
      if (url) return url;
    } catch {
      /* not a log line */
    }
  }
  for (const m of output.matchAll(/url=(https:\/\/\S+)/g)) {
    const url = tunnelOrigin(m[1], TUNNEL_DOMAINS.ngrok);
    if (url) return url;
  }
  return undefined;
}

/** ngrok's local agent API: the https tunnel that forwards to our port (never another agent's tunnel). */
export function parseNgrokApi(json: string, localPort: number): string | undefined {
  try {
    const body = JSON.parse(json) as { tunnels?: Array<{ public_url?: string; config?: { addr?: string } }> };
    const ours = (addr = '') => addr === String(localPort) || new RegExp(`^(https?://)?(localhost|127\\.0\\.0\\.1|\\[::1\\]):${localPort}/?$`).test(addr);
    for (const t of body.tunnels ?? []) {
      const url = t.public_url && ours(t.config?.addr) ? tunnelOrigin(t.public_url, TUNNEL_DOMAINS.ngrok) : undefined;
      if (url) return url;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

export function explainNgrokFailure(output: string): string | undefined {
  if (/ERR_NGROK_4018|authtoken/i.test(output)) return l10n.t('ngrok needs an account: sign up, then run "{0}" once.', 'ngrok config add-authtoken <your token>');
  if (/ERR_NGROK_108|simultaneous ngrok agent sessions/i.test(output)) return l10n.t('Another ngrok agent is already running for this account. Stop it, or use the tunnel it opened as a manual URL.');
  return undefined;
}

/** devtunnel host prints "Connect via browser: <url>, <inspect url>"; the address format varies by version. */
export function parseDevTunnelUrl(output: string): string | undefined {
  for (const candidate of output.match(/https:\/\/[^\s,]+/gi) ?? []) {
    const url = tunnelOrigin(candidate, TUNNEL_DOMAINS.devtunnel);
    if (url && !/inspect/i.test(new URL(url).hostname.split('.')[0])) return url;
  }
  return undefined;
}

export function explainDevTunnelFailure(output: string): string | undefined {
  if (/not logged in|login is required|Unauthorized/i.test(output)) return l10n.t('Dev Tunnels needs you signed in: run "{0}" (Microsoft, Entra ID or GitHub account).', 'devtunnel user login');
  return undefined;
}
