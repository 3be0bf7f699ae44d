/**
 * What the listener's HTTP/1.1 layer (http1.ts) reads and writes on the wire: a request head,
 * parsed strictly (anything ambiguous is a Refusal), and a response, serialised.
 */

import { ownString } from '../../text/ownString';

export interface Http1Request {
  method: string;
  target: string;
  /** Lower-case names; a repeated header keeps its first value. */
  headers: Record<string, string>;
  body: Buffer;
  /** The peer of the connection it came on. */
  remoteAddress?: string;
}

export interface Http1Response {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface Http1Options {
  maxHeaderBytes?: number;
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs?: number;
  /** Open connections at most: a new one takes the slot of one still without a whole head, or is dropped. */
  maxConnections?: number;
  /** Request bytes held across all connections; a connection that would pass it is refused (503). */
  maxBufferedBytes?: number;
}

export const CRLF2 = Buffer.from('\r\n\r\n');
export const CRLF = Buffer.from('\r\n');
const REQUEST_LINE = /^([A-Z]{1,16}) (\S{1,8192}) HTTP\/1\.([01])$/;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_TEXT: Record<number, string> = {
  100: 'Continue',
  200: 'OK',
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  503: 'Service Unavailable',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  505: 'HTTP Version Not Supported',
};

/** A request the connection cannot go on from: answered, then closed. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

const responseCache = new Map<string, Buffer>();

/** Serialises a response; the common answers ("200 OK") are built once. */
export function serialize(res: Http1Response, keepAlive: boolean): Buffer {
  const cacheable = !res.headers;
  const key = cacheable ? `${res.status}|${keepAlive}|${res.body}` : '';
  const cached = cacheable ? responseCache.get(key) : undefined;
  if (cached) return cached;
  const body = Buffer.from(res.body, 'utf8');
  let head =
    `HTTP/1.1 ${res.status} ${STATUS_TEXT[res.status] ?? 'Status'}\r\n` +
    `content-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n`;
  for (const [k, v] of Object.entries(res.headers ?? {})) head += `${k}: ${v}\r\n`;
  const out = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]);
  if (cacheable && responseCache.size < 64) responseCache.set(key, out);
  return out;
}

export interface Head {
  method: string;
  target: string;
  headers: Record<string, string>;
  keepAlive: boolean;
  /** Content-Length, or -1 for chunked. */
  length: number;
}

/** HTTP's optional whitespace is space and tab only (String.trim would also drop \v, \f, NBSP…). */
export function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export function parseHead(text: string, maxBody: number): Head {
  const lines = text.split('\r\n');
  const m = REQUEST_LINE.exec(lines[0]);
  if (!m) {
    if (/ HTTP\/\d/.test(lines[0]) && !/ HTTP\/1\.[01]$/.test(lines[0])) throw new Refusal(505, 'HTTP version not supported');
    throw new Refusal(400, 'Bad request line');
  }
  const headers: Record<string, string> = {};
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Refusal(400, 'Bad header line');
    const name = line.slice(0, colon);
    if (!HEADER_NAME.test(name)) throw new Refusal(400, 'Bad header name');
    const value = trimOws(line.slice(colon + 1));
    if (/[\0\r\n]/.test(value)) throw new Refusal(400, 'Bad header value');
    const lower = name.toLowerCase();
    if (lower === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (contentLength !== undefined && contentLength !== value)) throw new Refusal(400, 'Bad Content-Length');
      contentLength = value;
    } else if (lower === 'transfer-encoding') {
      transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
    }
    if (!(lower in headers)) headers[lower] = ownString(value);
  }
  if (transferEncoding !== undefined) {
    if (contentLength !== undefined) throw new Refusal(400, 'Both Content-Length and Transfer-Encoding');
    if (transferEncoding.toLowerCase() !== 'chunked') throw new Refusal(501, 'Only chunked transfer coding is supported');
  }
  const length = transferEncoding !== undefined ? -1 : Number(contentLength ?? 0);
  if (length > maxBody) throw new Refusal(413, 'Payload too large');
  const connection = (headers.connection ?? '').toLowerCase();
  const keepAlive = m[3] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  return { method: m[1], target: ownString(m[2]), headers, keepAlive, length };
}
