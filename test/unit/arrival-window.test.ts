import assert from 'node:assert/strict';
import { ArrivalWindow } from '../../src/webhooks/receive/arrivalWindow';

describe('arrival window', () => {
  it('orders by arrival time whatever order the records are put in, keeping equal times in the order given', () => {
    const w = new ArrivalWindow<string>(10);
    for (const [id, at] of [['c', 5], ['a', 3], ['b', 4], ['d', 5], ['e', 1]] as const) w.put(id, at, id);
    assert.deepEqual(w.values(), ['e', 'a', 'b', 'c', 'd']);
  });

  it('drops the oldest past the cap, which is the new record itself when it is the oldest', () => {
    const w = new ArrivalWindow<string>(2);
    w.put('b', 2, 'b');
    w.put('c', 3, 'c');
    w.put('a', 1, 'a');
    assert.deepEqual(w.values(), ['b', 'c']);
    assert.equal(w.has('a'), false);
    w.put('b', 2, 'b2');
    assert.deepEqual([w.values(), w.size, w.get('b')], [['b2', 'c'], 2, 'b2']);
  });
});
