/**
 * A real HTTP proxy on loopback (the `proxy` package: CONNECT tunnels and plain forwarding), which
 * records every target it was asked for. With `credentials` it demands Basic proxy authentication
 * and answers 407 to anything else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';

export interface TestProxy {
  /** http://127.0.0.1:port, without credentials. */
  url: string;
  /** `host:port` of every CONNECT, and the absolute URL of every forwarded request, in order. */
  targets: string[];
  /** Ends the tunnels open now: the next request needs a CONNECT of its own, so the proxy sees it. */
  dropTunnels(): void;
  close(): Promise<void>;
}

export async function startProxy(options: { credentials?: string } = {}): Promise<TestProxy> {
  const server = createProxy(createServer());
  const targets: string[] = [];
  const tunnels = new Set<import('node:net').Socket>();
  server.prependListener('connect', (req, socket: import('node:net').Socket) => {
    targets.push(req.url ?? '');
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
  });
  server.prependListener('request', (req) => targets.push(req.url ?? ''));
  if (options.credentials) {
    const expected = `Basic ${Buffer.from(options.credentials).toString('base64')}`;
    server.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    dropTunnels: () => {
      for (const s of tunnels) s.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
