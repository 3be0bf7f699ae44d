/**
 * dist/undici.js is what src/ gets for 'undici' in the packaged extension (src/bundles/undici.ts):
 * a value imported from 'undici' somewhere in src/ but missing there would be `undefined` in the
 * packaged extension only, since tests and the emulator CLI in Node load the whole library.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as bundle from '../../src/bundles/undici';

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
  it('exports every undici value that src/ imports', () => {
    const used = undiciValuesImported('src');
    assert.ok(used.has('Agent') && used.has('ProxyAgent'), 'the scan finds the imports');
    for (const [name, file] of used) {
      const exported = typeof (bundle as Record<string, unknown>)[name];
      assert.ok(exported === 'function' || exported === 'object', `${file} imports ${name} from undici, which dist/undici.js does not export`);
    }
    // The codes the HTTP layer decides retries by.
    assert.equal(new bundle.errors.HeadersTimeoutError().code, 'UND_ERR_HEADERS_TIMEOUT');
  });
});
