/** A loopback server scripted per test: it records each request's JSON body and answers with `reply`. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function recordingServer(
  reply: (body: Record<string, unknown>, res: ServerResponse, n: number) => void,
): Promise<{ url: string; bodies: Record<string, unknown>[]; server: Server }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      reply(body, res, bodies.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

/** The service's 400 for a parameter the model does not take. */
export function refuseParameter(res: ServerResponse, param: string): void {
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `Unsupported parameter: '${param}'`, type: 'invalid_request_error', param, code: 'unsupported_parameter' } }));
}
