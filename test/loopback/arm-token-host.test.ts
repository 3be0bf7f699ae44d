import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArmClient } from '../../src/service/arm';

/** A loopback server answering every request with `body(url)`, remembering each request's headers. */
async function server(body: (self: string) => unknown): Promise<{ url: string; seen: IncomingHttpHeaders[]; s: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const s = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body(url)));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, seen, s };
}

describe('Resource Manager tokens stay on the Resource Manager host', () => {
  it('a nextLink to another host is refused before anything is sent there', async () => {
    const elsewhere = await server(() => ({ value: [] }));
    const arm = await server(() => ({ value: [{ id: '/subscriptions/a', displayName: 'A' }], nextLink: `${elsewhere.url}/subscriptions?page=2` }));
    const client = new ArmClient({ endpoint: arm.url, auth: { kind: 'bearer', plane: 'management', getToken: async () => 'management-token' }, retry: { maxRetries: 0 } });
    try {
      await assert.rejects(client.listSubscriptions(), /nextLink points to another host/);
      assert.equal(arm.seen[0].authorization, 'Bearer management-token');
      assert.deepEqual(elsewhere.seen, []);
    } finally {
      await client.close();
      arm.s.close();
      elsewhere.s.close();
    }
  });
});
