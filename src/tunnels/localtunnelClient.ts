/**
 * A client for the localtunnel protocol, written here instead of the npm `localtunnel` package:
 * that client (2.0.2, 2021) pulls in axios 0.21.4 (published advisories), retries its first
 * request forever once a server is gone (no timeout, no way to cancel), and keeps reconnecting a
 * dead tunnel without saying so. The protocol is small: ask the server for a tunnel over HTTP,
 * then keep a few TCP connections open to the port it names; each one carries one public request
 * to the local listener. A tunnel that can no longer reach its port ends (`closed` settles), so
 * the owner can open a new one.
 */
import * as l10n from '@vscode/l10n';
import { connect, type Socket } from 'node:net';
import { TunnelError, type Tunnel } from './tunnel';

/** What a localtunnel server answers for a new tunnel. */
interface LocaltunnelGrant {
  id: string;
  /** The TCP port the client connects to (on the server's host, or `ip`). */
  port: number;
  url: string;
  maxConn: number;
  ip?: string;
}

/** At most this many connections, whatever the server offers: a webhook listener needs few. */
const MAX_CONNECTIONS = 10;

/** Reads the server's answer; anything unexpected is refused rather than guessed at. */
export function parseGrant(body: unknown): LocaltunnelGrant | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const port = b.port;
  if (typeof b.id !== 'string' || typeof b.url !== 'string' || typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  try {
    if (!/^https?:$/.test(new URL(b.url).protocol)) return undefined;
  } catch {
    return undefined;
  }
  const offered = typeof b.max_conn_count === 'number' && Number.isInteger(b.max_conn_count) ? b.max_conn_count : 1;
  const ip = typeof b.ip === 'string' && b.ip ? b.ip : undefined;
  return { id: b.id, port, url: b.url, maxConn: Math.min(Math.max(offered, 1), MAX_CONNECTIONS), ip };
}

export interface LocaltunnelOptions {
  /** The server, e.g. https://localtunnel.me. */
  host: string;
  subdomain?: string;
  localPort: number;
  localHost?: string;
  /** For the first request; 15 s by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

async function requestGrant(o: LocaltunnelOptions): Promise<LocaltunnelGrant> {
  const url = new URL(o.subdomain ? `/${encodeURIComponent(o.subdomain)}` : '/?new', o.host);
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 15_000);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { signal, headers: { accept: 'application/json' } });
    // Read inside the same deadline and the same messages: a body cut off or too slow is the server's fault too.
    text = await res.text();
  } catch (err) {
    if (o.signal?.aborted) throw new TunnelError(l10n.t('Cancelled.'));
    throw new TunnelError(timeout.aborted ? l10n.t('no answer within {0} s', (o.timeoutMs ?? 15_000) / 1000) : (err as Error).message);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.status !== 200) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new TunnelError(typeof message === 'string' ? message.slice(0, 300) : `HTTP ${res.status}`);
  }
  const grant = parseGrant(body);
  if (!grant) throw new TunnelError(l10n.t('the server answered something that is not a tunnel'));
  return grant;
}

/** Opens a tunnel; rejects when the server does not grant one in time. */
export async function openLocaltunnel(o: LocaltunnelOptions): Promise<Tunnel> {
  const grant = await requestGrant(o);
  const remoteHost = grant.ip ?? new URL(o.host).hostname;
  const sockets = new Set<Socket>();
  let ended = false;
  /** Connections in a row the server closed before any request: a server that only hangs up has dropped the tunnel. */
  let emptyCloses = 0;
  let end!: () => void;
  const closed = new Promise<void>((resolve) => (end = resolve));
  const finish = () => {
    if (ended) return;
    ended = true;
    for (const s of sockets) s.destroy();
    sockets.clear();
    end();
  };

  /** One connection to the server, waiting for a request; replaced when its request is done. */
  const openOne = () => {
    if (ended) return;
    const remote = connect({ host: remoteHost, port: grant.port });
    sockets.add(remote);
    let connected = false;
    let local: Socket | undefined;
    remote.setKeepAlive(true, 30_000);
    remote.once('connect', () => (connected = true));
    // The first bytes of a request: only then is the local listener dialled.
    remote.once('readable', () => {
      if (ended || local) return;
      local = connect({ host: o.localHost ?? '127.0.0.1', port: o.localPort });
      sockets.add(local);
      local.on('error', () => remote.destroy());
      local.once('close', () => {
        sockets.delete(local!);
        remote.destroy();
      });
      remote.pipe(local).pipe(remote);
    });
    remote.on('error', () => undefined);
    remote.once('close', () => {
      sockets.delete(remote);
      local?.destroy();
      // The server no longer takes connections for this tunnel: it is gone.
      if (!connected || (!local && ++emptyCloses >= 5)) return finish();
      if (local) emptyCloses = 0;
      setTimeout(openOne, local ? 0 : 1000).unref();
    });
  };
  for (let i = 0; i < grant.maxConn; i++) openOne();
  return {
    url: grant.url.replace(/\/+$/, ''),
    closed,
    stop: async () => finish(),
  };
}
