import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import { replayableBody } from '../../src/webhooks/send/replayable';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { eventually, startReceiver } from '../support/receiver';

describe('webhook listener forwarding a large delivery', () => {
  it('forwards the bytes that arrived (over the 256 KiB stored), and the capped stored copy cannot be replayed', async () => {
    const secret = generateSecret();
    const app = await startReceiver();
    const records: DeliveryRecord[] = [];
    // A body cap above the stored copy's 256 KiB (the default cap is 256 KiB too).
    const l = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], maxBodyBytes: 1024 * 1024, forwardTo: () => app.url, onDelivery: (r) => records.push(r) });
    await l.start();
    try {
      const body = JSON.stringify({ object: 'event', id: 'evt_big', type: 'response.completed', created_at: 1, data: { id: 'resp_big', padding: 'p'.repeat(300 * 1024) } });
      const res = await fetch(`${l.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_big', body) }, body });
      assert.equal(res.status, 200);
      const [got] = await app.next(1);
      assert.equal(got.body.length, body.length);
      new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
      const r = await eventually(() => records[0]);
      assert.equal(r.verdict, 'verified');
      assert.deepEqual([r.body.length, r.bodyBytes, r.bodyTruncated], [256 * 1024, body.length, true]);
      assert.throws(() => replayableBody(r), /cannot be replayed/);
      assert.equal(replayableBody({ ...r, body: '{}', bodyTruncated: undefined }), '{}');
    } finally {
      await l.stop();
      await app.close();
    }
  });
});
