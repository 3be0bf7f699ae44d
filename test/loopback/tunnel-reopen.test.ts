/**
 * A tunnel that drops is reopened by itself, and the endpoint follows its new URL: against the
 * real localtunnel server on loopback (killed and restarted, as a public server restarts) and
 * cloudflared's stand-in (its process killed). One that cannot come back ends in the failed state.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { CloudflaredTunnel, LocalTunnel } from '../../src/tunnels/providers';
import { childListener } from '../support/childListener';
import { Listening, type TunnelMoved, type TunnelStatus } from '../../src/webhooks/session/listeningSession';
import { emulatorEndpoints } from '../support/sessionEndpoints';
import type { Delivered } from '../../src/webhooks/store/delivered';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { startLocaltunnelServer } from '../support/localtunnelServer';
import { eventually } from '../support/receiver';
import { scratchDir } from '../support/scratchDir';

describe('a tunnel that drops', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let listening: Listening;
  let events: WebhookEvents;
  const secrets = new Map<string, string>();
  const delivered: Delivered[] = [];
  const health: TunnelStatus[] = [];
  const moves: TunnelMoved[] = [];
  const conn = { id: 'c1', label: 'Local service' };
  const endpoints = emulatorEndpoints(() => client, secrets);

  const urlOf = async (id: string) => (await endpoints.all()).find((e) => e.id === id)?.url;
  const kinds = () => health.map((h) => (h.health.kind === 'reopening' ? `reopening ${h.health.attempt}/${h.health.attempts}` : h.health.kind));

  before(async () => {
    emu = await startEmulator({ config: { delivery: { maxAttempts: 3, retryBaseMs: 200, timeoutMs: 3000 } } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });
  beforeEach(() => {
    delivered.length = health.length = moves.length = 0;
    const dir = scratchDir('tunnel-reopen-');
    events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    listening = new Listening({
      createListener: (wiring) => childListener(wiring),
      events,
      defaultForwardTo: () => undefined,
      reopenDelaysMs: [100, 300, 600],
    });
    listening.onDidDeliver((r) => delivered.push(r));
    listening.onDidChangeTunnel((t) => health.push(t));
    listening.onDidMoveTunnel((m) => moves.push(m));
  });
  afterEach(async () => {
    await listening.stop();
    listening.dispose();
    events.dispose();
  });

  /** Sends a test event to the endpoint and waits for the listener to record it. */
  async function deliverThrough(endpointId: string): Promise<Delivered> {
    const res = await fetch(`${emu.url}/emulator/events`, {
      method: 'POST',
      headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'response.completed', data: { id: `resp_${Date.now()}` } }),
    });
    const { event } = (await res.json()) as { event: { id: string } };
    const r = await eventually(() => delivered.find((d) => d.eventId === event.id), 20_000);
    assert.equal(r.endpointId, endpointId);
    return r;
  }

  it('localtunnel: when its server restarts, the tunnel reopens by itself, the state and the endpoint take the new URL, and deliveries arrive through it', async () => {
    let server = await startLocaltunnelServer();
    try {
      const tunnel = new LocalTunnel(() => ({ host: server.url }));
      const s = await listening.start({ connection: conn, endpoints, tunnel, endpoint: { mode: 'create', name: 'reopen', eventTypes: ['response.completed'] }, forwardTo: () => undefined });
      const first = s.state.publicUrl;
      assert.match(first, new RegExp(`^http://[a-z0-9-]+\\.localhost:${server.port}$`));
      assert.equal((await deliverThrough(s.endpointId!)).verdict, 'verified');

      await server.stop();
      server = await startLocaltunnelServer(server.port);
      const move = await eventually(() => moves[0], 20_000);
      assert.equal(move.previous, first);
      assert.notEqual(move.url, first, 'the restarted server named a new tunnel');
      assert.deepEqual(move.endpoints, [{ endpointId: s.endpointId }]);
      assert.equal(listening.state?.publicUrl, move.url);
      assert.equal(await urlOf(s.endpointId!), `${move.url}/webhook`);
      await eventually(() => health.at(-1)?.health.kind === 'open');
      assert.equal(kinds()[0], 'reopening 1/3');
      assert.deepEqual(listening.state?.tunnel?.health, { kind: 'open', url: move.url });
      assert.equal((await deliverThrough(s.endpointId!)).verdict, 'verified', 'a delivery after the drop arrives through the new tunnel');
      await client.deleteWebhookEndpoint(s.endpointId!);
    } finally {
      await server.stop();
    }
  });

  it('localtunnel: a server that does not come back ends in the failed state after the last attempt, with the reason; the listener stays until stopped', async () => {
    const server = await startLocaltunnelServer();
    const tunnel = new LocalTunnel(() => ({ host: server.url, subdomain: 'gone' }));
    await listening.start({ connection: conn, endpoints, tunnel, endpoint: { mode: 'skip' }, forwardTo: () => undefined });
    await server.stop();
    const failed = await eventually(() => health.find((h) => h.health.kind === 'failed'), 20_000);
    assert.deepEqual(kinds(), ['reopening 1/3', 'reopening 2/3', 'reopening 3/3', 'failed']);
    assert.equal(failed.label, 'localtunnel');
    assert.ok(failed.health.kind === 'failed' && /localtunnel could not open a tunnel via http:\/\/127\.0\.0\.1:\d+/.test(failed.health.reason), JSON.stringify(failed));
    assert.equal(listening.state?.tunnel?.health.kind, 'failed', 'the state says so, for the status bar and the view');
    assert.deepEqual(moves, []);
    await listening.stop();
    assert.equal(listening.state, undefined);
  });

  describe('cloudflared', () => {
    let dir: string;
    let bin: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tunnel-reopen-'));
      bin = join(dir, 'bin');
      mkdirSync(bin);
      copyFileSync(join(__dirname, '..', 'fixtures', 'tunnels', 'cloudflared-restarting.sh'), join(bin, 'cloudflared'));
      process.env.STANDIN_DIR = dir;
    });
    afterEach(() => {
      delete process.env.STANDIN_DIR;
      rmSync(dir, { recursive: true, force: true });
    });
    const pid = () => Number(readFileSync(join(dir, 'pid'), 'utf8'));

    it('its process killed, a new one is started and the re-pointed endpoint takes the new quick tunnel URL', async () => {
      const ep = await client.createWebhookEndpoint({ name: 'mine', url: 'https://app.example/hook', event_types: ['response.completed'] });
      const s = await listening.start({ connection: conn, endpoints, tunnel: new CloudflaredTunnel(undefined, bin), endpoint: { mode: 'update', endpointId: ep.id }, forwardTo: () => undefined });
      assert.equal(s.state.publicUrl, 'https://run-1-sunset-retreat.trycloudflare.com');
      process.kill(pid(), 'SIGKILL');
      const move = await eventually(() => moves[0], 20_000);
      assert.deepEqual([move.previous, move.url, move.label], ['https://run-1-sunset-retreat.trycloudflare.com', 'https://run-2-sunset-retreat.trycloudflare.com', 'Cloudflare quick tunnel']);
      assert.equal(await urlOf(ep.id), 'https://run-2-sunset-retreat.trycloudflare.com/webhook');
      await eventually(() => health.at(-1)?.health.kind === 'open');
      assert.deepEqual(kinds(), ['reopening 1/3', 'open']);
      await client.deleteWebhookEndpoint(ep.id);
    });

    it('cloudflared gone from its place: the first attempt says so and the keeper gives up at once, without the remaining pauses', async () => {
      await listening.start({ connection: conn, endpoints, tunnel: new CloudflaredTunnel(undefined, bin), endpoint: { mode: 'skip' }, forwardTo: () => undefined });
      rmSync(join(bin, 'cloudflared'));
      process.kill(pid(), 'SIGKILL');
      const failed = await eventually(() => health.find((h) => h.health.kind === 'failed'), 20_000);
      assert.deepEqual(kinds(), ['reopening 1/3', 'failed']);
      assert.ok(failed.health.kind === 'failed' && failed.health.attempts === 1 && /cloudflared is not installed/.test(failed.health.reason), JSON.stringify(failed));
      assert.equal(listening.state?.tunnel?.health.kind, 'failed');
      await listening.stop();
    });

    it('a process that cannot start again ends in the failed state; stopping the listener after a drop reopens nothing', async () => {
      await listening.start({ connection: conn, endpoints, tunnel: new CloudflaredTunnel(undefined, bin), endpoint: { mode: 'skip' }, forwardTo: () => undefined });
      writeFileSync(join(dir, 'refuse'), '');
      process.kill(pid(), 'SIGKILL');
      await eventually(() => health.find((h) => h.health.kind === 'failed'), 20_000);
      assert.deepEqual(kinds(), ['reopening 1/3', 'reopening 2/3', 'reopening 3/3', 'failed']);
      assert.equal(readFileSync(join(dir, 'runs'), 'utf8').trim(), '1', 'no run after the first started a tunnel');

      rmSync(join(dir, 'refuse'));
      health.length = 0;
      await listening.start({ connection: conn, endpoints, tunnel: new CloudflaredTunnel(undefined, bin), endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
      process.kill(pid(), 'SIGKILL');
      await eventually(() => health[0]);
      await listening.stop();
      const runs = readFileSync(join(dir, 'runs'), 'utf8');
      // Past every pause the keeper was given (100 + 300 + 600 ms): an attempt not cancelled would have run by now.
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal(readFileSync(join(dir, 'runs'), 'utf8'), runs, 'stopped while reopening: no new process afterwards');
    });
  });
});
