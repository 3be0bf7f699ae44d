import assert from 'node:assert/strict';
import { IdWindow } from '../../src/webhooks/store/records';
import { seededRandom } from '../support/random';

describe('dedupe window', () => {
  it('remembers the last ids in arrival order and says whether an id was new', () => {
    const w = new IdWindow(3);
    assert.deepEqual(['a', 'b', 'a', 'c', 'd'].map((id) => w.add(id)), [true, true, false, true, true]);
    assert.deepEqual(w.ids(), ['b', 'c', 'd']);
    assert.deepEqual([w.has('a'), w.has('b'), w.has('d')], [false, true, true]);
    assert.deepEqual(new IdWindow(5).ids(), [], 'empty slots are not ids');
  });
});

describe('dedupe window kept as bytes', () => {
  it('says exactly what a window of strings would, over 60,000 random adds and lookups that evict and probe past each other', () => {
    const rnd = seededRandom(35);
    // Ids that UTF-8 would not tell apart (lone surrogates), non-ASCII, empty, and longer than its scratch and a slab's quarter.
    const odd = ['', '\uD800', '\uDBFF', 'é', 'e\u0301', 'msg_\u{1F600}', 'x'.repeat(300), 'y'.repeat(20_000), 'y'.repeat(19_999) + 'z'];
    const idOf = () => (rnd() < 0.05 ? odd[Math.floor(rnd() * odd.length)]! : `msg_${Math.floor(rnd() * 3000)}`);
    const cap = 1000;
    const w = new IdWindow(cap);
    const ring: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const id = idOf();
      if (rnd() < 0.5) {
        assert.equal(w.has(id), ring.includes(id), `has(${JSON.stringify(id.slice(0, 20))}) at step ${i}`);
        continue;
      }
      const isNew = !ring.includes(id);
      assert.equal(w.add(id), isNew, `add(${JSON.stringify(id.slice(0, 20))}) at step ${i}`);
      if (isNew) ring.push(id);
      if (ring.length > cap) ring.shift();
    }
    assert.deepEqual(w.ids(), ring, 'the same ids, oldest first');
  });
});
