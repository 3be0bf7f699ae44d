/**
 * The listener's HTTP server: node:http (llhttp parses and frames every request) with the bounds
 * an internet-facing port needs. Node enforces the head's size and deadline, the whole request's
 * deadline and the keep-alive timeout; this file adds what Node does not:
 *
 * - the body is counted as it streams, whatever its chunking, and refused (413) past
 *   `maxBodyBytes`; it is copied into one growing buffer, so a body of 1-byte chunks costs its
 *   bytes, not an object per chunk;
 * - the body bytes held across all connections are capped (503 past `maxBufferedBytes`);
 * - a full server (`maxConnections`) gives the slot of the connection that has waited longest
 *   without a whole request (head sent or not, idle or not) to the new one, so senders that hold
 *   connections open cannot keep the service's deliveries away;
 * - refusals name what was wrong in the answer's body, and close the connection.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  target: string;
  /** Lower-case names; a repeated header keeps its first value. */
  headers: Record<string, string>;
  body: Buffer;
  /** The peer of the connection it came on. */
  remoteAddress?: string;
}

export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface ServerLimits {
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxHeaderBytes?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
  maxBufferedBytes?: number;
}

export interface WebhookServer {
  server: Server;
  /** Drops every open connection (for stopping at once). */
  closeAllConnections(): void;
}

/** What the server knows of one connection, for choosing whose slot a new one takes. */
interface Slot {
  /** Since when it has been waiting for a whole request (its start, or its last answer). */
  since: number;
  /** A whole request arrived and is being answered. */
  whole: boolean;
  /** Refuses the request being read (not answered yet), giving back what it holds. */
  stop?: (status: number, text: string) => void;
  /** Its answer has begun: nothing more can be said on this connection. */
  answering?: boolean;
}

/** Why llhttp (or Node) gave up on a connection, as an answer. */
function refusalFor(code: string | undefined, reason: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request header fields too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request timeout'];
  // llhttp gives this code to a bare LF after the version too: that one is bad framing (400).
  if (code === 'HPE_INVALID_VERSION' && reason === 'Invalid HTTP version') return [505, 'HTTP version not supported'];
  return [400, reason ? `Bad request: ${reason}` : 'Bad request'];
}

/** The answer written straight to the socket, when Node has no response object to write it with. */
function rawAnswer(status: number, text: string): string {
  const body = Buffer.from(text, 'utf8');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Status'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${text}`;
}

/** Ends a connection after its answer; a sender that never closes its side is not waited for. */
function endSoon(socket: Socket): void {
  socket.end();
  setTimeout(() => socket.destroy(), 1_000).unref();
}

function headersOf(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    // Own properties only: a header named `constructor` is a header like any other.
    if (!Object.hasOwn(headers, name)) headers[name] = raw[i + 1];
  }
  return headers;
}

export function createWebhookServer(limits: ServerLimits, handler: (req: ReceivedRequest) => Answer): WebhookServer {
  const maxConnections = limits.maxConnections ?? 128;
  const budget = { used: 0, max: limits.maxBufferedBytes ?? 64 * 1024 * 1024 };
  const slots = new Map<Socket, Slot>();
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes ?? 16 * 1024,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
      // Node checks both deadlines on this interval (30 s by default): often enough that they hold.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 4)),
      noDelay: true,
      // The service and tunnels send Host; a sender without one is read as before.
      requireHostHeader: false,
    },
    (req, res) => receive(req, res),
  );

  server.on('connection', (socket: Socket) => {
    if (slots.size >= maxConnections && !evictOne()) {
      socket.destroy();
      return;
    }
    slots.set(socket, { since: Date.now(), whole: false });
    socket.on('close', () => slots.delete(socket));
  });

  /** Gives up the connection that has waited longest without a whole request; false when all have one. */
  function evictOne(): boolean {
    let victim: [Socket, Slot] | undefined;
    for (const entry of slots) if (!entry[1].whole && (!victim || entry[1].since < victim[1].since)) victim = entry;
    if (!victim) return false;
    const [socket, slot] = victim;
    slots.delete(socket);
    if (slot.stop) slot.stop(408, 'Request timeout');
    else socket.destroy();
    return true;
  }

  // Node's own 417 keeps the connection, whose unread body would be read as the next request.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => refuse(res, 417, 'Expectation failed'));

  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: string; bytesParsed?: number }, socket: Socket) => {
    const slot = slots.get(socket);
    // Nothing to answer: the sender went, or never said anything (a silent connection past the head's deadline).
    if (!socket.writable || err.code === 'ECONNRESET' || socket.bytesRead === 0 || slot?.answering) {
      socket.destroy();
      return;
    }
    const [status, text] = refusalFor(err.code, err.reason);
    socket.write(rawAnswer(status, text));
    endSoon(socket);
  });

  function refuse(res: ServerResponse, status: number, text: string): void {
    if (res.headersSent) {
      res.socket?.destroy();
      return;
    }
    const socket = res.socket;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' }).end(text);
    if (socket) endSoon(socket);
  }

  function receive(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const slot = slots.get(socket);
    const headers = headersOf(req.rawHeaders);
    let body: Buffer | undefined;
    let length = 0;
    let held = 0;
    const release = () => {
      budget.used -= held;
      held = 0;
    };
    let stopped = false;
    const stop = (status: number, text: string) => {
      if (stopped) return;
      stopped = true;
      release();
      body = undefined;
      req.removeAllListeners('data');
      req.removeAllListeners('end');
      // What the sender still sends is read and dropped until the connection ends.
      req.resume();
      refuse(res, status, text);
    };
    if (slot) slot.stop = stop;
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > limits.maxBodyBytes) {
      stop(413, 'Payload too large');
      return;
    }
    // A declared length is the buffer's size from the first byte (small ones come from Node's pool).
    const expected = declared === undefined ? 0 : Number(declared);
    req.on('data', (chunk: Buffer) => {
      if (length + chunk.length > limits.maxBodyBytes) return stop(413, 'Payload too large');
      if (!body || length + chunk.length > body.length) {
        // Else grown by doubling, at most to the limit: a body costs its bytes, however it is chunked.
        const grow = Math.max(1024, (body?.length ?? 0) * 2, length + chunk.length);
        const size = Math.min(limits.maxBodyBytes, Math.max(expected, grow));
        if (budget.used + size - held > budget.max) return stop(503, 'Too much data in flight; try again later');
        const grown = Buffer.allocUnsafe(size);
        body?.copy(grown, 0, 0, length);
        body = grown;
        budget.used += size - held;
        held = size;
      }
      chunk.copy(body, length);
      length += chunk.length;
    });
    req.on('end', () => {
      if (slot) [slot.whole, slot.stop, slot.answering] = [true, undefined, true];
      // Copied out unless it fills its buffer: a record keeps the body's bytes, not the buffer's spare room.
      const received = !body ? Buffer.alloc(0) : length === body.length ? body : Buffer.from(body.subarray(0, length));
      body = undefined;
      release();
      let answer: Answer;
      try {
        answer = handler({ method: req.method ?? '', target: req.url ?? '', headers, body: received, remoteAddress: socket.remoteAddress });
      } catch {
        answer = { status: 500, body: 'Internal server error' };
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(answer.body), ...answer.headers });
      res.end(answer.body);
    });
    res.on('close', () => {
      release();
      if (slot && (slot.stop === stop || slot.answering)) {
        [slot.whole, slot.stop, slot.answering] = [false, undefined, false];
        slot.since = Date.now();
      }
    });
  }

  return {
    server,
    closeAllConnections: () => {
      server.closeAllConnections();
      for (const socket of slots.keys()) socket.destroy();
    },
  };
}
