/**
 * Webhook traffic the extension sends (forwards to the app, replays, test events, the verifier
 * check) honours the user's proxy as every other call does: a real proxy on loopback sees the
 * tunnel, the app behind it gets the delivery, NO_PROXY rules and a refusing proxy are respected.
 * `proxyLoopback` makes a loopback app count as remote, as in the other proxy tests.
 */
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { explainForwardError, forwardDelivery } from '../../src/webhooks/send/forward';
import { WebhookListener } from '../../src/webhooks/receive/listener';
import { webhookOutbound } from '../../src/webhooks/send/outbound';
import type { DeliveryRecord, KnownSecret } from '../../src/webhooks/store/records';
import { replayToApp, sendTestEvent } from '../../src/webhooks/send/resend';
import { generateSecret } from '../../src/webhooks/signature';
import { checkVerifier } from '../../src/webhooks/send/verifierCheck';
import { startAnsweringApp, type AnsweringApp } from '../support/answeringApp';
import { startProxy, type TestProxy } from '../support/proxyServer';
import { eventually } from '../support/receiver';

const hostOf = (url: string) => new URL(url).host;

describe('webhook traffic through the user\'s proxy', () => {
  let proxy: TestProxy;
  let app: AnsweringApp;
  const secret = generateSecret();
  const known: KnownSecret[] = [{ endpointId: 'we_proxy', secret }];

  before(async () => {
    proxy = await startProxy();
    app = await startAnsweringApp((body, headers) => {
      try {
        new Webhook(secret).verify(body, headers as Record<string, string>);
        return { status: 200, body: 'ok' };
      } catch {
        return { status: 400, body: 'bad signature' };
      }
    });
  });
  after(async () => {
    await app.close();
    await proxy.close();
  });
  beforeEach(() => proxy.targets.splice(0));

  it('forwards and the verifier check go through the proxy, and the app answers through it', async () => {
    const outbound = webhookOutbound({ url: proxy.url, proxyLoopback: true });
    const answer = await forwardDelivery({ url: app.url, headers: { 'content-type': 'application/json' }, body: '{}', outbound });
    assert.equal(answer.status, 400, 'unsigned: the app refused it, having got it through the proxy');
    const report = await checkVerifier(app.url, secret, Date.now(), outbound);
    assert.equal(report.sound, true, report.summary);
    // Tunnels are kept alive and reused: at least one, and every one to the app.
    assert.ok(proxy.targets.length >= 1, 'the proxy was asked');
    assert.deepEqual([...new Set(proxy.targets)], [hostOf(app.url)]);
    await outbound.close();
  });

  it('a received delivery is forwarded, and replayed, through the proxy; the test event too', async () => {
    const outbound = webhookOutbound({ url: proxy.url, proxyLoopback: true });
    const records: DeliveryRecord[] = [];
    const listener = new WebhookListener({
      secrets: () => known,
      forwardTo: () => app.url,
      outbound: () => outbound,
      onForwarded: (r, forward) => records.push({ ...r, forward }),
    });
    await listener.start();
    try {
      const before = app.received.length;
      const sent = await sendTestEvent({ url: `${listener.url}/webhook`, known, type: 'batch.completed', endpointId: known[0].endpointId, outbound });
      assert.equal(sent.status, 200);
      const forwarded = await eventually(() => records[0]);
      assert.equal(forwarded.forward?.status, 200);
      const replayed = await replayToApp(forwarded, known, app.url, undefined, outbound);
      assert.equal(replayed.status, 200);
      assert.equal(app.received.length, before + 2);
      assert.deepEqual([...new Set(proxy.targets)].sort(), [hostOf(listener.url), hostOf(app.url)].sort(), 'the test event to the listener, the forward and the replay to the app');
    } finally {
      await listener.stop();
      await outbound.close();
    }
  });

  it('loopback goes direct unless told otherwise, and NO_PROXY / http.noProxy are honoured', async () => {
    for (const settings of [{ url: proxy.url }, { url: proxy.url, proxyLoopback: true, noProxy: ['127.0.0.1'] }]) {
      const outbound = webhookOutbound(settings);
      const answer = await forwardDelivery({ url: app.url, headers: {}, body: '{}', outbound });
      assert.equal(answer.status, 400, JSON.stringify(settings));
      await outbound.close();
    }
    assert.deepEqual(proxy.targets, [], 'the proxy was not asked');
  });

  it('a proxy that refuses: the forward records the refusal instead of an answer', async () => {
    const strict = await startProxy({ credentials: 'alice:secret' });
    const outbound = webhookOutbound({ url: strict.url, proxyLoopback: true });
    try {
      const before = app.received.length;
      const answer = await forwardDelivery({ url: app.url, headers: {}, body: '{}', outbound });
      assert.equal(answer.status, undefined);
      assert.equal(answer.error, 'PROXY_407');
      assert.match(explainForwardError(answer.error), /asks for a user name and password/);
      assert.equal(app.received.length, before, 'nothing reached the app');
    } finally {
      await outbound.close();
      await strict.close();
    }
  });
});
