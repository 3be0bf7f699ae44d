/** A loopback HTTP server that records what it receives and answers with scripted statuses. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startReceiver(
  statuses: number[] = [],
  options: { delayMs?: number } = {},
): Promise<{ url: string; received: Received[]; next(count?: number, ms?: number): Promise<Received[]>; close(): Promise<void> }> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.shift() ?? 200;
      setTimeout(() => res.writeHead(status).end(), options.delayMs ?? 0);
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    /** Waits (bounded) until at least `count` requests have arrived. */
    async next(count = 1, ms = WAIT_MS) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${count} deliveries to reach the receiver: ${received.length} arrived`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return received;
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/**
 * A wait for a state: generous, since the state is what ends it and a loaded machine (CI's two
 * cores with other work) can be many times slower than a quiet one.
 */
export const WAIT_MS = 30_000;

/** What a wait was for, in its failure: `what`, else the check's own source. */
function waitedFor(check: () => unknown, what?: string): string {
  return what ?? check.toString().replace(/\s+/g, ' ').slice(0, 300);
}

/** Polls `check` (bounded) until it returns a value; the failure says what it waited for. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = WAIT_MS, what?: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${waitedFor(check, what)}: not met`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
