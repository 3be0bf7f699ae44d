import assert from 'node:assert/strict';
import { IdWindow } from '../../src/webhooks/store/records';

describe('dedupe window', () => {
  it('remembers the last ids in arrival order and says whether an id was new', () => {
    const w = new IdWindow(3);
    assert.deepEqual(['a', 'b', 'a', 'c', 'd'].map((id) => w.add(id)), [true, true, false, true, true]);
    assert.deepEqual(w.ids(), ['b', 'c', 'd']);
    assert.deepEqual([w.has('a'), w.has('b'), w.has('d')], [false, true, true]);
    assert.deepEqual(new IdWindow(5).ids(), [], 'empty slots are not ids');
  });
});
