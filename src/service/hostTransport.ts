/**
 * The transport inside VS Code: every request to a host that is not this machine goes through the
 * `fetch` VS Code's extension host gives extensions (its proxy support: the OS proxy and PAC files
 * on desktop, Kerberos, http.proxy / http.noProxy / http.proxySupport, system certificates, a
 * remote window's host proxy), so what connects VS Code connects us (docs/vscode-network.md).
 * Loopback goes direct through undici, as VS Code itself would send it: the emulator, the user's
 * app, `*.localhost` names (pinned to 127.0.0.1, which the system resolver may not do).
 * No dispatcher option reaches the host's fetch, so the timeouts are timers on an AbortSignal.
 */
import { Readable } from 'node:stream';
import { json, text } from 'node:stream/consumers';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isLocalhostName } from './loopback';
import { DEFAULT_TIMEOUT_MS, ProxyRefusedError, type Transport, type TransportBody, type TransportRequest, type TransportResponse } from './transport';

/** What VS Code sends direct whatever its proxy settings, plus `*.localhost` (ours, pinned). */
function directInVsCode(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === '127.0.0.1' || h === '::1' || h === '::ffff:127.0.0.1' || isLocalhostName(h);
}

/** A timeout as undici reports it, so the retry rules and messages read it the same way. */
function timeoutError(code: 'UND_ERR_HEADERS_TIMEOUT' | 'UND_ERR_BODY_TIMEOUT'): Error {
  return Object.assign(new Error(code === 'UND_ERR_HEADERS_TIMEOUT' ? 'Headers Timeout Error' : 'Body Timeout Error'), { code, name: 'TimeoutError' });
}

/** A Node stream of the answer with undici's readers, the body's silence cut at `bodyTimeout`. */
function bodyOf(stream: WebReadableStream | null, bodyTimeout: number, stop: (err: Error) => void): TransportBody {
  const body = (stream ? Readable.fromWeb(stream) : Readable.from([])) as TransportBody;
  let timer = bodyTimeout > 0 ? setTimeout(() => stop(timeoutError('UND_ERR_BODY_TIMEOUT')), bodyTimeout) : undefined;
  body.on('data', () => timer?.refresh());
  body.once('close', () => clearTimeout(timer));
  body.text = () => text(body);
  body.json = () => json(body);
  body.dump = async () => {
    clearTimeout(timer);
    timer = undefined;
    body.destroy();
  };
  return body;
}

export class HostTransport implements Transport {
  constructor(
    /** VS Code's global fetch (the host patches it). */
    private readonly hostFetch: typeof fetch,
    /** Loopback targets: undici straight there. */
    private readonly direct: Transport,
    /** The proxy VS Code is set to use (http.proxy), for messages only: the host decides. */
    private readonly label: (url: URL) => string | undefined,
  ) {}

  async request(url: string | URL, req: TransportRequest = {}): Promise<TransportResponse> {
    const target = new URL(url);
    if (directInVsCode(target.hostname)) return this.direct.request(target, req);
    const ctl = new AbortController();
    const signal = req.signal ? AbortSignal.any([req.signal, ctl.signal]) : ctl.signal;
    // Connecting and waiting for the headers are one span here: the host connects, not us.
    const headersMs = req.headersTimeout ?? DEFAULT_TIMEOUT_MS;
    const timer = headersMs > 0 ? setTimeout(() => ctl.abort(timeoutError('UND_ERR_HEADERS_TIMEOUT')), headersMs) : undefined;
    const streamed = req.body instanceof Readable;
    let res: Response;
    try {
      res = await this.hostFetch(target, {
        method: req.method ?? 'GET',
        headers: req.headers,
        body: streamed ? (Readable.toWeb(req.body as Readable) as ReadableStream) : (req.body as string | Uint8Array | undefined),
        signal,
        redirect: 'manual',
        ...(streamed ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (err) {
      if (streamed) (req.body as Readable).destroy();
      throw ctl.signal.aborted && !req.signal?.aborted ? ctl.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
    const headers: TransportResponse['headers'] = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    const cookies = res.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    // A proxy that forwards plain http answers a refusal itself.
    if (res.status === 407 && headers['proxy-authenticate'] !== undefined) {
      await res.body?.cancel().catch(() => undefined);
      throw new ProxyRefusedError(407);
    }
    const body = bodyOf(res.body as WebReadableStream | null, req.bodyTimeout ?? DEFAULT_TIMEOUT_MS, (err) => ctl.abort(err));
    return { statusCode: res.status, headers, body };
  }

  proxyLabel(url: string | URL): string | undefined {
    const target = new URL(url);
    return directInVsCode(target.hostname) ? this.direct.proxyLabel(target) : this.label(target);
  }

  close(): Promise<void> {
    return this.direct.close();
  }
}
