import assert from 'node:assert/strict';
import { diagnose } from '../../src/webhooks/inspect/doctor';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import { REJECTED_BODY_PREFIX } from '../../src/webhooks/receive/rejections';
import { generateSecret, secretHint, signedHeaders } from '../../src/webhooks/signature';
import { eventually } from '../support/receiver';

describe('the listener traces each verdict', () => {
  it('a re-serialized rejected delivery: the trace says which form was signed, keeping no more of the body than before', async () => {
    const secret = generateSecret();
    const records: DeliveryRecord[] = [];
    const l = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret, label: 'Local' }], onDelivery: (r) => records.push(r) });
    await l.start();
    try {
      const signed = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', created_at: 1, data: { id: 'resp_1', text: 'x'.repeat(2000) } });
      const pretty = JSON.stringify(JSON.parse(signed), null, 2);
      const res = await fetch(`${l.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_1', signed) }, body: pretty });
      assert.equal(res.status, 400);
      const ok = await fetch(`${l.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_2', signed) }, body: signed });
      assert.equal(ok.status, 200);
      const [rejected, verified] = await eventually(() => (records.length === 2 ? records : undefined));
      assert.equal(rejected.verdict, 'rejected');
      assert.equal(rejected.trace?.reserialized?.form, 'compact JSON');
      assert.ok(Buffer.byteLength(rejected.body) <= REJECTED_BODY_PREFIX, 'still metadata only');
      assert.ok(JSON.stringify(rejected).length < 3000, 'the record stays small');
      assert.equal(diagnose(rejected)[0].cause, 'reserialized');
      assert.deepEqual(verified.trace?.tried.map((t) => [t.label, t.hint, t.matched]), [['Local', secretHint(secret), true]]);
      assert.equal(verified.trace?.reserialized, undefined);
      assert.ok(!JSON.stringify(records).includes(secret));
    } finally {
      await l.stop();
    }
  });
});
