/**
 * A small, strict HTTP/1.1 server on `net` for the webhook listener. Webhook senders (the service
 * itself, or a tunnel relaying for it) send short POSTs on keep-alive connections; this layer
 * does exactly that and nothing else, without node:http's per-request stream objects, which were
 * most of the listener's cost. What it accepts is deliberately narrow:
 *
 * - request line `METHOD SP target SP HTTP/1.0|1.1`, header lines `name: value` (no obs-fold),
 *   a head of at most `maxHeaderBytes`;
 * - a body by Content-Length or `Transfer-Encoding: chunked`; both at once, several different
 *   lengths, or any other transfer coding are refused (the request-smuggling shapes);
 * - `Expect: 100-continue` answered; keep-alive unless `Connection: close` (or HTTP/1.0 without
 *   keep-alive); pipelined requests answered in order; backpressure respected;
 * - deadlines that a slow sender cannot stretch: the head within `headersTimeoutMs`, the whole
 *   request within `requestTimeoutMs` of its first byte; a new connection's first byte within
 *   `headersTimeoutMs`; idle keep-alive connections closed;
 * - a full house does not lock senders out: a new connection takes the slot of the connection
 *   that has waited longest without sending a whole head (a slow sender, or an idle one), so 128
 *   slow sockets cannot keep the service's deliveries away.
 *
 * Every refusal is an answer with a status and `Connection: close`; nothing a sender does throws.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { CRLF2, CRLF, Refusal, serialize, parseHead, trimOws, type Head, type Http1Options, type Http1Request, type Http1Response } from './http1Wire';

export type { Http1Options, Http1Request, Http1Response } from './http1Wire';

/** Bytes held by every connection of one server, against its limit. */
interface Budget {
  used: number;
  readonly max: number;
}

/** One connection's parser: bytes in, complete requests out. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  /** Body bytes that arrived after `buffer`, joined only once the whole body is there. */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  /** What this connection holds, as counted in the server's budget. */
  private counted = 0;
  /** Read once: the socket's getter asks the system each time. */
  private readonly remoteAddress: string | undefined;
  private head?: Head;
  /** Chunked bodies: the pieces so far and where the parser is. */
  private chunks: Buffer[] = [];
  private chunkedSize = 0;
  /** When the current request's first byte came (0: between requests). */
  private startedAt = 0;
  /** When the connection last finished a request (for the keep-alive timeout). */
  private idleSince = Date.now();
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: Required<Http1Options>,
    private readonly handler: (req: Http1Request) => Http1Response,
    private readonly budget: Budget,
  ) {
    this.remoteAddress = socket.remoteAddress;
  }

  /** Whether it answered nothing yet: a fresh connection is held to the head's deadline, not the keep-alive one. */
  private answered = false;

  /** How readily its slot goes to a new connection: waiting for a head first, then the longest waiting. */
  evictionRank(): [number, number] {
    return [this.head ? 1 : 0, this.startedAt || this.idleSince];
  }

  /** The deadline check run on an interval by the server. */
  expired(now: number): boolean {
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: timing out a closed connection does nothing
    if (this.closed) return false;
    if (this.startedAt === 0) return now - this.idleSince > (this.answered ? this.options.keepAliveTimeoutMs : this.options.headersTimeoutMs);
    const limit = this.head ? this.options.requestTimeoutMs : this.options.headersTimeoutMs;
    // Stryker disable next-line EqualityOperator: the boundary is one millisecond wide
    return now - this.startedAt > limit;
  }

  timeout(): void {
    if (this.startedAt === 0) this.close();
    else this.refuse(new Refusal(408, 'Request timeout'));
  }

  data(chunk: Buffer): void {
    if (this.closed) return;
    if (this.startedAt === 0) this.startedAt = Date.now();
    if (this.budget.used + chunk.length > this.budget.max) {
      this.refuse(new Refusal(503, 'Too much data in flight; try again later'));
      return;
    }
    this.partsBytes += chunk.length;
    this.parts.push(chunk);
    // A large body arrives in many reads: joined once, not once per read.
    // Stryker disable next-line BlockStatement,ConditionalExpression: only saves work (the listener bench measures it)
    if (this.head && this.head.length > this.buffer.length + this.partsBytes) {
      this.account();
      return;
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator: only saves a copy
    this.buffer = this.buffer.length === 0 && this.parts.length === 1 ? chunk : Buffer.concat([this.buffer, ...this.parts]);
    this.parts = [];
    this.partsBytes = 0;
    // Answers to pipelined requests leave in one write.
    this.socket.cork();
    try {
      while (!this.closed && this.step());
    } catch (err) {
      // Stryker disable next-line StringLiteral: a parser bug, which no sender can cause on purpose
      this.refuse(err instanceof Refusal ? err : new Refusal(500, 'Internal server error'));
    } finally {
      this.socket.uncork();
      this.account();
    }
  }

  private account(): void {
    const held = this.closed ? 0 : this.buffer.length + this.partsBytes + this.chunkedSize;
    this.budget.used += held - this.counted;
    this.counted = held;
  }

  /** Consumes what it can; true when a request finished and more bytes may hold the next. */
  private step(): boolean {
    if (!this.head) {
      // Empty lines before a request line are allowed by RFC 9112 (2.2): drop them first, or two
      // of them would read as the end of an empty head.
      let start = 0;
      while (this.buffer[start] === 13 && this.buffer[start + 1] === 10) start += 2;
      if (start) this.buffer = this.buffer.subarray(start);
      const end = this.buffer.indexOf(CRLF2);
      if (end === -1) {
        if (this.buffer.length > this.options.maxHeaderBytes) throw new Refusal(431, 'Request header fields too large');
        return false;
      }
      if (end > this.options.maxHeaderBytes) throw new Refusal(431, 'Request header fields too large');
      this.head = parseHead(this.buffer.toString('latin1', 0, end), this.options.maxBodyBytes);
      this.buffer = this.buffer.subarray(end + 4);
      const expect = this.head.headers.expect?.toLowerCase();
      if (expect !== undefined) {
        if (expect !== '100-continue') throw new Refusal(417, 'Expectation failed');
        this.socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      }
    }
    const body = this.head.length >= 0 ? this.fixedBody(this.head.length) : this.chunkedBody();
    if (!body) return false;
    this.finish(body);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: another step on an empty buffer finds nothing
    return this.buffer.length > 0;
  }

  private fixedBody(length: number): Buffer | undefined {
    if (this.buffer.length < length) return undefined;
    const body = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return body;
  }

  private chunkedBody(): Buffer | undefined {
    for (;;) {
      const eol = this.buffer.indexOf(CRLF);
      if (eol === -1) {
        if (this.buffer.length > 1024) throw new Refusal(400, 'Bad chunk size line');
        return undefined;
      }
      const sizeText = trimOws(this.buffer.toString('latin1', 0, eol).split(';')[0]);
      if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new Refusal(400, 'Bad chunk size');
      const size = parseInt(sizeText, 16);
      if (size === 0) {
        // The last chunk: trailers (ignored, bounded like headers) up to an empty line.
        const noTrailers = this.buffer[eol + 2] === 13 && this.buffer[eol + 3] === 10;
        const trailersEnd = noTrailers ? eol : this.buffer.indexOf(CRLF2, eol + 2);
        if (trailersEnd === -1) {
          if (this.buffer.length > this.options.maxHeaderBytes) throw new Refusal(431, 'Request header fields too large');
          return undefined;
        }
        this.buffer = this.buffer.subarray(trailersEnd + 4);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: only saves a copy
        const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        this.chunks = [];
        this.chunkedSize = 0;
        return body;
      }
      if (this.chunkedSize + size > this.options.maxBodyBytes) throw new Refusal(413, 'Payload too large');
      if (this.buffer.length < eol + 2 + size + 2) return undefined;
      if (this.buffer[eol + 2 + size] !== 13 || this.buffer[eol + 3 + size] !== 10) throw new Refusal(400, 'Bad chunk');
      // Copied: the buffer it came from is reused for the next bytes.
      this.chunks.push(Buffer.from(this.buffer.subarray(eol + 2, eol + 2 + size)));
      this.chunkedSize += size;
      this.buffer = this.buffer.subarray(eol + 4 + size);
    }
  }

  private finish(body: Buffer): void {
    const head = this.head!;
    this.head = undefined;
    this.answered = true;
    this.startedAt = this.buffer.length > 0 ? Date.now() : 0;
    this.idleSince = Date.now();
    let res: Http1Response;
    try {
      res = this.handler({ method: head.method, target: head.target, headers: head.headers, body, remoteAddress: this.remoteAddress });
    } catch {
      res = { status: 500, body: 'Internal server error' };
    }
    const keepAlive = head.keepAlive && res.headers?.connection !== 'close';
    if (!this.socket.write(serialize(res, keepAlive)) && !this.socket.isPaused()) {
      // The sender is not reading its answers: stop reading its requests until it does.
      this.socket.pause();
      this.socket.once('drain', () => this.socket.resume());
    }
    if (!keepAlive) this.close(true);
  }

  private refuse(r: Refusal): void {
    // Stryker disable next-line ConditionalExpression: a closed connection is not writable and closes once
    if (this.closed) return;
    // Stryker disable next-line ConditionalExpression: a write to a socket already gone fails quietly (its error handler destroys it)
    if (this.socket.writable) this.socket.write(serialize({ status: r.status, body: r.text }, false));
    this.close(true);
  }

  close(graceful = false): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = Buffer.alloc(0);
    this.parts = [];
    this.chunks = [];
    this.account();
    if (!graceful) {
      this.socket.destroy();
      return;
    }
    this.socket.end();
    // A half-closed sender that never closes its side is not waited for.
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }
}

export interface Http1Server {
  server: Server;
  /** Drops every open connection (for stopping at once). */
  closeAllConnections(): void;
}

/** The connection whose slot a new one takes: one without a whole head, the longest waiting. */
function slowest(connections: Set<Connection>): Connection | undefined {
  let found: Connection | undefined;
  let rank: [number, number] = [1, Infinity];
  for (const c of connections) {
    const r = c.evictionRank();
    if (r[0] === 0 && r[1] < rank[1]) [found, rank] = [c, r];
  }
  return found;
}

export function createHttp1Server(options: Http1Options, handler: (req: Http1Request) => Http1Response): Http1Server {
  const opts: Required<Http1Options> = {
    maxHeaderBytes: 16 * 1024,
    keepAliveTimeoutMs: 5_000,
    maxConnections: 128,
    maxBufferedBytes: 64 * 1024 * 1024,
    ...options,
  };
  const connections = new Set<Connection>();
  const budget: Budget = { used: 0, max: opts.maxBufferedBytes };
  const server = createServer({ noDelay: true }, (socket) => {
    if (connections.size >= opts.maxConnections) {
      const victim = slowest(connections);
      if (!victim) {
        socket.destroy();
        return;
      }
      victim.timeout();
      connections.delete(victim);
    }
    const conn = new Connection(socket, opts, handler, budget);
    connections.add(conn);
    socket.on('data', (d: Buffer) => conn.data(d));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      conn.close();
      connections.delete(conn);
    });
  });
  // One timer for every connection's deadlines.
  const tick = Math.max(50, Math.min(1_000, opts.headersTimeoutMs / 4));
  const timer = setInterval(() => {
    const now = Date.now();
    for (const c of connections) if (c.expired(now)) c.timeout();
  }, tick);
  timer.unref();
  server.on('close', () => clearInterval(timer));
  return {
    server,
    closeAllConnections: () => {
      for (const c of connections) c.close();
    },
  };
}
