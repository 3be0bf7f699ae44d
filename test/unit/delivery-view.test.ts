// The delivery inspector's view of a record, whole: every field the page shows, and no field the
// record does not have (the page shows an absent field as missing, not as "undefined").
import assert from 'node:assert/strict';
import { deliveryView, responseIdOf } from '../../src/webhooks/inspect/deliveryView';
import { isDeliveryView } from '../../src/webhooks/inspect/inspectorProtocol';
import type { DeliveryRecord } from '../../src/webhooks/store/records';

const body = JSON.stringify({ type: 'response.completed', data: { id: 'resp_1' } });

describe('delivery view: the inspector page, whole', () => {
  it('a rejected delivery: its reason, the path "/" when none was kept, the body note with the size that arrived', () => {
    const record: DeliveryRecord = {
      id: 'rec_r',
      receivedAt: 5,
      verdict: 'rejected',
      reason: 'No signature matches.',
      status: 400,
      body: '{"a":1',
      bodyBytes: 70_000,
      headers: { 'webhook-id': 'msg_1' },
      trace: { toleranceSeconds: 300, missingHeaders: [], received: ['v1,abcdefgh…'], tried: [], bodyBytes: 70_000, bodySha256: '00ff' },
    };
    const v = deliveryView(record, { appUrl: 'http://127.0.0.1:3000/hook' });
    assert.ok(isDeliveryView(v));
    const { diagnoses, ...rest } = v;
    assert.deepEqual(rest, {
      id: 'rec_r',
      title: 'Rejected delivery',
      verdict: 'rejected',
      reason: 'No signature matches.',
      status: 400,
      receivedAt: 5,
      method: 'POST',
      path: '/',
      headers: [{ name: 'webhook-id', value: 'msg_1' }],
      body: '{"a":1',
      bodyNote: 'Unverified: only the first 6 bytes of 70,000 bytes are kept (anyone can send to a public URL).',
      replayable: false,
      notReplayable: 'An unverified delivery is never re-signed (that would forge a valid one), and only its first bytes are kept.',
      appUrl: 'http://127.0.0.1:3000/hook',
      trace: { toleranceSeconds: 300, missingHeaders: [], received: ['v1,abcdefgh…'], tried: [], bodyBytes: 70_000, bodySha256: '00ff' },
      answers: [],
    });
    assert.deepEqual(diagnoses.map((d) => d.cause), ['no-secret']);
    const small = deliveryView({ ...record, bodyBytes: undefined });
    assert.equal(small.bodyNote, 'Unverified: only the first 6 bytes are kept (anyone can send to a public URL).');
  });

  it('answers: the time, the new webhook-id of a replay, the error in words; nothing invented for what a failed send lacks', () => {
    const record: DeliveryRecord = {
      id: 'rec_v',
      receivedAt: 1,
      verdict: 'verified',
      status: 200,
      body,
      headers: {},
      path: '/webhook',
      endpointId: 'we_2',
      eventType: 'response.completed',
      forward: { url: 'http://127.0.0.1:1/', error: 'ECONNREFUSED', durationMs: 4 },
      replays: [{ url: 'http://127.0.0.1:3000/', at: 99, kind: 'replay', webhookId: 'msg_new', status: 202, headers: { 'x-app': 'y' }, body: 'queued', durationMs: 7 }],
    };
    const v = deliveryView(record);
    assert.equal(v.appUrl, undefined);
    assert.ok(!('appUrl' in v) && !('reason' in v) && !('trace' in v) && !('bodyNote' in v));
    assert.equal(v.responseId, 'resp_1');
    assert.deepEqual(v.answers, [
      { kind: 'forward', edited: false, url: 'http://127.0.0.1:1/', error: v.answers[0].error, ok: false, durationMs: 4, headers: [], body: '' },
      { kind: 'replay', edited: false, url: 'http://127.0.0.1:3000/', at: 99, webhookId: 'msg_new', status: 202, ok: true, durationMs: 7, headers: [{ name: 'x-app', value: 'y' }], body: 'queued' },
    ]);
    assert.match(v.answers[0].error!, /nothing is listening there/);
  });

  it("the trace: each secret tried named by that endpoint's name, not the first one listed; no skew when the timestamp was unreadable", () => {
    const record: DeliveryRecord = {
      id: 'rec_t',
      receivedAt: 1,
      verdict: 'rejected',
      status: 400,
      body: '',
      headers: {},
      trace: {
        toleranceSeconds: 300,
        missingHeaders: [],
        received: [],
        tried: [{ endpointId: 'we_2', hint: 'whsec_...2222', expected: 'v1,aaaaaaaa…', matched: false }],
        bodyBytes: 0,
        bodySha256: 'e3b0',
      },
    };
    const v = deliveryView(record, { doctor: { endpoints: [{ id: 'we_1', name: 'First' }, { id: 'we_2', name: 'Second' }] } });
    assert.deepEqual(v.trace, {
      toleranceSeconds: 300,
      missingHeaders: [],
      received: [],
      tried: [{ endpoint: 'Second (we_2)', hint: 'whsec_...2222', expected: 'v1,aaaaaaaa…', matched: false }],
      bodyBytes: 0,
      bodySha256: 'e3b0',
    });
  });

  it('a response id only from a body that is JSON with a string data.id', () => {
    const r = (b: string): DeliveryRecord => ({ id: 'x', receivedAt: 1, verdict: 'verified', status: 200, body: b, headers: {}, eventType: 'response.failed' });
    assert.deepEqual(['null', '{"data":null}', '[]', '{', body].map((b) => responseIdOf(r(b))), [undefined, undefined, undefined, undefined, 'resp_1']);
  });
});
