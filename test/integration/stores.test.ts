import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryRecord, Verdict } from '../../src/webhooks/listener';
import { EventStore } from '../../src/webhooks/stores';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'stores-')), name);
const rec = (i: number, verdict: Verdict = 'verified'): DeliveryRecord => ({ id: `${verdict}_${i}`, receivedAt: i, verdict, status: verdict === 'rejected' ? 400 : 200, body: '{}', headers: {} });

describe('event store under load', () => {
  it('rejected deliveries have their own cap and never push out verified ones, in memory or after a restart', async () => {
    const path = tempFile('events.jsonl');
    const s = new EventStore(path, 10, 5);
    for (let i = 0; i < 10; i++) void s.put(rec(i));
    for (let i = 10; i < 5000; i++) void s.put(rec(i, 'rejected'));
    await s.flush();
    const check = (list: DeliveryRecord[]) => {
      assert.equal(list.filter((r) => r.verdict === 'verified').length, 10);
      assert.deepEqual(list.filter((r) => r.verdict === 'rejected').map((r) => r.id), ['rejected_4999', 'rejected_4998', 'rejected_4997', 'rejected_4996', 'rejected_4995']);
    };
    check(s.list());
    check(await new EventStore(path, 10, 5).load());
  });
});
