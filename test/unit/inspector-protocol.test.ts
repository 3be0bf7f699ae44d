import assert from 'node:assert/strict';
import { deliveryView, responseIdOf } from '../../src/webhooks/inspect/deliveryView';
import { isDeliveryView, MAX_EDITED_BODY, parseInspectorHostMessage, parseInspectorViewMessage } from '../../src/webhooks/inspect/inspectorProtocol';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { traceVerification } from '../../src/webhooks/inspect/trace';

const secret = generateSecret();
const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', created_at: 1, data: { id: 'resp_9' } });
const headers = { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_1', body) };
const verified: DeliveryRecord = {
  id: 'rec_1', receivedAt: Date.now(), verdict: 'verified', status: 200, body, headers, path: '/webhook', endpointId: 'we_1', eventType: 'response.completed',
  trace: traceVerification({ headers, body: Buffer.from(body), known: [{ endpointId: 'we_1', secret, label: 'Local' }], toleranceSeconds: 300, now: Date.now() }),
  forward: { url: 'http://127.0.0.1:3000/webhook', status: 500, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(10), bodyTruncated: true, bodyBytes: 9000, durationMs: 12 },
  replays: [{ url: 'http://127.0.0.1:3000/webhook', kind: 'replay', edited: true, webhookId: 'msg_2', status: 200, body: 'ok', durationMs: 3 }],
};

describe('delivery inspector protocol', () => {
  it("a verified delivery's view: request, trace by endpoint name and hint, the answers old and new, replayable; no secret in it", () => {
    const v = deliveryView(verified, { appUrl: 'http://127.0.0.1:3000/webhook' });
    assert.ok(isDeliveryView(v));
    assert.deepEqual([v.title, v.method, v.path, v.replayable, v.responseId], ['response.completed', 'POST', '/webhook', true, 'resp_9']);
    assert.ok(v.headers.some((h) => h.name === 'webhook-signature'));
    assert.deepEqual(v.trace?.tried.map((t) => [t.endpoint, t.matched]), [['Local (we_1)', true]]);
    assert.deepEqual(v.answers.map((a) => [a.kind, a.status, a.ok, a.edited]), [['forward', 500, false, false], ['replay', 200, true, true]]);
    assert.match(v.answers[0].bodyNote!, /first 10 bytes of 9,000 bytes/);
    assert.ok(!JSON.stringify(v).includes(secret));
    assert.deepEqual(parseInspectorHostMessage({ type: 'show', delivery: v }), { type: 'show', delivery: v });
  });

  it('a rejected delivery is not replayable and says its body is a prefix only; a connection error is explained', () => {
    const v = deliveryView({
      ...verified,
      verdict: 'rejected',
      endpointId: undefined,
      bodyBytes: 5000,
      forward: { url: 'http://127.0.0.1:1/', error: 'ECONNREFUSED', durationMs: 1 },
      replays: undefined,
    });
    assert.equal(v.replayable, false);
    assert.match(v.notReplayable!, /never re-signed/);
    assert.match(v.bodyNote!, /Unverified: only the first/);
    assert.equal(v.responseId, undefined, 'a rejected delivery names nothing to fetch');
    assert.match(v.answers[0].error!, /nothing is listening there/);
    assert.equal(responseIdOf({ ...verified, body: 'not json' }), undefined);
  });

  it('host messages: a view that does not check out is dropped', () => {
    const v = deliveryView(verified);
    for (const bad of [
      { type: 'show', delivery: { ...v, verdict: 'approved' } },
      { type: 'show', delivery: { ...v, headers: [{ name: 1, value: 'x' }] } },
      { type: 'show', delivery: { ...v, answers: [{ ...v.answers[0], ok: 'yes' }] } },
      { type: 'show', delivery: { ...v, trace: { ...v.trace, tried: 'all' } } },
      { type: 'show' },
      { type: 'notice', level: 'debug', text: 'x' },
      { type: 'unknown' },
      'show',
      null,
    ]) {
      assert.equal(parseInspectorHostMessage(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
    assert.deepEqual(parseInspectorHostMessage({ type: 'busy', busy: true, text: 'Replaying…', extra: 1 }), { type: 'busy', busy: true, text: 'Replaying…' });
  });

  it('host messages: each kind checked field by field, strings to their limit and not a character more', () => {
    const v = deliveryView(verified);
    const { trace: _trace, ...untraced } = v;
    assert.deepEqual(parseInspectorHostMessage({ type: 'show', delivery: untraced }), { type: 'show', delivery: untraced }, 'a delivery without a trace');
    assert.deepEqual(parseInspectorHostMessage({ type: 'empty', text: 'x'.repeat(10_000) }), { type: 'empty', text: 'x'.repeat(10_000) });
    assert.equal(parseInspectorHostMessage({ type: 'empty', text: 'x'.repeat(10_001) }), undefined);
    assert.deepEqual(parseInspectorHostMessage({ type: 'busy', busy: false }), { type: 'busy', busy: false }, 'no text key invented');
    assert.deepEqual(parseInspectorHostMessage({ type: 'busy', busy: true, text: 'y'.repeat(1000) }), { type: 'busy', busy: true, text: 'y'.repeat(1000) });
    assert.equal(parseInspectorHostMessage({ type: 'busy', busy: true, text: 'y'.repeat(1001) }), undefined);
    for (const level of ['info', 'error']) assert.deepEqual(parseInspectorHostMessage({ type: 'notice', level, text: 't' }), { type: 'notice', level, text: 't' });
    const answer = v.answers[0];
    const trace = v.trace!;
    for (const bad of [
      { ...v, trace: 'x' },
      { ...v, answers: [{ ...answer, kind: 'other' }] },
      { ...v, answers: [{ ...answer, status: Number.POSITIVE_INFINITY }] },
      { ...v, answers: [{ ...answer, status: '500' }] },
      { ...v, answers: [{ ...answer, at: 'now' }] },
      { ...v, trace: { ...trace, tried: [{ ...trace.tried[0], matched: 'yes' }] } },
      { ...v, trace: { ...trace, tried: ['we_1'] } },
      { ...v, diagnoses: [{ cause: 'reserialized', title: 't', advice: 'a', evidence: 'not a list' }] },
      { ...v, diagnoses: ['reserialized'] },
    ]) {
      assert.equal(parseInspectorHostMessage({ type: 'show', delivery: bad }), undefined, JSON.stringify(bad).slice(0, 120));
    }
  });

  it('view messages: actions name their delivery; an edited body has a size limit; unknown keys are dropped', () => {
    assert.deepEqual(parseInspectorViewMessage({ type: 'replay', eventId: 'rec_1', body: '{}', secret: 'x' }), { type: 'replay', eventId: 'rec_1', body: '{}' });
    assert.deepEqual(parseInspectorViewMessage({ type: 'copyCurl', eventId: 'rec_1' }), { type: 'copyCurl', eventId: 'rec_1' });
    assert.deepEqual(parseInspectorViewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseInspectorViewMessage({ type: 'openConversation', eventId: 'rec_1', body: '{}' }), { type: 'openConversation', eventId: 'rec_1' });
    assert.deepEqual(parseInspectorViewMessage({ type: 'saveFixture', eventId: 'rec_1', path: '/etc/passwd' }), { type: 'saveFixture', eventId: 'rec_1' }, 'the page names no file');
    assert.deepEqual(parseInspectorViewMessage({ type: 'showTrace', eventId: 'rec_1' }), { type: 'showTrace', eventId: 'rec_1' });
    assert.equal(parseInspectorViewMessage({ type: 'showTrace' }), undefined);
    for (const bad of [
      { type: 'saveFixture' },
      { type: 'openConversation' },
      { type: 'replay' },
      { type: 'replay', eventId: '' },
      { type: 'replay', eventId: 'rec_1', body: 'x'.repeat(MAX_EDITED_BODY + 1) },
      { type: 'replay', eventId: 'rec_1', body: 42 },
      { type: 'openPayload', eventId: 'x'.repeat(201) },
      { type: 'runCommand', command: 'rm' },
      [],
    ]) {
      assert.equal(parseInspectorViewMessage(bad), undefined, JSON.stringify(bad).slice(0, 80));
    }
  });

  it('says why a delivery cannot be replayed: not JSON, stored only in part, or from an endpoint not known here', () => {
    const malformed = deliveryView({ ...verified, verdict: 'malformed', eventType: undefined, forward: undefined, replays: undefined });
    assert.deepEqual([malformed.title, malformed.replayable, malformed.notReplayable], ['Delivery', false, 'The body is not JSON: nothing to replay.']);
    const cut = deliveryView({ ...verified, bodyTruncated: true, bodyBytes: 123_456 });
    assert.equal(cut.notReplayable, `Only the first ${body.length} bytes of 123,456 bytes were stored: it cannot be re-signed whole.`);
    assert.equal(cut.bodyNote, `Only the first ${body.length} bytes of 123,456 bytes are stored (the app was sent all of it).`);
    const stranger = deliveryView({ ...verified, endpointId: undefined });
    assert.match(stranger.notReplayable!, /endpoint that signed it is not known/);
    assert.equal(stranger.bodyNote, undefined, 'a whole verified body has no note');
    assert.deepEqual([verified, { ...verified, verdict: 'rejected' as const, eventType: undefined }].map((r) => deliveryView(r).title), ['response.completed', 'Rejected delivery']);
  });

  it('an answer is ok only for 2xx; a cut answer of unknown length says only what was kept; names come from the listed endpoints', () => {
    const answer = (status: number) => ({ url: 'http://127.0.0.1:3000/webhook', status, durationMs: 1 });
    const v = deliveryView(
      {
        ...verified,
        forward: { ...answer(299), body: 'abc', bodyTruncated: true },
        replays: [answer(300), answer(199)],
        trace: { ...verified.trace!, tried: [{ ...verified.trace!.tried[0], label: undefined }], skewSeconds: -2, receivedMore: 3 },
      },
      { doctor: { endpoints: [{ id: 'we_1', name: 'Staging' }] } },
    );
    assert.deepEqual(v.answers.map((a) => a.ok), [true, false, false]);
    assert.equal(v.answers[0].bodyNote, 'Only the first 3 bytes of the answer are kept.');
    assert.deepEqual(v.trace?.tried.map((t) => t.endpoint), ['Staging (we_1)']);
    assert.equal(v.trace?.skewSeconds, -2);
    assert.equal(v.trace?.received.at(-1), '(+3 more)');
    const unnamed = deliveryView({ ...verified, trace: { ...verified.trace!, tried: [{ ...verified.trace!.tried[0], label: undefined }] } });
    assert.deepEqual(unnamed.trace?.tried.map((t) => t.endpoint), ['we_1']);
  });

  it('names the response of response.* events only', () => {
    assert.equal(responseIdOf({ ...verified, eventType: 'batch.completed' }), undefined);
    assert.equal(responseIdOf({ ...verified, body: JSON.stringify({ data: { id: 42 } }) }), undefined);
    assert.equal(responseIdOf({ ...verified, eventType: undefined }), undefined);
  });
});
