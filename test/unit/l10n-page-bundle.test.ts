/**
 * The strings bundle on its way to a page: written into the HTML as a JSON data block by the
 * extension, read back and checked by the page (src/webview/shared/l10nBundle.ts).
 */
import assert from 'node:assert/strict';
import { bundleBlock, parseBundle } from '../../src/webview/shared/l10nBundle';

/** The block's JSON, as the page's `textContent` reads it. */
const jsonOf = (block: string) => /^<script type="application\/json" id="l10n-bundle">(.*)<\/script>$/s.exec(block)?.[1];

describe('the strings bundle in a page', () => {
  it('writes nothing in English (no bundle, or an empty one)', () => {
    assert.equal(bundleBlock(undefined), '');
    assert.equal(bundleBlock({}), '');
  });

  it('comes back whole, whatever a translation holds, and nothing in it can end the block', () => {
    const bundle = { Send: 'Senden', 'Remove {0}': '</script><script>alert(1)</script> {0}', 'a<!--b': 'x\u2028y "quoted" \\ done' };
    const block = bundleBlock(bundle);
    const json = jsonOf(block);
    assert.ok(json, block);
    assert.equal(json.includes('<'), false, 'no < inside the block');
    assert.deepEqual(parseBundle(json), bundle);
  });

  it('takes a translation with its comment as its message', () => {
    assert.deepEqual(parseBundle(JSON.stringify({ 'Raw/Show the body': { message: 'Roh', comment: ['Show the body'] } })), { 'Raw/Show the body': 'Roh' });
  });

  it('drops a block that is not a bundle at all: English then, never half of one', () => {
    for (const text of [undefined, null, '', 'not json', '[]', '"Send"', 'null', '{"Send": 1}', '{"Send": "Senden", "Stop": {"comment": []}}']) {
      assert.equal(parseBundle(text), undefined, String(text));
    }
  });
});
