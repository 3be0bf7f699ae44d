import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { startEmulator } from '../../src/emulator/server';
import { WebhookListener, type DeliveryRecord } from '../../src/webhooks/receive/listener';
import { generateSecret, signedHeaders } from '../../src/webhooks/signature';
import { EventStore, FileDedupeStore } from '../../src/webhooks/store/stores';
import { eventually, startReceiver } from '../support/receiver';

describe('webhook listener', () => {
  const secret = generateSecret();
  let listener: WebhookListener;
  const records: DeliveryRecord[] = [];
  const forwards: DeliveryRecord[] = [];
  let forwardTo: string | undefined;

  before(async () => {
    listener = new WebhookListener({
      secrets: () => [{ endpointId: 'we_other', secret: generateSecret() }, { endpointId: 'we_1', secret }],
      maxBodyBytes: 64 * 1024,
      headersTimeoutMs: 500,
      requestTimeoutMs: 800,
      forwardTo: () => forwardTo,
      onDelivery: (r) => records.push(r),
      // The delivered record stays as it was: the app's answer comes as a new version.
      onForwarded: (r, forward) => forwards.push({ ...r, forward }),
    });
    await listener.start();
  });
  after(() => listener.stop());

  const body = (id = 'evt_1', type = 'response.completed') => JSON.stringify({ object: 'event', id, type, created_at: 1, data: { id: 'resp_1' } });
  const post = (b: string, headers: Record<string, string>) => fetch(`${listener.url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: b });
  const last = () => eventually(() => records.at(-1));

  it('verifies and acknowledges a signed delivery, naming the endpoint whose secret matched', async () => {
    const b = body();
    const headers = signedHeaders(secret, 'msg_ok_1', b);
    const res = await post(b, headers);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'OK');
    const r = await last();
    assert.deepEqual([r.verdict, r.endpointId, r.eventType, r.eventId, r.webhookId], ['verified', 'we_1', 'response.completed', 'evt_1', 'msg_ok_1']);
    assert.equal(r.timestamp, headers['webhook-timestamp']);
  });

  it('accepts signatures made by the standardwebhooks package', async () => {
    const b = body('evt_2');
    const now = new Date();
    const sig = new Webhook(secret).sign('msg_sw_1', now, b);
    assert.equal((await post(b, { 'webhook-id': 'msg_sw_1', 'webhook-timestamp': String(Math.floor(+now / 1000)), 'webhook-signature': sig })).status, 200);
    assert.equal((await last()).verdict, 'verified');
  });

  it('accepts signatures made by the openai signing rules (HMAC of id.timestamp.body, whsec_ key base64-decoded)', async () => {
    const b = body('evt_2b');
    const ts = String(Math.floor(Date.now() / 1000));
    // Computed here from the documented rule, not with our own sign().
    const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`msg_oa_1.${ts}.${b}`).digest('base64');
    const headers = { 'webhook-id': 'msg_oa_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,${mac}` };
    // The openai package's own verification agrees with these headers.
    assert.equal((await new OpenAI({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' }).webhooks.unwrap(b, headers, secret)).id, 'evt_2b');
    assert.equal((await post(b, headers)).status, 200);
    const r = await last();
    assert.deepEqual([r.verdict, r.webhookId], ['verified', 'msg_oa_1']);
  });

  it('a tolerance set lower than the default is the one applied, to the verdict and to its trace', async () => {
    const seen: DeliveryRecord[] = [];
    const strict = new WebhookListener({ secrets: () => [{ endpointId: 'we_1', secret }], toleranceSeconds: 60, onDelivery: (r) => seen.push(r) });
    await strict.start();
    try {
      const b = body('evt_strict');
      const res = await fetch(`${strict.url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_strict', b, Date.now() - 120_000) }, body: b });
      assert.equal(res.status, 400, 'two minutes old is past a 60 s tolerance');
      const r = await eventually(() => seen[0]);
      assert.equal(r.trace?.toleranceSeconds, 60);
    } finally {
      await strict.stop();
    }
  });

  it('accepts deliveries up to the default tolerance of 300 s away (290 s old, 290 s ahead)', async () => {
    const b = body('evt_tol');
    for (const [id, offset] of [['msg_tol_old', -290_000], ['msg_tol_new', 290_000]] as const) {
      assert.equal((await post(b, signedHeaders(secret, id, b, Date.now() + offset))).status, 200, id);
      assert.equal((await last()).verdict, 'verified', id);
    }
  });

  it('rejects with 400 "Invalid signature" and says exactly why', async () => {
    const b = body('evt_3');
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [signedHeaders(secret, 'msg_r1', b), '{"tampered":true}', /body was changed, or it was signed with another secret/],
      [signedHeaders(generateSecret(), 'msg_r2', b), b, /Signature mismatch/],
      // Signed now ± N, checked a moment later: a second boundary may fall in between.
      [signedHeaders(secret, 'msg_r3', b, Date.now() - 400_000), b, /too old: 40[01] s in the past \(tolerance 300 s\)/],
      [signedHeaders(secret, 'msg_r4', b, Date.now() + 360_000), b, /too new: 3(59|60) s in the future \(tolerance 300 s\)/],
      [{ 'webhook-id': 'msg_r5', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }, b, /Missing required header webhook-signature/],
    ];
    for (const [headers, sent, reason] of cases) {
      const res = await post(sent, headers);
      assert.equal(res.status, 400);
      assert.equal(await res.text(), 'Invalid signature');
      const r = await last();
      assert.equal(r.verdict, 'rejected');
      assert.match(r.reason ?? '', reason);
    }
  });

  it('says when it knows no secret at all', async () => {
    const bare = new WebhookListener({ secrets: () => [], onDelivery: (r) => records.push(r) });
    await bare.start();
    try {
      const b = body();
      const res = await fetch(`${bare.url}/`, { method: 'POST', body: b, headers: signedHeaders(secret, 'msg_ns', b) });
      assert.equal(res.status, 400);
      assert.match((await last()).reason ?? '', /No signing secret is known/);
    } finally {
      await bare.stop();
    }
  });

  it('acknowledges a duplicate webhook-id with 200 but does not process it twice', async () => {
    const b = body('evt_dup');
    const h = signedHeaders(secret, 'msg_dup', b);
    assert.equal((await post(b, h)).status, 200);
    assert.equal((await last()).verdict, 'verified');
    assert.equal((await post(b, h)).status, 200);
    const r = await last();
    assert.equal(r.verdict, 'duplicate');
    assert.match(r.reason ?? '', /processed already/);
  });

  it('a rejected delivery does not use up its webhook-id: the sender\'s valid retry is processed', async () => {
    const b = body('evt_retry');
    const res = await post(b, signedHeaders(generateSecret(), 'msg_retry', b));
    assert.equal(res.status, 400);
    assert.equal((await last()).verdict, 'rejected');
    assert.equal((await post(b, signedHeaders(secret, 'msg_retry', b))).status, 200);
    const r = await last();
    assert.deepEqual([r.verdict, r.webhookId], ['verified', 'msg_retry']);
  });

  it('records a signed body that is not JSON as malformed', async () => {
    const res = await post('not json', signedHeaders(secret, 'msg_mal', 'not json'));
    assert.equal(res.status, 400);
    assert.equal(await res.text(), 'Malformed JSON: the signature is valid but the body is not JSON.');
    assert.equal((await last()).verdict, 'malformed');
  });

  it('refuses other methods (405) and oversized bodies (413), and survives slow and broken senders', async () => {
    const get = await fetch(`${listener.url}/hook`);
    assert.deepEqual([get.status, get.headers.get('allow'), await get.text()], [405, 'POST', 'Method not allowed']);
    // An oversized body is refused from its Content-Length, before it is sent.
    const tooBig = connect(listener.port, '127.0.0.1');
    tooBig.write(`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024}\r\n\r\n`);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      tooBig.on('data', (d: Buffer) => (got += d.toString('latin1')));
      tooBig.on('close', () => resolve(got));
      tooBig.on('error', () => resolve(got));
      setTimeout(() => (tooBig.destroy(), resolve(got)), 5000);
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    // A sender that opens a request and never finishes its headers is cut off.
    const slow = connect(listener.port, '127.0.0.1').resume();
    slow.write('POST /hook HTTP/1.1\r\nHost: x\r\n');
    const closed = await new Promise<boolean>((resolve) => {
      slow.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 5000);
    });
    assert.ok(closed, 'the slow connection was closed');
    // Garbage on the wire.
    const junk = connect(listener.port, '127.0.0.1');
    junk.resume();
    junk.end('NOT HTTP AT ALL\r\n\r\n');
    await new Promise((r) => junk.on('close', r));
    // Still answering.
    const b = body('evt_after');
    assert.equal((await post(b, signedHeaders(secret, 'msg_after', b))).status, 200);
  });

  it('forwards verified deliveries to a local app with the original headers, recording its status and time', async () => {
    const app = await startReceiver([202], { delayMs: 150 });
    forwardTo = app.url;
    try {
      const b = body('evt_fwd');
      const h = signedHeaders(secret, 'msg_fwd', b);
      await post(b, h);
      const [got] = await app.next(1);
      assert.equal(got.body, b);
      assert.equal(got.headers['webhook-signature'], h['webhook-signature']);
      new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
      const r = await eventually(() => forwards.find((x) => x.webhookId === 'msg_fwd'));
      assert.equal(r.forward?.status, 202);
      assert.ok(r.forward!.durationMs >= 140 && r.forward!.durationMs < 5000, `took ${r.forward!.durationMs} ms for an app that answers in 150`);
    } finally {
      forwardTo = undefined;
      await app.close();
    }
  });

  it('records why a forward failed when the app is not running', async () => {
    const app = await startReceiver();
    const url = app.url;
    await app.close();
    forwardTo = url;
    try {
      const b = body('evt_down');
      await post(b, signedHeaders(secret, 'msg_down', b));
      const r = await eventually(() => forwards.find((x) => x.webhookId === 'msg_down'));
      assert.deepEqual([r.forward?.url, r.forward?.status, r.forward?.error], [url, undefined, 'ECONNREFUSED']);
      assert.ok(r.forward!.durationMs >= 0 && r.forward!.durationMs < 5000);
    } finally {
      forwardTo = undefined;
    }
  });

  it('forwards each event once: duplicates and rejected deliveries never reach the app', async () => {
    const app = await startReceiver();
    forwardTo = app.url;
    try {
      const b = body('evt_once');
      const h = signedHeaders(secret, 'msg_once', b);
      await post(b, h);
      await app.next(1);
      await post(b, h);
      assert.equal((await last()).verdict, 'duplicate');
      await post(b, signedHeaders(generateSecret(), 'msg_once_bad', b));
      assert.equal((await last()).verdict, 'rejected');
      const b2 = body('evt_once_2');
      await post(b2, signedHeaders(secret, 'msg_once_2', b2));
      await app.next(2);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(app.received.map((x) => x.headers['webhook-id']), ['msg_once', 'msg_once_2']);
    } finally {
      forwardTo = undefined;
      await app.close();
    }
  });

  it('verifies real deliveries from the emulator (a background response → response.completed)', async () => {
    const emu = await startEmulator({ config: { responseQueuedMs: 10, responseInProgressMs: 10 } });
    const known: Array<{ endpointId: string; secret: string }> = [];
    const got: DeliveryRecord[] = [];
    const l = new WebhookListener({ secrets: () => known, onDelivery: (r) => got.push(r) });
    await l.start();
    try {
      const client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey });
      const ep = await client.post<{ id: string; signing_secret: string }>('/dashboard/webhook_endpoints', { body: { name: 'l', url: `${l.url}/hook`, event_types: ['response.completed'] } });
      known.push({ endpointId: ep.id, secret: ep.signing_secret });
      const resp = await client.responses.create({ model: 'gpt-4o', input: 'x', background: true });
      const r = await eventually(() => got.find((x) => x.eventType === 'response.completed'));
      assert.equal(r.verdict, 'verified');
      assert.equal(r.endpointId, ep.id);
      assert.equal(JSON.parse(r.body).data.id, resp.id);
    } finally {
      await l.stop();
      await emu.close();
    }
  });
});

describe('listener stores', () => {
  const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'stores-')), name);
  const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
  const rec = (i: number): DeliveryRecord => ({ id: `r${i}`, receivedAt: i, verdict: 'verified', status: 200, body: '{}', headers: {} });

  it('remembers processed webhook-ids across a restart', async () => {
    const path = tempFile('ids');
    const a = new FileDedupeStore(path);
    a.add('msg_a');
    a.add('msg_b');
    await a.flush();
    const b = new FileDedupeStore(path);
    assert.ok(b.has('msg_a') && b.has('msg_b') && !b.has('msg_c'));
  });

  it('forgets the oldest webhook-ids past its cap, and its file stays bounded across restarts', async () => {
    const path = tempFile('ids');
    const a = new FileDedupeStore(path, 100);
    for (let i = 0; i < 1000; i++) a.add(`msg_${i}`);
    a.add('msg_999'); // already there: not written again
    await a.flush();
    assert.ok(!a.has('msg_899') && a.has('msg_900') && a.has('msg_999'));
    const lines = lineCount(path);
    assert.ok(lines >= 100 && lines < 200, `the file holds ${lines} ids`);
    const b = new FileDedupeStore(path, 100);
    assert.ok(!b.has('msg_899') && b.has('msg_900') && b.has('msg_999'));
  });

  it('a burst of deliveries reaches the disk in order, bounded, and a clear in the middle keeps only what came after', async () => {
    const path = tempFile('events.jsonl');
    const s = new EventStore(path, 100);
    for (let i = 0; i < 1000; i++) void s.put(rec(i));
    await s.flush();
    const lines = lineCount(path);
    assert.ok(lines >= 100 && lines <= 200, `the file holds ${lines} lines`);
    assert.deepEqual((await new EventStore(path, 100).load()).map((r) => r.id).slice(0, 3), ['r999', 'r998', 'r997']);
    void s.put(rec(1000));
    void s.clear();
    void s.put(rec(1001));
    await s.flush();
    assert.deepEqual((await new EventStore(path, 100).load()).map((r) => r.id), ['r1001']);
  });

  it('keeps received deliveries (updates included), capped with the oldest dropped, and survives a torn line', async () => {
    const path = tempFile('events.jsonl');
    const s = new EventStore(path, 5);
    for (let i = 0; i < 8; i++) await s.put(rec(i));
    await s.put({ ...rec(7), forward: { url: 'http://127.0.0.1:1', status: 204, durationMs: 3 } });
    const { appendFileSync } = await import('node:fs');
    appendFileSync(path, '{"id":"torn", "rece');
    const loaded = await new EventStore(path, 5).load();
    assert.deepEqual(loaded.map((r) => r.id), ['r7', 'r6', 'r5', 'r4', 'r3']);
    assert.equal(loaded[0].forward?.status, 204);
  });
});
