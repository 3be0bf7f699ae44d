import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startEmulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { probeConnection } from '../../src/service/probe';
import { downloadedCloudflaredPath } from '../../src/tunnels/cloudflaredDownload';
import { removeDownloadedCloudflared } from '../../src/tunnels/cloudflaredRemove';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import type { DeliveryRecord, KnownSecret } from '../../src/webhooks/store/records';
import { defaultShell, replay, replayToApp, sendSigned, sendTestEvent, signedCurl, testEventBody } from '../../src/webhooks/send/resend';
import { generateSecret } from '../../src/webhooks/signature';
import { eventually, startReceiver } from '../support/receiver';
import { scratchDir } from '../support/scratchDir';

describe('test events, replays and curl commands', () => {
  const known: KnownSecret[] = [{ endpointId: 'we_1', secret: generateSecret() }];
  const records: DeliveryRecord[] = [];
  let listener: WebhookListener;
  before(async () => {
    listener = new WebhookListener({ secrets: () => known, onDelivery: (r) => records.push(r) });
    await listener.start();
  });
  after(() => listener.stop());
  const url = () => `${listener.url}/webhook`;
  /** The delivery that `send` causes. */
  const arrival = async (send: () => Promise<unknown>) => {
    const n = records.length + 1;
    await send();
    return eventually(() => (records.length >= n ? records[n - 1] : undefined));
  };

  it('a test event arrives verified, typed, from the endpoint whose secret signed it', async () => {
    let sent: Awaited<ReturnType<typeof sendTestEvent>> | undefined;
    const r = await arrival(async () => (sent = await sendTestEvent({ url: url(), known, type: 'batch.completed', endpointId: 'we_1' })));
    assert.deepEqual(sent, { status: 200, sentBy: 'extension', note: 'the service has no test route here' });
    assert.deepEqual(
      [r.verdict, r.eventType, r.endpointId, r.headers['user-agent'], r.headers['content-type']],
      ['verified', 'batch.completed', 'we_1', 'aoai-workbench test event', 'application/json'],
    );
    assert.match(JSON.parse(r.body).data.id, /^batch_test_/);
  });

  it('test events are shaped like the service events of their type', () => {
    const now = 1_700_000_123_456;
    const event = (type: string) => JSON.parse(testEventBody(type, now));
    for (const [type, id] of [['response.completed', 'resp_test_'], ['response.failed', 'resp_test_'], ['batch.completed', 'batch_test_'], ['fine_tuning.job.succeeded', 'ftjob_test_']]) {
      const e = event(type);
      assert.deepEqual([e.object, e.type, e.created_at, e.data.id], ['event', type, 1_700_000_123, `${id}${now}`], type);
      assert.match(e.id, /^evt_test_[0-9a-f]{16}$/);
    }
    assert.notEqual(event('batch.completed').id, event('batch.completed').id, 'each test event has its own id');
    assert.deepEqual(event('realtime.call.incoming').data, { call_id: `rtc_test_${now}`, sip_headers: [{ name: 'From', value: 'sip:test@example.com' }] });
  });

  it('refuses to send a test event with no known secret; without a service test route, one event signed here', async () => {
    await assert.rejects(sendTestEvent({ url: url(), known: [], type: 'batch.completed' }), /No webhook endpoint delivers to this listener, so there is no secret to sign a test event with/);
    const before = records.length;
    const r = await sendTestEvent({ url: url(), known, type: 'batch.failed', endpointId: 'we_1', serviceTest: () => Promise.reject(new Error('Not found. Really.')) });
    assert.deepEqual(r, { status: 200, sentBy: 'extension', note: 'the service has no test route here (Not found)' });
    await eventually(() => records.length > before);
    assert.equal(records.length, before + 1, 'one test event, one row');
  });

  it('says why it signed a test event itself: no test route, no answer through it, or an endpoint whose secret is not held', async () => {
    const noRoute = await sendTestEvent({ url: url(), known, type: 'batch.completed', endpointId: 'we_1' });
    assert.deepEqual(noRoute, { status: 200, sentBy: 'extension', note: 'the service has no test route here' });
    const unreached = await sendTestEvent({ url: url(), known, type: 'batch.completed', endpointId: 'we_1', serviceTest: async () => ({ status_code: null }) });
    assert.deepEqual(unreached, { status: 200, sentBy: 'extension', note: 'the service could not reach the listener' });
  });

  it('signs a test event only with the endpoint aimed at this listener, never with another held secret', async () => {
    // A production endpoint's rotation replacement is held here too; it does not deliver here.
    const production: KnownSecret = { endpointId: 'we_production_new', secret: generateSecret() };
    const held = [production, ...known];
    const before = records.length;
    let asked = false;
    const serviceTest = async () => ((asked = true), { status_code: 200 });
    await assert.rejects(sendTestEvent({ url: url(), known: held, type: 'batch.completed', serviceTest }), /No webhook endpoint delivers to this listener/);
    await assert.rejects(
      sendTestEvent({ url: url(), known: held, type: 'batch.completed', endpointId: 'we_elsewhere', serviceTest }),
      /The endpoint delivering to this listener \(we_elsewhere\) was not created here, so its signing secret is not held/,
    );
    assert.equal(asked, false, 'the service is not asked to send what no held secret could verify');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(records.length, before, 'nothing was sent');
    const r = await arrival(() => sendTestEvent({ url: url(), known: held, type: 'batch.completed', endpointId: 'we_1' }));
    assert.deepEqual([r.verdict, r.endpointId], ['verified', 'we_1']);
  });

  it('re-signs with the secret of the endpoint that verified the delivery, not just the first one held', async () => {
    const second: KnownSecret = { endpointId: 'we_2', secret: generateSecret() };
    known.push(second);
    const receiver = await startReceiver();
    try {
      const original = await arrival(() => sendTestEvent({ url: url(), known: [second], type: 'batch.completed', endpointId: 'we_2' }));
      assert.equal(original.endpointId, 'we_2');
      const again = await arrival(async () => assert.equal(await replay(original, known, url(), false), 200));
      assert.deepEqual([again.verdict, again.endpointId], ['verified', 'we_2']);
      // To the app: JSON, named as a replay, and an unchanged body is not called edited.
      const answer = await replayToApp(original, known, receiver.url, original.body);
      assert.equal(answer.edited, undefined);
      const [got] = await receiver.next(1);
      assert.deepEqual([got.headers['content-type'], got.headers['user-agent']], ['application/json', 'aoai-workbench replay']);
      assert.doesNotThrow(() => new Webhook(second.secret).verify(got.body, got.headers as Record<string, string>));
    } finally {
      known.splice(known.indexOf(second), 1);
      await receiver.close();
    }
  });

  it("one test event through the service's test route: one verified delivery, signed by the service", async () => {
    const emu = await startEmulator();
    const client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    try {
      const created = await client.createWebhookEndpoint({ name: 'here', url: url(), event_types: ['batch.completed'] });
      known.push({ endpointId: created.id, secret: created.signing_secret! });
      const before = records.length;
      const r = await sendTestEvent({ url: url(), known, type: 'batch.completed', endpointId: created.id, serviceTest: (id, t) => client.testWebhookEndpoint(id, t) });
      assert.deepEqual(r, { status: 200, sentBy: 'service' });
      // The service answers its test route after the listener answered it: every row is in.
      assert.equal(records.length, before + 1, 'one test event, one row');
      assert.deepEqual([records[before].verdict, records[before].endpointId, records[before].eventType], ['verified', created.id, 'batch.completed']);
      assert.notEqual(records[before].headers['user-agent'], 'aoai-workbench test event');
    } finally {
      known.splice(1);
      await client.close();
      await emu.close();
    }
  });

  it('a signed delivery to a URL that never answers gives up after its timeout instead of hanging', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhook`;
      await assert.rejects(sendSigned({ url, secret: generateSecret(), body: '{}', timeoutMs: 300 }), (err: Error & { code?: string }) => err.code === 'UND_ERR_HEADERS_TIMEOUT');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('a replay is verified again; keeping the webhook-id makes it a duplicate', async () => {
    const original = await arrival(() => sendTestEvent({ url: url(), known, type: 'response.completed', endpointId: 'we_1' }));
    const again = await arrival(async () => assert.equal(await replay(original, known, url(), false), 200));
    assert.equal(again.verdict, 'verified');
    assert.notEqual(again.webhookId, original.webhookId);
    const dup = await arrival(async () => assert.equal(await replay(original, known, url(), true), 200));
    assert.deepEqual([dup.verdict, dup.webhookId], ['duplicate', original.webhookId]);
  });

  it('never re-signs a delivery that no known secret verified', async () => {
    const rejected = { ...records[0], verdict: 'rejected', endpointId: undefined } as DeliveryRecord;
    assert.throws(() => signedCurl(rejected, known, url()), /cannot be re-signed/);
    await assert.rejects(replay(rejected, known, url(), false), /cannot be re-signed/);
  });

  it('the curl command, run by a shell, delivers a verified event that standardwebhooks accepts too', async () => {
    const receiver = await startReceiver();
    try {
      // A body with a single quote in it survives the shell's quoting.
      const original = { ...records[0], body: JSON.stringify({ ...JSON.parse(records[0].body), note: "it's here" }) };
      const curl = signedCurl(original, known, receiver.url);
      await new Promise<void>((resolve, reject) => execFile('sh', ['-c', `${curl} -s -o /dev/null`], (err) => (err ? reject(err) : resolve())));
      const [got] = await receiver.next(1);
      assert.equal(got.body, original.body);
      assert.doesNotThrow(() => new Webhook(known[0].secret).verify(got.body, got.headers as Record<string, string>));
    } finally {
      await receiver.close();
    }
  });
});

/**
 * Reads a PowerShell command's single-quoted strings as PowerShell does (about_Quoting_Rules): a
 * quote is any of ' ‘ ’ ‚ ‛, and two quotes in a row inside the string are one. No PowerShell runs
 * on the test machines, so the language's rule is applied here.
 */
function powershellStrings(command: string): string[] {
  const quote = /['\u2018\u2019\u201A\u201B]/;
  const out: string[] = [];
  for (let i = 0; i < command.length; i++) {
    if (!quote.test(command[i])) continue;
    let text = '';
    for (i++; i < command.length; i++) {
      if (quote.test(command[i])) {
        if (quote.test(command[i + 1] ?? '')) text += command[++i];
        else break;
      } else text += command[i];
    }
    out.push(text);
  }
  return out;
}

describe('Copy as curl on Windows', () => {
  const known: KnownSecret[] = [{ endpointId: 'we_1', secret: generateSecret() }];
  const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'response.completed', data: { id: 'resp_1', note: "it's ‘quoted’ — café" } });
  const record = { id: 'r1', receivedAt: 1, verdict: 'verified', status: 200, endpointId: 'we_1', headers: {}, body } as DeliveryRecord;

  it('is a PowerShell command (Invoke-WebRequest, body as UTF-8 bytes) whose strings give back the exact signed body and headers', () => {
    assert.equal(defaultShell('win32'), 'powershell');
    assert.equal(defaultShell('linux'), 'posix');
    const command = signedCurl(record, known, "http://127.0.0.1:3000/webhook?x='1'", undefined, 'powershell');
    assert.match(command, /^Invoke-WebRequest -UseBasicParsing -Method POST -Uri /);
    assert.match(command, /-Body \(\[System\.Text\.Encoding\]::UTF8\.GetBytes\(/);
    assert.doesNotMatch(command, /(^|\s)curl\s/, 'not the curl alias of Windows PowerShell');
    const [url, contentType, ...rest] = powershellStrings(command);
    assert.deepEqual([url, contentType], ["http://127.0.0.1:3000/webhook?x='1'", 'application/json']);
    const sent = rest.pop();
    assert.equal(sent, body, 'the body, quotes and all, is what was signed');
    const headers = Object.fromEntries(Array.from({ length: rest.length / 2 }, (_, i) => [rest[2 * i], rest[2 * i + 1]]));
    assert.deepEqual(Object.keys(headers), ['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    assert.doesNotThrow(() => new Webhook(known[0].secret).verify(sent!, headers));
  });

  it('elsewhere it stays a curl command for POSIX shells', () => {
    assert.match(signedCurl(record, known, 'http://127.0.0.1:3000/webhook', undefined, 'posix'), /^curl -X POST 'http:\/\/127\.0\.0\.1:3000\/webhook'/);
  });
});

describe('connection probe against the emulator', () => {
  it('reports deployments, the webhook API and a chat; a missing credential is the one failed check', async () => {
    const emu = await startEmulator();
    const client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    try {
      const steps: string[] = [];
      const signal = new AbortController().signal;
      const results = await probeConnection({
        client: async () => client,
        listDeployments: (s) => client.listDeployments({ signal: s }),
        signal,
        onStep: (s) => steps.push(s),
      });
      assert.deepEqual(results.map((r) => [r.name, r.ok]), [['Deployments', true], ['Webhook API', true], ['Chat', true]]);
      assert.match(results[2].detail, /answered in \d+ ms/);
      assert.equal(steps.length, 3);
      const none = await probeConnection({ client: () => Promise.reject(new Error('No API key is stored')), listDeployments: async () => [], signal });
      assert.deepEqual(none, [{ name: 'Credentials', ok: false, detail: 'No API key is stored' }]);
    } finally {
      await client.close();
      await emu.close();
    }
  });
});

describe('downloaded cloudflared removal', () => {
  it('removes only the downloaded copy and its folder, and says when there is none', async () => {
    const dir = scratchDir('aoai-cf-');
    assert.equal(await removeDownloadedCloudflared(dir), undefined);
    const path = downloadedCloudflaredPath(dir);
    mkdirSync(join(dir, 'cloudflared'), { recursive: true });
    writeFileSync(path, '#!/bin/sh\n');
    writeFileSync(join(dir, 'webhook-events.jsonl'), '');
    assert.equal(await removeDownloadedCloudflared(dir), path);
    assert.ok(!existsSync(join(dir, 'cloudflared')));
    assert.ok(existsSync(join(dir, 'webhook-events.jsonl')), 'the rest of the storage folder stays');
  });
});
