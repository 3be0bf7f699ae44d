import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainForwardError, FORWARD_BODY_CAP, FORWARD_MAX_HEADERS, forwardDelivery } from '../../src/webhooks/send/forward';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import { forwardFailed, latestAnswer } from '../../src/webhooks/store/records';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { EventStore } from '../../src/webhooks/store/stores';
import { startAnsweringApp, type Answer } from '../support/answeringApp';
import { freePort } from '../support/ports';
import { eventually } from '../support/receiver';

const event = (id: string) => JSON.stringify({ object: 'event', id, type: 'response.completed', created_at: 1, data: { id: 'resp_1' } });

/** A listener forwarding to an app that answers as scripted; one signed delivery through it. */
async function deliverThrough(answers: Answer[], extraHeaders: Record<string, string> = {}, path = '/webhook') {
  const secret = generateSecret();
  const app = await startAnsweringApp(answers);
  const records: DeliveryRecord[] = [];
  const l = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], forwardTo: () => app.url, onForwarded: (r, forward) => records.push({ ...r, forward }) });
  await l.start();
  try {
    const body = event('evt_1');
    const res = await fetch(`${l.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...extraHeaders, ...signedHeaders(secret, 'msg_1', body) }, body });
    assert.equal(res.status, 200, 'the listener answers the sender whatever the app says');
    return await eventually(() => records.find((r) => r.forward));
  } finally {
    await l.stop();
    await app.close();
  }
}

describe("the app's answer to a forwarded delivery", () => {
  it("keeps the app's status, headers and body, and marks a non-2xx answer", async () => {
    const r = await deliverThrough([{ status: 422, headers: { 'content-type': 'application/json', 'x-request-id': 'req_42' }, body: '{"error":"unknown event type"}' }]);
    const f = r.forward!;
    assert.equal(f.status, 422);
    assert.equal(f.headers?.['x-request-id'], 'req_42');
    assert.equal(f.headers?.['content-type'], 'application/json');
    assert.equal(f.body, '{"error":"unknown event type"}');
    assert.equal(f.bodyTruncated, undefined);
    assert.ok(f.durationMs >= 0 && f.at! > 0);
    assert.equal(forwardFailed(f), true);
    assert.equal(forwardFailed({ ...f, status: 204 }), false);
    assert.deepEqual([199, 200, 299, 300].map((status) => forwardFailed({ ...f, status })), [true, false, false, true], 'only 2xx is taken');
    assert.equal(forwardFailed({ url: f.url, error: 'ECONNREFUSED', durationMs: 1 }), true);
    assert.equal(forwardFailed(undefined), false, 'no forward at all is not a failure');
  });

  it(`cuts a long answer body at ${FORWARD_BODY_CAP / 1024} KiB, says how long it was, and never splits a character`, async () => {
    // One ASCII byte first, so the cut falls inside a two-byte character.
    const long = `a${'é'.repeat(100_000)}`; // 200,001 bytes
    const started = Date.now();
    const r = await deliverThrough([{ status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: long }]);
    const f = r.forward!;
    assert.equal(f.status, 500);
    assert.equal(f.bodyTruncated, true);
    assert.equal(f.bodyBytes, 200_001);
    assert.equal(Buffer.byteLength(f.body!), FORWARD_BODY_CAP - 1, 'the half character at the cut is left out');
    assert.ok(!f.body!.includes('\uFFFD'), 'no replacement character at the cut');
    assert.ok(f.durationMs! >= 0 && f.durationMs! <= Date.now() - started, `the time taken is within the test's own: ${f.durationMs}`);
  });

  it('records every header of a verified delivery and its path; credentials are not stored', async () => {
    const r = await deliverThrough([{ status: 200 }], { authorization: 'Bearer sk-very-secret', 'x-forwarded-for': '203.0.113.7' }, '/hooks/openai?x=1');
    assert.equal(r.path, '/hooks/openai?x=1');
    assert.equal(r.headers['x-forwarded-for'], '203.0.113.7');
    assert.equal(r.headers['webhook-id'], 'msg_1');
    assert.match(r.headers.authorization, /^\(not stored: 21 characters\)$/);
    assert.ok(!JSON.stringify(r).includes('sk-very-secret'));
  });

  it('an app that is not running: the connection error, explained', async () => {
    const url = `http://127.0.0.1:${await freePort()}/webhook`;
    const f = await forwardDelivery({ url, headers: {}, body: '{}' });
    assert.deepEqual([f.status, f.error], [undefined, 'ECONNREFUSED']);
    assert.match(explainForwardError(f.error!), /nothing is listening there/);
  });

  it('the answer is persisted with the event and read back after a restart; replays are kept beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fwd-answer-'));
    try {
      const r = await deliverThrough([{ status: 401, headers: { 'www-authenticate': 'Signature' }, body: 'bad signature' }]);
      const store = new EventStore(join(dir, 'events.jsonl'));
      await store.put(r);
      const replay = { url: r.forward!.url, kind: 'replay' as const, edited: true, webhookId: 'msg_2', status: 200, body: 'ok', durationMs: 2 };
      await store.put({ ...r, replays: [replay] });
      await store.flush();
      const again = new EventStore(join(dir, 'events.jsonl'));
      const [loaded] = await again.load();
      assert.deepEqual([loaded.forward?.status, loaded.forward?.headers?.['www-authenticate'], loaded.forward?.body], [401, 'Signature', 'bad signature']);
      assert.equal(latestAnswer(loaded)?.status, 200, 'the newest replay is the latest answer');
      assert.equal(loaded.replays?.[0].edited, true);
      assert.ok(statSync(join(dir, 'events.jsonl')).size < 10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps an answer exactly at the cap whole; a long streamed answer is cut without a made-up length', async () => {
    const exact = 'a'.repeat(FORWARD_BODY_CAP);
    const app = await startAnsweringApp([
      { status: 200, body: exact },
      { status: 502, headers: { 'transfer-encoding': 'chunked' }, body: 'b'.repeat(FORWARD_BODY_CAP + 1) },
    ]);
    try {
      const whole = await forwardDelivery({ url: app.url, headers: {}, body: '{}' });
      assert.deepEqual([whole.body?.length, whole.bodyTruncated, whole.bodyBytes], [FORWARD_BODY_CAP, undefined, undefined]);
      const cut = await forwardDelivery({ url: app.url, headers: {}, body: '{}' });
      assert.deepEqual([cut.status, cut.body?.length, cut.bodyTruncated, cut.bodyBytes], [502, FORWARD_BODY_CAP, true, undefined]);
    } finally {
      await app.close();
    }
  });

  it('keeps at most 64 answer headers, joins repeated ones, and labels replays with their webhook-id', async () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, String(i)]));
    const app = await startAnsweringApp([{ status: 200, headers: many }, { status: 200, headers: { 'set-cookie': ['a=1', 'b=2'] as unknown as string } }]);
    try {
      const f = await forwardDelivery({ url: app.url, headers: {}, body: '{}', kind: 'replay', webhookId: 'msg_r', edited: true });
      assert.equal(Object.keys(f.headers!).length, FORWARD_MAX_HEADERS);
      assert.equal(f.headers!['x-h0'], '0', 'the first headers are the ones kept');
      assert.deepEqual([f.kind, f.webhookId, f.edited], ['replay', 'msg_r', true]);
      const g = await forwardDelivery({ url: app.url, headers: {}, body: '{}', kind: 'forward', edited: false });
      assert.equal(g.headers!['set-cookie'], 'a=1, b=2');
      assert.deepEqual(['kind' in g, 'webhookId' in g, 'edited' in g], [false, false, false], 'a plain forward carries no replay labels');
    } finally {
      await app.close();
    }
  });
});
