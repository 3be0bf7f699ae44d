/** A real tunnel on loopback: emulator → localtunnel server → localtunnel client → listener. */
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { LocalTunnel } from '../../src/tunnels/providers';
import type { Tunnel } from '../../src/tunnels/tunnel';
import { WebhookListener, type DeliveryRecord, type KnownSecret } from '../../src/webhooks/receive/listener';
import { signedHeaders } from '../../src/webhooks/signature';
import { eventually } from '../support/receiver';
import { startLocaltunnelServer } from '../support/localtunnelServer';

describe('listener behind a real tunnel', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof startLocaltunnelServer>>;
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let listener: WebhookListener;
  let tunnel: Tunnel;
  const known: KnownSecret[] = [];
  const records: DeliveryRecord[] = [];

  before(async () => {
    server = await startLocaltunnelServer();
    emu = await startEmulator({ config: { responseQueuedMs: 20, responseInProgressMs: 20, delivery: { maxAttempts: 6, retryBaseMs: 300, timeoutMs: 3000 } } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    listener = new WebhookListener({ secrets: () => known, onDelivery: (r) => records.push(r) });
    await listener.start();
    tunnel = await new LocalTunnel(() => ({ host: server.url, subdomain: 'aoaitest' })).start(listener.port);
  });
  after(async () => {
    await tunnel?.stop();
    await listener?.stop();
    await client?.close();
    await emu?.close();
    server?.stop();
  });

  it('gets a public URL from the tunnel server', () => {
    assert.equal(tunnel.url, `http://aoaitest.localhost:${server.port}`);
  });

  it('a background response\'s response.completed arrives through the tunnel, verified', async () => {
    const ep = await client.createWebhookEndpoint({ name: 'tunnel', url: `${tunnel.url}/hook`, event_types: ['response.completed'] });
    known.push({ endpointId: ep.id, secret: ep.signing_secret });
    const resp = await client.createResponse({ model: 'gpt-4o', input: 'through the tunnel', background: true });
    const r = await eventually(() => records.find((x) => x.eventType === 'response.completed'));
    assert.equal(r.verdict, 'verified');
    assert.equal(r.endpointId, ep.id);
    assert.equal(JSON.parse(r.body).data.id, resp.id);
    const delivery = await eventually(() => emu.deliveries().find((d) => d.endpointId === ep.id && d.state === 'delivered'));
    assert.equal(delivery.attempts.at(-1)?.status, 200);
  });

  it('a tampered delivery through the tunnel is rejected with 400 "Invalid signature"', async () => {
    const body = JSON.stringify({ object: 'event', id: 'evt_t', type: 'response.completed', created_at: 1, data: { id: 'resp_x' } });
    const headers = signedHeaders(known[0].secret, 'msg_tampered', body);
    const res = await request(`http://127.0.0.1:${server.port}/hook`, {
      method: 'POST',
      headers: { ...headers, host: `aoaitest.localhost:${server.port}`, 'content-type': 'application/json' },
      body: body.replace('resp_x', 'resp_y'),
    });
    assert.equal(res.statusCode, 400);
    assert.equal(await res.body.text(), 'Invalid signature');
    const r = await eventually(() => records.find((x) => x.webhookId === 'msg_tampered'));
    assert.equal(r.verdict, 'rejected');
  });

  it('a listener that was down gets the emulator\'s retry, with the same webhook-id', async () => {
    const port = listener.port;
    await listener.stop();
    const { event } = await (
      await fetch(`${emu.url}/emulator/events`, {
        method: 'POST',
        headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'response.completed', data: { id: 'resp_retry' } }),
      })
    ).json() as { event: { id: string } };
    await eventually(() => emu.deliveries().find((d) => d.eventId === event.id && d.attempts.length >= 1));
    listener = new WebhookListener({ port, secrets: () => known, onDelivery: (r) => records.push(r) });
    await listener.start();
    const r = await eventually(() => records.find((x) => x.eventId === event.id));
    assert.equal(r.verdict, 'verified');
    const d = await eventually(() => emu.deliveries().find((x) => x.eventId === event.id && x.state === 'delivered'));
    assert.ok(d.attempts.length >= 2, `attempts: ${JSON.stringify(d.attempts)}`);
    assert.ok(d.attempts[0].status !== 200);
    assert.equal(r.webhookId, d.webhookId);
  });
});
