import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { replayToApp, signedCurl } from '../../src/webhooks/send/resend';
import { generateSecret } from '../../src/webhooks/signature';
import { startAnsweringApp } from '../support/answeringApp';

const secret = generateSecret();
const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });
const record: DeliveryRecord = { id: 'r1', receivedAt: 1, verdict: 'verified', status: 200, body, headers: {}, webhookId: 'msg_orig', endpointId: 'we_1' };
const known = [{ endpointId: 'we_1', secret }];

describe('replaying a delivery to the app', () => {
  it('re-signs the stored body, or an edited one, with a new webhook-id; the app verifies both with standardwebhooks and its answer is kept', async () => {
    // An app that verifies as the official library does and says what it got.
    const app = await startAnsweringApp((got, headers) => {
      try {
        const evt = new Webhook(secret).verify(got, headers as Record<string, string>) as { data: { id: string } };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ took: evt.data.id }) };
      } catch {
        return { status: 401, body: 'bad signature' };
      }
    });
    try {
      const same = await replayToApp(record, known, app.url);
      assert.deepEqual([same.kind, same.status, same.body, same.edited], ['replay', 200, '{"took":"resp_1"}', undefined]);
      assert.notEqual(same.webhookId, 'msg_orig');
      assert.equal(app.received[0].headers['webhook-id'], same.webhookId);
      const edited = body.replace('resp_1', 'resp_edited');
      const changed = await replayToApp(record, known, app.url, edited);
      assert.deepEqual([changed.status, changed.body, changed.edited], [200, '{"took":"resp_edited"}', true]);
      assert.equal(app.received[1].body, edited);
    } finally {
      await app.close();
    }
  });

  it('never re-signs a rejected delivery; copy as curl carries the signature, never the secret', async () => {
    await assert.rejects(replayToApp({ ...record, verdict: 'rejected', endpointId: undefined }, known, 'http://127.0.0.1:1/'), /cannot be re-signed/);
    const curl = signedCurl(record, known, 'http://127.0.0.1:3000/webhook', '{"edited":true}');
    assert.match(curl, /-H 'webhook-signature: v1,/);
    assert.match(curl, /--data-raw '\{"edited":true\}'/);
    assert.ok(!curl.includes(secret) && !curl.includes(secret.slice(6)));
  });
});
