/**
 * A loopback server laid out like a release download site, for the cloudflared download:
 * `/releases/<asset>` redirects to `/assets/<asset>` (as GitHub's "latest" links do), which sends
 * the file. Other prefixes misbehave on purpose: `/html/` sends a web page, `/stall/` sends part
 * of the file and then nothing, `/missing/` answers 404.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startReleaseServer(file: Buffer): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const stalled = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const [, prefix] = path.split('/');
    if (prefix === 'releases') return res.writeHead(302, { location: path.replace('/releases/', '/assets/') }).end();
    if (prefix === 'assets') return res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length }).end(file);
    if (prefix === 'html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title><p>Your proxy wants you to sign in.</p>');
    if (prefix === 'stall') {
      res.writeHead(200, { 'content-length': file.length * 10 });
      res.write(file);
      stalled.add(res);
      return;
    }
    res.writeHead(404).end('Not Found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const res of stalled) res.destroy();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
