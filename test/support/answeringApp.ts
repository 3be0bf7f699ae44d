/** A loopback "user's app" that answers each request with a scripted status, headers and body. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface AnsweringApp {
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** Answers the i-th request with `answers[i]` (the last one again once they run out). */
export async function startAnsweringApp(answers: Answer[] | ((body: string, headers: IncomingHttpHeaders) => Answer)): Promise<AnsweringApp> {
  const received: AnsweringApp['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body });
      const a = typeof answers === 'function' ? answers(body, req.headers) : (answers[received.length - 1] ?? answers.at(-1)!);
      // Sized, as most frameworks send a buffered answer (`chunked` only when asked for).
      const sized = a.body !== undefined && !a.headers?.['transfer-encoding'] ? { 'content-length': String(Buffer.byteLength(a.body)) } : {};
      res.writeHead(a.status, { ...sized, ...a.headers }).end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
