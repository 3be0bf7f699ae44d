// What the delivery inspector shows of job and call deliveries: a call's SIP headers as the caller
// sent them, its actions only when verified; the batch or job a verified delivery is about.
import assert from 'node:assert/strict';
import { callOf, deliveryView, subjectOf } from '../../src/webhooks/inspect/deliveryView';
import { isDeliveryView, parseInspectorViewMessage } from '../../src/webhooks/inspect/inspectorProtocol';
import type { DeliveryRecord } from '../../src/webhooks/store/records';

const record = (body: unknown, verdict: DeliveryRecord['verdict'] = 'verified'): DeliveryRecord => ({
  id: 'rec_1',
  receivedAt: 1,
  verdict,
  status: verdict === 'verified' ? 200 : 400,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: {},
  ...(verdict === 'verified' ? { endpointId: 'wh_1' } : {}),
});

const call = (headers: unknown) => ({ object: 'event', id: 'evt_1', type: 'realtime.call.incoming', created_at: 1, data: { call_id: 'rtc_1', sip_headers: headers } });

describe('delivery view: calls, batches and fine-tuning jobs', () => {
  it("a verified call: its SIP headers in the caller's order, as text, with its actions", () => {
    const headers = [
      { name: 'From', value: '"<img src=x onerror=alert(1)>" <sip:+15550100@pstn.example>;tag=1' },
      { name: 'To', value: '<sip:support@example.com>' },
      { name: 'Call-ID', value: 'abc@host' },
      { name: 'X-Count', value: 3 },
      { value: 'no name' },
    ];
    const v = deliveryView(record(call(headers)));
    assert.ok(isDeliveryView(v));
    assert.deepEqual(v.call, {
      callId: 'rtc_1',
      headers: [
        { name: 'From', value: '"<img src=x onerror=alert(1)>" <sip:+15550100@pstn.example>;tag=1' },
        { name: 'To', value: '<sip:support@example.com>' },
        { name: 'Call-ID', value: 'abc@host' },
        { name: 'X-Count', value: '3' },
      ],
      from: { parsed: true, name: '<img src=x onerror=alert(1)>', address: 'sip:+15550100@pstn.example', params: ';tag=1' },
      to: { parsed: true, address: 'sip:support@example.com', params: '' },
      actionable: true,
    });
    assert.equal(v.subject, undefined);
  });

  it("names the caller by the address in the brackets, not a <…> in its quoted name; a header that does not read is kept whole", () => {
    const c = callOf(record(call([{ name: 'from', value: '"<sip:ceo@corp.example>" <sip:attacker@evil.example>' }, { name: 'TO', value: 'not an address' }])))!;
    assert.deepEqual(c.from, { parsed: true, name: '<sip:ceo@corp.example>', address: 'sip:attacker@evil.example', params: '' });
    assert.deepEqual(c.to, { parsed: false, raw: 'not an address' });
    assert.ok(isDeliveryView(deliveryView(record(call([{ name: 'From', value: 'x' }])))));
    const forged = { ...deliveryView(record(call([]))), call: { callId: 'rtc_1', headers: [], actionable: false, from: { parsed: true, address: 7 } } };
    assert.equal(isDeliveryView(forged), false, 'the page takes no party it cannot show');
  });

  it('a call delivery that is not verified shows its headers but offers no action; a long list and long values are cut', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ name: `X-${i}`, value: 'v'.repeat(5000) }));
    for (const verdict of ['duplicate', 'rejected'] as const) {
      const c = callOf(record(call(many), verdict))!;
      assert.equal(c.actionable, false, verdict);
      assert.equal(c.headers.length, 100);
      assert.equal(c.headers[0]!.value.length, 2000);
    }
    assert.ok(isDeliveryView(deliveryView(record(call(many), 'rejected'))));
  });

  it('no call without a call id, and none for other events or a body that is not JSON', () => {
    assert.equal(callOf(record({ type: 'realtime.call.incoming', data: { sip_headers: [] } })), undefined);
    assert.equal(callOf(record({ type: 'batch.completed', data: { call_id: 'rtc_1' } })), undefined);
    assert.equal(callOf(record('{"type":"realtime.call.incoming"', 'malformed')), undefined);
    assert.deepEqual(callOf(record({ type: 'realtime.call.incoming', data: { call_id: 'rtc_2' } }))?.headers, []);
  });

  it('a verified batch or fine-tuning delivery names what it is about; an unverified one names nothing', () => {
    assert.deepEqual(subjectOf(record({ type: 'batch.completed', data: { id: 'batch_1' } })), { kind: 'batch', id: 'batch_1' });
    assert.deepEqual(subjectOf(record({ type: 'batch.expired', data: { id: 'batch_2' } })), { kind: 'batch', id: 'batch_2' });
    assert.deepEqual(subjectOf(record({ type: 'fine_tuning.job.succeeded', data: { id: 'ftjob-1' } })), { kind: 'fineTuningJob', id: 'ftjob-1' });
    assert.equal(subjectOf(record({ type: 'batch.completed', data: { id: 'batch_1' } }, 'rejected')), undefined);
    assert.equal(subjectOf(record({ type: 'response.completed', data: { id: 'resp_1' } })), undefined);
    assert.equal(subjectOf(record({ type: 'batch.completed', data: { id: 5 } })), undefined);
    assert.deepEqual(deliveryView(record({ type: 'fine_tuning.job.failed', data: { id: 'ftjob-2' } })).subject, { kind: 'fineTuningJob', id: 'ftjob-2' });
  });

  it('the page may ask for a call action or the subject, by delivery id only', () => {
    assert.deepEqual(parseInspectorViewMessage({ type: 'callAction', eventId: 'rec_1', action: 'hangup', callId: 'rtc_other' }), { type: 'callAction', eventId: 'rec_1', action: 'hangup' });
    assert.equal(parseInspectorViewMessage({ type: 'callAction', eventId: 'rec_1', action: 'record' }), undefined);
    assert.equal(parseInspectorViewMessage({ type: 'callAction', action: 'accept' }), undefined);
    assert.deepEqual(parseInspectorViewMessage({ type: 'openSubject', eventId: 'rec_1' }), { type: 'openSubject', eventId: 'rec_1' });
  });

  it('the page drops a view whose call or subject is not well formed', () => {
    const v = deliveryView(record(call([{ name: 'From', value: 'a' }])));
    assert.equal(isDeliveryView({ ...v, call: { ...v.call, headers: [{ name: 1, value: 'a' }] } }), false);
    assert.equal(isDeliveryView({ ...v, call: { ...v.call, actionable: 'yes' } }), false);
    assert.equal(isDeliveryView({ ...v, subject: { kind: 'file', id: 'x' } }), false);
  });
});
