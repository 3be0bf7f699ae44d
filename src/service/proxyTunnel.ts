/**
 * A connection through a proxy's CONNECT tunnel, for NodeDispatcher's agents: the proxy's
 * refusal as its own error (its status says what to do), TLS inside the tunnel for an https target.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContext } from 'node:tls';
import { errors } from 'undici';

export interface TunnelOptions {
  /** TCP and TLS set-up (through the proxy too), for a new connection. */
  connectTimeoutMs: number;
  /** Whom TLS trusts (the target's certificates, and an https proxy's). */
  secureContext?: SecureContext;
  lookup?: LookupFunction;
  /** False: TLS accepts any certificate (http.proxyStrictSSL off). */
  rejectUnauthorized?: boolean;
}

export type Callback = (err: Error | null, socket?: Socket) => void;

/** A proxy refused the tunnel (407, 403, 502...): the status says what to do. */
export class ProxyRefusedError extends Error {
  readonly code = 'UND_ERR_PRX_REFUSED';
  constructor(readonly proxyStatus: number) {
    super(`Proxy response (${proxyStatus}) !== 200 when HTTP Tunneling`);
  }
}

/** A connection to `target` through the proxy's CONNECT tunnel, TLS inside it for an https target. */
export function tunnel(proxy: URL, target: https.RequestOptions & { servername?: string }, tls: boolean, options: TunnelOptions, cb: Callback): void {
  const host = String(target.host ?? target.hostname);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${target.port ?? (tls ? 443 : 80)}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username || proxy.password) {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const secureProxy = proxy.protocol === 'https:';
  const req = clientRequest({
    host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: proxy.port || (secureProxy ? 443 : 80),
    method: 'CONNECT',
    path: authority,
    headers,
    // A connection of its own: once the tunnel is up, the socket is no longer the agent's.
    agent: secureProxy ? new https.Agent() : new http.Agent(),
    lookup: options.lookup,
    ...(secureProxy ? { secureContext: options.secureContext, rejectUnauthorized: options.rejectUnauthorized !== false } : {}),
  });
  let settled = false;
  const settle = (err: Error | null, socket?: Socket) => {
    clearTimeout(timer);
    if (settled) {
      socket?.destroy();
      return;
    }
    settled = true;
    cb(err, socket);
  };
  const timer = setTimeout(() => {
    const err = new errors.ConnectTimeoutError();
    req.destroy(err);
    settle(err);
  }, options.connectTimeoutMs);
  req.once('connect', (res, socket, head) => {
    if (res.statusCode !== 200) {
      socket.destroy();
      settle(new ProxyRefusedError(res.statusCode ?? 0));
      return;
    }
    if (head.length > 0) socket.unshift(head);
    if (!tls) return settle(null, socket);
    const servername = target.servername ?? (isIP(host) ? undefined : host);
    const secure = tlsConnect({ socket, servername, secureContext: options.secureContext, rejectUnauthorized: options.rejectUnauthorized !== false });
    secure.once('secureConnect', () => settle(null, secure));
    secure.once('error', (err) => settle(err));
  });
  req.once('error', (err) => settle(err));
  req.end();
}

/**
 * `new ClientRequest`, not `http.request`: VS Code's extension host replaces `http.request` and
 * `https.request` (its proxy support) and would swap the agent given for one of its own, without
 * keep-alive, with its proxy choice instead of ours and the system's DNS for `.localhost` names.
 */
export function clientRequest(options: https.RequestOptions): http.ClientRequest {
  return new http.ClientRequest(options);
}
