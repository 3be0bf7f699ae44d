/** Reading the public URL (and the reason for a failure) out of each tunnel CLI's output. */

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

/** ngrok with `--log-format json`: a `started tunnel` line carries `url`. */
export function parseNgrokLog(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'started tunnel' && entry.url?.startsWith('https://')) return entry.url;
    } catch {
      /* not a log line */
    }
  }
  return /url=(https:\/\/\S+)/.exec(output)?.[1];
}

/** ngrok's local agent API: the https tunnel that forwards to our port (never another agent's tunnel). */
export function parseNgrokApi(json: string, localPort: number): string | undefined {
  try {
    const body = JSON.parse(json) as { tunnels?: Array<{ public_url?: string; config?: { addr?: string } }> };
    const ours = (addr = '') => addr === String(localPort) || new RegExp(`^(https?://)?(localhost|127\\.0\\.0\\.1|\\[::1\\]):${localPort}/?$`).test(addr);
    return (body.tunnels ?? []).find((t) => t.public_url?.startsWith('https://') && ours(t.config?.addr))?.public_url;
  } catch {
    return undefined;
  }
}

export function explainNgrokFailure(output: string): string | undefined {
  if (/ERR_NGROK_4018|authtoken/i.test(output)) return 'ngrok needs an account: sign up, then run "ngrok config add-authtoken <your token>" once.';
  if (/ERR_NGROK_108|simultaneous ngrok agent sessions/i.test(output)) return 'Another ngrok agent is already running for this account. Stop it, or use the tunnel it opened as a manual URL.';
  return undefined;
}

/** devtunnel host prints "Connect via browser: <url>, <inspect url>"; the address format varies by version. */
export function parseDevTunnelUrl(output: string): string | undefined {
  const urls = output.match(/https:\/\/[^\s,]+devtunnels\.ms[^\s,]*/gi) ?? [];
  return urls.find((u) => !/-inspect\./i.test(u) && !/inspect/i.test(new URL(u).hostname.split('.')[0]));
}

export function explainDevTunnelFailure(output: string): string | undefined {
  if (/not logged in|login is required|Unauthorized/i.test(output)) return 'Dev Tunnels needs you signed in: run "devtunnel user login" (Microsoft, Entra ID or GitHub account).';
  return undefined;
}
