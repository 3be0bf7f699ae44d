/**
 * undici's Dispatcher over Node's own HTTP client. Callers keep undici's API (`request`, its body
 * reader, its error codes); the bytes are parsed by node:http's parser (C++), not by undici's
 * WebAssembly one, which V8 optimizes once it is hot, leaving the ~13 MB the compiler used in
 * malloc arenas glibc keeps: in an extension host every extension shares (docs/host-memory.md).
 * Keep-alive per origin; a CONNECT tunnel through a proxy when one is given.
 */
import { channel } from 'node:diagnostics_channel';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { Dispatcher, errors } from 'undici';
import { headerRecord, isStream } from './dispatchOptions';
import { clientRequest, tunnel, type Callback, type TunnelOptions } from './proxyTunnel';

export { ProxyRefusedError } from './proxyTunnel';

/**
 * Told `{ request: { origin } }` when a request has been written to its connection (connected,
 * headers and body handed to the socket): when it actually left, as undici's `sendHeaders` channel did.
 */
export const REQUEST_SENT = channel('aoai-workbench:http:sent');

/** undici's defaults, so a caller that sets neither waits as long as before. */
const DEFAULT_TIMEOUT_MS = 300_000;

export interface NodeDispatcherOptions extends TunnelOptions {
  /** Keep-alive connections per origin. */
  connections?: number;
  /** How long an idle connection is kept. */
  keepAliveMs?: number;
  /** Every request goes through a CONNECT tunnel there (user:password in the URL: Basic Proxy-Authorization). */
  proxy?: URL;
}

export class NodeDispatcher extends Dispatcher {
  private readonly agents: Partial<Record<'http:' | 'https:', http.Agent>> = {};
  private readonly active = new Set<Exchange>();
  private closing?: Promise<void>;
  private drained?: () => void;

  constructor(private readonly options: NodeDispatcherOptions) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const exchange = new Exchange(opts, handler, this.options, () => {
      this.active.delete(exchange);
      if (this.active.size === 0) this.drained?.();
    });
    if (this.closing) {
      const closed = new errors.ClientClosedError();
      queueMicrotask(() => exchange.fail(closed));
      return false;
    }
    let agent: http.Agent;
    try {
      agent = this.agentFor(exchange.origin.protocol);
    } catch (err) {
      queueMicrotask(() => exchange.fail(err as Error));
      return true;
    }
    this.active.add(exchange);
    exchange.start(agent);
    return true;
  }

  private agentFor(protocol: string): http.Agent {
    if (protocol !== 'http:' && protocol !== 'https:') throw new errors.InvalidArgumentError(`unsupported protocol ${protocol}`);
    const existing = this.agents[protocol];
    if (existing) return existing;
    const o = this.options;
    const settings = { keepAlive: true, maxSockets: o.connections ?? 16, timeout: o.keepAliveMs ?? 30_000, scheduling: 'lifo' as const, lookup: o.lookup };
    const agent =
      protocol === 'https:' ? new https.Agent({ ...settings, secureContext: o.secureContext, rejectUnauthorized: o.rejectUnauthorized !== false }) : new http.Agent(settings);
    if (o.proxy) {
      const proxy = o.proxy;
      const tls = protocol === 'https:';
      // Node's agent accepts a connection handed over later, through the callback.
      type Connect = (opts: https.RequestOptions & { servername?: string }, cb: Callback) => undefined;
      (agent as unknown as { createConnection: Connect }).createConnection = (target, cb) => {
        tunnel(proxy, target, tls, o, cb);
        return undefined;
      };
    }
    this.agents[protocol] = agent;
    return agent;
  }

  override close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.drained = () => {
        this.destroyAgents();
        resolve();
      };
      if (this.active.size === 0) this.drained();
    });
    return this.closing;
  }

  override destroy(): Promise<void> {
    for (const exchange of [...this.active]) exchange.abort(new errors.ClientDestroyedError());
    this.destroyAgents();
    this.closing ??= Promise.resolve();
    return Promise.resolve();
  }

  private destroyAgents(): void {
    this.agents['http:']?.destroy();
    this.agents['https:']?.destroy();
  }
}

/** One request and its answer, told to undici's handler as undici's own client would. */
class Exchange {
  readonly origin: URL;
  private req?: http.ClientRequest;
  private res?: http.IncomingMessage;
  private ended = false;
  private paused = false;
  private reason: Error | null = null;
  private timer?: NodeJS.Timeout;
  private readonly controller: Dispatcher.DispatchController;

  constructor(
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly options: NodeDispatcherOptions,
    private readonly done: () => void,
  ) {
    this.origin = new URL(String(opts.origin));
    const self = this;
    this.controller = {
      get aborted() {
        return self.reason !== null;
      },
      get paused() {
        return self.paused;
      },
      get reason() {
        return self.reason;
      },
      abort: (reason?: Error) => this.abort(reason),
      pause: () => {
        this.paused = true;
        this.res?.pause();
        this.clearTimer();
      },
      resume: () => {
        this.paused = false;
        this.res?.resume();
        if (this.res && !this.ended) this.arm(this.opts.bodyTimeout, () => new errors.BodyTimeoutError());
      },
    };
  }

  start(agent: http.Agent): void {
    this.handler.onRequestStart?.(this.controller, {});
    if (this.ended) return;
    const { protocol, hostname, port } = this.origin;
    let req: http.ClientRequest;
    try {
      req = clientRequest({ protocol, hostname: hostname.replace(/^\[(.*)\]$/, '$1'), port, path: this.opts.path, method: this.opts.method, headers: headerRecord(this.opts.headers), agent });
    } catch (err) {
      queueMicrotask(() => this.fail(err as Error));
      return;
    }
    this.req = req;
    req.on('socket', (socket) => this.onSocket(socket));
    req.on('error', (err) => this.fail(err));
    req.on('finish', () => {
      if (REQUEST_SENT.hasSubscribers) REQUEST_SENT.publish({ request: { origin: this.origin.origin } });
      if (req.socket) this.waitForHeaders(req.socket);
    });
    req.on('response', (res) => this.respond(res));
    const body = this.opts.body;
    if (isStream(body)) {
      body.on('error', (err) => this.abort(err));
      body.pipe(req);
    } else if (body === undefined || body === null) {
      req.end();
    } else if (typeof body === 'string' || body instanceof Uint8Array) {
      req.end(body);
    } else {
      queueMicrotask(() => this.fail(new errors.NotSupportedError('this body type is not sent by this dispatcher')));
    }
  }

  /** A new connection has the connect timeout; once it is up (a kept-alive one is), the headers timeout runs. */
  private onSocket(socket: Socket): void {
    if (!socket.connecting) return this.waitForHeaders(socket);
    const tls = 'encrypted' in socket;
    const timer = setTimeout(() => {
      const err = new errors.ConnectTimeoutError();
      socket.destroy(err);
      this.fail(err);
    }, this.options.connectTimeoutMs);
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      this.waitForHeaders(socket);
    });
    socket.once('close', () => clearTimeout(timer));
  }

  /**
   * The headers timeout, from the moment the connection is up: while the request is still being
   * written it only fires when no byte has left for that long (a server that stopped reading),
   * so a large upload on a slow line is not cut; once it is written, from then on.
   */
  private waitForHeaders(socket: Socket): void {
    if (this.res || this.ended) return;
    const ms = this.opts.headersTimeout ?? DEFAULT_TIMEOUT_MS;
    this.clearTimer();
    if (ms === 0) return;
    let written = socket.bytesWritten;
    const check = () => {
      if (!this.req?.writableFinished && socket.bytesWritten !== written) {
        written = socket.bytesWritten;
        this.timer = setTimeout(check, ms);
        return;
      }
      this.fail(new errors.HeadersTimeoutError());
    };
    this.timer = setTimeout(check, ms);
  }

  private respond(res: http.IncomingMessage): void {
    if (this.ended) {
      res.destroy();
      return;
    }
    this.res = res;
    this.clearTimer();
    this.controller.rawHeaders = res.rawHeaders;
    this.handler.onResponseStart?.(this.controller, res.statusCode ?? 0, res.headers, res.statusMessage);
    if (this.ended) return;
    this.arm(this.opts.bodyTimeout, () => new errors.BodyTimeoutError());
    res.on('data', (chunk: Buffer) => {
      if (this.ended) return;
      this.timer?.refresh();
      this.handler.onResponseData?.(this.controller, chunk);
    });
    res.on('end', () => {
      if (this.ended) return;
      // Answered before the request was all sent (a 413 to an upload): the rest is not sent, and
      // the connection, left mid-request, is not reused.
      if (this.req && !this.req.writableFinished) {
        this.req.destroy();
        if (isStream(this.opts.body)) this.opts.body.destroy();
      }
      this.finish();
      this.handler.onResponseEnd?.(this.controller, res.trailers);
    });
    res.on('error', (err) => this.fail(err));
    res.on('close', () => {
      if (!res.complete) this.fail(new errors.SocketError('other side closed'));
    });
    if (this.paused) res.pause();
  }

  /** The caller's abort (or a dispatcher destroyed): the handler hears the reason once. */
  abort(reason?: Error): void {
    if (this.ended) return;
    // undici's body reader aborts with no reason when it is destroyed unread (`dump()`, `destroy()`).
    this.reason = reason ?? new errors.RequestAbortedError();
    this.fail(this.reason);
  }

  fail(err: Error): void {
    if (this.ended) return;
    this.finish();
    this.req?.destroy();
    if (isStream(this.opts.body)) this.opts.body.destroy();
    this.handler.onResponseError?.(this.controller, err);
  }

  private finish(): void {
    this.ended = true;
    this.clearTimer();
    this.done();
  }

  private arm(ms: number | null | undefined, error: () => Error): void {
    this.clearTimer();
    if (ms === 0) return;
    this.timer = setTimeout(() => this.fail(error()), ms ?? DEFAULT_TIMEOUT_MS);
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
