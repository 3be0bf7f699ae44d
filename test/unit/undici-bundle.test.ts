/**
 * dist/undici.js ships only the parts of undici the product uses (src/bundles/undici.ts): a value
 * imported from 'undici' somewhere in src/ but missing there would be `undefined` in the packaged
 * extension only, since tests and the emulator CLI in Node load the whole library.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as bundle from '../../src/bundles/undici';
import { NodeDispatcher } from '../../src/service/nodeDispatcher';

/** The values (not types) each file of src/ imports from 'undici'. */
function undiciValuesImported(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) undiciValuesImported(path, out);
    else if (entry.name.endsWith('.ts') && path !== join('src', 'bundles', 'undici.ts')) {
      for (const m of readFileSync(path, 'utf8').matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'undici'/g)) {
        if (m[1]) continue;
        for (const name of m[2]!.split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type '))) out.set(name.split(/\s+as\s+/)[0]!, path);
      }
    }
  }
  return out;
}

describe('undici as the package ships it', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => res.end(`${req.method} ${req.url} ${body}`));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('exports every undici value that src/ imports', () => {
    const used = undiciValuesImported('src');
    assert.ok(used.has('request') && used.has('errors'), 'the scan finds the imports');
    for (const [name, file] of used) {
      const exported = typeof (bundle as Record<string, unknown>)[name];
      assert.ok(exported === 'function' || exported === 'object', `${file} imports ${name} from undici, which dist/undici.js does not export`);
    }
    // The codes the HTTP layer decides retries by.
    assert.equal(new bundle.errors.HeadersTimeoutError().code, 'UND_ERR_HEADERS_TIMEOUT');
  });

  it('sends what undici sends: method, path with query, body, through the dispatcher given; none given is refused', async () => {
    const dispatcher = new NodeDispatcher({ connectTimeoutMs: 5_000 });
    try {
      const get = await bundle.request(`${origin}/a/b?x=1&y=2`, { dispatcher });
      assert.equal(get.statusCode, 200);
      assert.equal(await get.body.text(), 'GET /a/b?x=1&y=2 ');
      const post = await bundle.request(new URL(`${origin}/hook`), { method: 'POST', body: 'signed', dispatcher });
      assert.equal(await post.body.text(), 'POST /hook signed');
    } finally {
      await dispatcher.close();
    }
    // No global dispatcher: it would be undici's own Agent and its WebAssembly parser.
    assert.throws(() => bundle.request(`${origin}/`), (e: { code?: string }) => e.code === 'UND_ERR_INVALID_ARG');
  });
});
