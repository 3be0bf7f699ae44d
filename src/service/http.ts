/**
 * The HTTP layer every API call goes through: one transport (proxy.ts: VS Code's network support
 * inside VS Code, undici in plain Node), auth headers, timeouts, retries with backoff, and
 * translation of every failure into a ServiceError.
 */
import * as l10n from '@vscode/l10n';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, type AuthSource, type RetryPolicy, type Timeouts } from './connection';
import { ServiceError, parseErrorBody, parseRetryAfter } from './errors';
import { proxyRefusal, transportFor, type ProxySettings, type Transport } from './proxy';
import type { TransportBody, TransportResponse } from './transport';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL. */
  url: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra context for error messages. */
  deployment?: string;
  /** Return the live body instead of reading it (the caller must consume or destroy it). */
  stream?: boolean;
  /** False: a 429 is returned at once, so the caller can show its own countdown. */
  retryRateLimits?: boolean;
  /**
   * Safe to send twice (default: GET only). Anything else is retried only when the service
   * cannot have acted on it: a 429, a connection never made, or an explicit `x-should-retry: true`.
   */
  idempotent?: boolean;
  /** A body sent as it is read (a file upload), opened afresh for each attempt; instead of `body`. */
  upload?: { contentType: string; length: number; open: () => Readable };
  /** The accept header, when the answer is neither JSON nor a stream of events (a file's bytes). */
  accept?: string;
  /** Hears the status and headers of every answer, an error one too (rate-limit headroom, for usage reports). */
  onHeaders?: (status: number, headers: HttpResponse['headers']) => void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  requestId?: string;
}

export interface StreamResponse extends HttpResponse {
  body: TransportBody;
}

const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const RETRY_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** Failures that leave no doubt the request never reached the service. */
const NOT_SENT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const USER_AGENT = 'aoai-workbench/0.1';

function header(headers: HttpResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The wait before retry number `attempt + 1`: exponential, capped, with "equal jitter" (half
 * fixed, half random) so clients that failed together do not come back together.
 */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return exp / 2 + random() * (exp / 2);
}

export class HttpClient {
  private transportMade?: Transport;
  readonly timeouts: Timeouts;
  readonly retry: RetryPolicy;

  constructor(
    private readonly auth: AuthSource,
    timeouts?: Partial<Timeouts>,
    retry?: Partial<RetryPolicy>,
    private readonly proxy: ProxySettings = {},
  ) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
    this.retry = { ...DEFAULT_RETRY, ...retry };
  }

  /** Made on the first request: keep-alive pools per origin, or the host's network support. */
  private get transport(): Transport {
    this.transportMade ??= transportFor(this.proxy, { connectTimeoutMs: this.timeouts.connectMs });
    return this.transportMade;
  }

  /** A JSON request; returns the parsed body. */
  async json<T>(req: HttpRequest): Promise<T> {
    const res = await this.send({ ...req, stream: false });
    const host = new URL(req.url).host;
    const text = await res.body.text().catch((cause: unknown) => {
      throw this.toError(cause, host, req);
    });
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ServiceError({ kind: 'invalid-response', host, status: res.status, requestId: res.requestId, serviceMessage: text.slice(0, 200) || undefined });
    }
  }

  /** A request whose body the caller reads as it arrives. Retries happen only before the first byte. */
  stream(req: HttpRequest): Promise<StreamResponse> {
    return this.send({ ...req, stream: true });
  }

  private async authHeaders(signal?: AbortSignal): Promise<Record<string, string>> {
    if (this.auth.kind === 'apiKey') return { 'api-key': this.auth.apiKey };
    return { authorization: `Bearer ${await this.auth.getToken(signal)}` };
  }

  private async send(req: HttpRequest): Promise<StreamResponse> {
    const url = new URL(req.url);
    const host = url.host;
    const started = Date.now();
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    let triedOtherToken = false;
    const repeatable = req.idempotent ?? req.method === 'GET';
    for (let attempt = 0; ; attempt++) {
      let res: TransportResponse;
      // Outside the try: a sign-in failure is reported as itself, not as a network error.
      const reqHeaders: Record<string, string> = {
        accept: req.accept ?? (req.stream ? 'text/event-stream' : 'application/json'),
        'user-agent': USER_AGENT,
        ...(await this.authHeaders(req.signal)),
      };
      if (payload !== undefined) reqHeaders['content-type'] = 'application/json';
      if (req.upload) Object.assign(reqHeaders, { 'content-type': req.upload.contentType, 'content-length': String(req.upload.length) });
      try {
        res = await this.transport.request(url, {
          method: req.method,
          headers: reqHeaders,
          body: req.upload ? req.upload.open() : payload,
          signal: req.signal,
          headersTimeout: this.timeouts.headersMs,
          bodyTimeout: this.timeouts.bodyMs,
        });
      } catch (cause) {
        const err = this.toError(cause, host, req);
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: without it, the retry's wait ends at once on the same aborted signal
        if (err.kind === 'aborted') throw err;
        const c = code(cause);
        const wait = repeatable || NOT_SENT_CODES.has(c ?? '') ? this.retryWait(attempt, started, undefined, c) : undefined;
        if (wait === undefined) throw err;
        await this.backoff(wait, req.signal, host);
        continue;
      }
      const headers = res.headers as HttpResponse['headers'];
      const requestId = header(headers, 'apim-request-id') ?? header(headers, 'x-request-id');
      req.onHeaders?.(res.statusCode, headers);
      if (res.statusCode >= 200 && res.statusCode < 300) {
        return { status: res.statusCode, headers, requestId, body: res.body };
      }
      // Stryker disable next-line StringLiteral: an error body cut off in transit reads as no body
      const text = await res.body.text().catch(() => '');
      if (res.statusCode === 401 && this.auth.kind === 'bearer' && this.auth.onUnauthorized && !triedOtherToken) {
        triedOtherToken = true;
        if (await this.auth.onUnauthorized(req.signal)) {
          attempt--;
          continue;
        }
      }
      const retryAfterMs = parseRetryAfter(headers);
      const err = new ServiceError({
        kind: 'http',
        host,
        status: res.statusCode,
        requestId,
        retryAfterMs,
        deployment: req.deployment,
        auth: this.auth.kind,
        plane: this.auth.kind === 'bearer' ? this.auth.plane : undefined,
        ...parseErrorBody(text),
      });
      const shouldRetry = header(headers, 'x-should-retry');
      // A 429 was refused before any work: sending it again is safe whatever the method.
      const safe = repeatable || res.statusCode === 429 || shouldRetry === 'true';
      const retryable = safe && (res.statusCode !== 429 || req.retryRateLimits !== false) && (shouldRetry === 'true' || (shouldRetry !== 'false' && RETRY_STATUS.has(res.statusCode)));
      const wait = retryable ? this.retryWait(attempt, started, retryAfterMs) : undefined;
      if (wait === undefined) throw err;
      await this.backoff(wait, req.signal, host);
    }
  }

  /** How long to wait before retrying, or undefined when the failure is to be reported now. */
  private retryWait(attempt: number, started: number, retryAfterMs?: number, errCode?: string): number | undefined {
    if (attempt >= this.retry.maxRetries) return undefined;
    if (errCode !== undefined && !RETRY_CODES.has(errCode)) return undefined;
    const wait = retryAfterMs ?? backoffDelay(attempt, this.retry);
    // A wait the budget cannot cover is not worth starting: report the error (with its retry time) now.
    // Stryker disable next-line EqualityOperator: the boundary is one millisecond wide
    return Date.now() - started + wait <= this.retry.maxTotalMs ? wait : undefined;
  }

  private async backoff(wait: number, signal: AbortSignal | undefined, host: string) {
    try {
      await sleep(wait, undefined, { signal });
    } catch (cause) {
      throw new ServiceError({ kind: 'aborted', host, cause });
    }
  }

  /** Maps whatever undici or the signal threw to a ServiceError. */
  toError(cause: unknown, host: string, req: Pick<HttpRequest, 'signal'>): ServiceError {
    if (cause instanceof ServiceError) return cause;
    // Whatever undici throws when the caller aborts, the caller's signal says so.
    if (req.signal?.aborted) return new ServiceError({ kind: 'aborted', host, cause });
    const refused = proxyRefusal(cause);
    const proxy = this.transport.proxyLabel(`https://${host}`);
    if (refused) return new ServiceError({ kind: 'network', host, code: 'EPROXY', status: refused, hint: proxyAdvice(proxy ?? l10n.t('(the one VS Code uses)'), refused), cause });
    const c = code(cause);
    if (c === 'EPROXYKIND') return new ServiceError({ kind: 'network', host, code: c, cause, hint: (cause as Error).message });
    const via = proxy ? `(through the proxy ${proxy}, from http.proxy or HTTPS_PROXY)` : undefined;
    if (c && TIMEOUT_CODES.has(c)) return new ServiceError({ kind: 'timeout', host, code: c, cause, hint: via });
    return new ServiceError({ kind: 'network', host, code: c, cause, hint: via });
  }

  async close(): Promise<void> {
    const transport = this.transportMade;
    this.transportMade = undefined;
    await transport?.close();
  }
}

function proxyAdvice(proxy: string, status: number): string {
  if (status === 407) {
    return l10n.t('The proxy {0} asks for a user name and password (407): put them in http.proxy or HTTPS_PROXY as {1}.', proxy, 'http://user:password@host:port');
  }
  if (status === 403) {
    return l10n.t('The proxy {0} does not allow this host (403): ask its administrator, or list the host in http.noProxy / NO_PROXY if it is reachable without the proxy.', proxy);
  }
  return l10n.t('The proxy {0} could not connect to it ({1}): check the endpoint URL; if the host is reachable without the proxy, list it in http.noProxy / NO_PROXY.', proxy, status);
}

/** The error code of an undici/net error, looking through `cause` chains. */
function code(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}
