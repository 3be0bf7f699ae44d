/** A loopback HTTP server that answers each request with the next scripted step (then 200 OK), recording what it was sent. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refuseParameter } from './bodyRecorder';

export type Step = (req: IncomingMessage, res: ServerResponse) => void;

export const completion = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
export const ok: Step = (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
export const status = (code: number, headers: Record<string, string> = {}): Step => (_q, res) =>
  res.writeHead(code, { 'content-type': 'application/json', ...headers }).end('{"error":{"code":"x","message":"scripted"}}');
export const reset: Step = (req) => req.socket.destroy();
/** A streamed chat completion saying `text`, with usage. */
export const streamed = (text = 'ok'): Step => (_q, res) => {
  const chunk = (delta: object, finish: string | null, usage: object | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [], usage })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(chunk({ content: text }, null) + chunk({}, 'stop', { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }) + 'data: [DONE]\n\n');
};
/** The service's 400 for a parameter the model does not take. */
export const refusesParam = (param: string): Step => (_q, res) => refuseParameter(res, param);

export async function scripted(steps: Step[]) {
  let hits = 0;
  const times: number[] = [];
  const requests: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    times.push(Date.now());
    const seen = { method: req.method, url: req.url, headers: req.headers, body: '' };
    requests.push(seen);
    req.setEncoding('utf8');
    req.on('data', (d: string) => (seen.body += d));
    req.on('end', () => (steps[hits++] ?? ok)(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Milliseconds between consecutive requests. */
  const gaps = () => times.slice(1).map((t, i) => t - times[i]!);
  const close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return { url, hits: () => hits, requests, gaps, close };
}
