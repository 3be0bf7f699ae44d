/**
 * The one way the core sends an HTTP request: a URL and a method, headers, body, signal and
 * timeouts in; the status, headers and a streamed body out (undici's `request()` shape, so its
 * own answers pass through as they are). Two kinds satisfy it: undici's Agent / ProxyAgent in
 * plain Node (nodeTransport.ts) and, inside VS Code, the host's network support for every
 * non-loopback target (hostTransport.ts). `transportFor` picks one from the settings.
 */
import type { Readable } from 'node:stream';

export interface TransportRequest {
  method?: string;
  headers?: Record<string, string>;
  /** A Readable is sent as it is read (an upload); give its content-length in `headers`. */
  body?: string | Uint8Array | Readable;
  signal?: AbortSignal;
  /** From the moment the request is sent until the answer's headers (default 300 s; 0: none). */
  headersTimeout?: number;
  /** Longest silence between two chunks of the answer's body (default 300 s; 0: none). */
  bodyTimeout?: number;
}

/** The answer's body, read once: as it arrives (a Readable) or whole. */
export interface TransportBody extends Readable {
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** Drops the rest unread. */
  dump(): Promise<void>;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: TransportBody;
}

export interface Transport {
  request(url: string | URL, req?: TransportRequest): Promise<TransportResponse>;
  /** The proxy a request to `url` is expected to take, as a message may name it (no credentials). */
  proxyLabel(url: string | URL): string | undefined;
  /** Lets requests in flight end, then closes kept-alive connections. */
  close(): Promise<void>;
}

/** undici's defaults, so a caller that sets neither waits as long as before. */
export const DEFAULT_TIMEOUT_MS = 300_000;

/**
 * A proxy refused (407, 403, 502...): undici says so only in its message, for a tunnel ("Proxy
 * response (407) !== 200"; VS Code's proxy agent writes "?.==" and adds `connectResponseStatusCode`)
 * or a forwarded plain-http request ("Proxy Authentication Required (407)").
 */
const REFUSAL = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/;

/** The status a proxy refused a request with, if that is what failed (through `cause` chains). */
export function proxyRefusal(err: unknown): number | undefined {
  type Refusal = { cause?: unknown; message?: unknown; proxyStatus?: unknown; connectResponseStatusCode?: unknown };
  for (let e = err as Refusal | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) {
    if (typeof e.proxyStatus === 'number') return e.proxyStatus;
    if (typeof e.connectResponseStatusCode === 'number' && e.connectResponseStatusCode !== 200) return e.connectResponseStatusCode;
    const m = typeof e.message === 'string' ? REFUSAL.exec(e.message) : null;
    if (m) return Number(m[1] ?? m[2]);
  }
  return undefined;
}

/** A refusal that came as an answer (a proxy forwarding plain http answers 407 itself). */
export class ProxyRefusedError extends Error {
  readonly code = 'UND_ERR_PRX_REFUSED';
  constructor(readonly proxyStatus: number) {
    super(`Proxy response (${proxyStatus}) !== 200`);
  }
}
