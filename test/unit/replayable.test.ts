import assert from 'node:assert/strict';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { replayableBody } from '../../src/webhooks/send/replayable';

const record = (over: Partial<DeliveryRecord>): DeliveryRecord => ({ id: 'msg_1', receivedAt: 1, verdict: 'verified', status: 200, body: '{"a":1}', headers: {}, ...over });

describe('replaying a stored body', () => {
  it('gives back a body stored whole, byte for byte', () => {
    assert.equal(replayableBody(record({ body: '{"a": 1,\n "b":"é"}' })), '{"a": 1,\n "b":"é"}');
  });

  it('refuses a cut body, saying how large it was and how much was kept', () => {
    const cut = record({ body: 'x'.repeat(65_536), bodyTruncated: true, bodyBytes: 70_000 });
    assert.throws(() => replayableBody(cut), {
      message: "This event's body was 70,000 bytes and only the first 65,536 were stored: it cannot be replayed or copied as curl (it was forwarded whole when it arrived).",
    });
    // Stored by an older version that did not record the size.
    assert.throws(() => replayableBody(record({ body: 'é', bodyTruncated: true })), /body was too many bytes and only the first 2 were stored/);
  });
});
