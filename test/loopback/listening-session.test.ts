/**
 * Listening sessions against the real parts on loopback: the emulator (the service), the listener,
 * a localtunnel server. Each session has its own endpoint, forward target and undo; a re-pointed
 * endpoint's original URL is kept before it changes and put back once, by the last session to go.
 * What the listener receives is recorded in the received events by the core, with no host between.
 */
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudflaredTunnel, ManualTunnel } from '../../src/tunnels/providers';
import { childListener } from '../support/childListener';
import { Listening, type SessionEndpoints } from '../../src/webhooks/session/listeningSession';
import { emulatorEndpoints } from '../support/sessionEndpoints';
import { KeptOriginalUrls, type KeyValueState } from '../../src/webhooks/session/originalUrls';
import type { DeliveryRecord, ForwardResult } from '../../src/webhooks/store/records';
import type { Delivered } from '../../src/webhooks/store/delivered';
import { WebhookEvents } from '../../src/webhooks/store/webhookEvents';
import { scratchDir } from '../support/scratchDir';
import { eventually, startReceiver } from '../support/receiver';

/** VS Code's Memento, in memory. */
function memento(): KeyValueState & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: async (k, v) => void (v === undefined ? data.delete(k) : data.set(k, v)) };
}

describe('listening sessions', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let listening: Listening;
  let events: WebhookEvents;
  let kept: KeptOriginalUrls;
  let state: ReturnType<typeof memento>;
  const secrets = new Map<string, string>();
  const delivered: Delivered[] = [];
  const forwarded: Array<{ record: DeliveryRecord; forward: ForwardResult }> = [];
  /** What the kept URLs were when each update reached the service. */
  const keptAtUpdate: string[][] = [];
  const conn = { id: 'c1', label: 'Local service' };

  const endpoints = emulatorEndpoints(() => client, secrets, () => keptAtUpdate.push(kept.list().map((k) => `${k.endpointId}=${k.url}`)));

  const urlOf = async (id: string) => (await endpoints.all()).find((e) => e.id === id)?.url;

  before(async () => {
    emu = await startEmulator({ config: { delivery: { maxAttempts: 1, retryBaseMs: 100, timeoutMs: 3000 } } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });
  beforeEach(() => {
    state = memento();
    kept = new KeptOriginalUrls(state);
    delivered.length = 0;
    forwarded.length = 0;
    keptAtUpdate.length = 0;
    const dir = scratchDir('listening-');
    events = new WebhookEvents({ eventsPath: join(dir, 'events.jsonl'), idsPath: join(dir, 'ids.txt') });
    listening = new Listening({
      createListener: (wiring) => childListener(wiring),
      events,
      defaultForwardTo: () => 'http://127.0.0.1:1/setting',
      originals: kept,
    });
    listening.onDidDeliver((r) => delivered.push(r));
    listening.onDidForward((f) => forwarded.push(f));
  });
  afterEach(async () => {
    await listening.stop();
    listening.dispose();
    events.dispose();
  });

  it('a session starts the listener, points a new endpoint at it, verifies with its secret, forwards to its app, and undoes all of it', async () => {
    const app = await startReceiver([202]);
    let changes = 0;
    listening.onDidChange(() => changes++);
    try {
      assert.equal(listening.forwardTarget(), 'http://127.0.0.1:1/setting', 'no session: the default');
      const s = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'create', name: 'debug', eventTypes: ['batch.completed'] }, forwardTo: () => app.url, undoEndpoint: true });
      assert.match(s.state.localUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual([s.state.publicUrl, s.state.provider, listening.state], [s.state.localUrl, 'none', s.state]);
      assert.equal(await urlOf(s.endpointId!), `${s.state.publicUrl}/webhook`);
      assert.deepEqual(listening.knownSecrets().map((k) => [k.endpointId, k.label]), [[s.endpointId, 'debug']]);
      assert.equal(listening.endpointList.length, 1);
      assert.equal(s.createdEndpointId, s.endpointId);
      await client.testWebhookEndpoint(s.endpointId!, 'batch.completed');
      const f = await eventually(() => forwarded[0]);
      assert.deepEqual([f.record.verdict, f.record.endpointId, f.forward.status, f.forward.url], ['verified', s.endpointId, 202, app.url]);
      assert.deepEqual(events.list().map((r) => [r.id, r.verdict, r.forward?.status]), [[f.record.id, 'verified', 202]], 'in the received events, the answer with it');
      assert.deepEqual(delivered.map((r) => r.id), [f.record.id], 'and the host was told, to say so');
      assert.ok(changes >= 1);
      assert.deepEqual(await s.undo(), []);
      assert.equal(await urlOf(s.endpointId!), undefined, 'the endpoint it created is deleted');
      assert.deepEqual([listening.state, listening.knownSecrets()], [undefined, []]);
      assert.ok((await fetch(s.state.localUrl).catch((e: Error) => e)) instanceof Error, 'nothing listens any more');
      assert.equal(listening.forwardTarget(), 'http://127.0.0.1:1/setting');
    } finally {
      await app.close();
    }
  });

  it('two sessions on one listener: each endpoint\'s deliveries go to its own session\'s app; the one that joined leaves the listener running', async () => {
    const appA = await startReceiver();
    const appB = await startReceiver();
    try {
      const a = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'create', name: 'A', eventTypes: ['batch.completed'] }, forwardTo: () => appA.url, replace: true });
      const b = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'create', name: 'B', eventTypes: ['batch.completed'] }, forwardTo: () => appB.url, undoEndpoint: true });
      assert.equal(b.state, a.state, 'the same listener');
      assert.deepEqual([listening.forwardTarget({ endpointId: a.endpointId }), listening.forwardTarget({ endpointId: b.endpointId })], [appA.url, appB.url]);
      assert.equal(listening.forwardTarget({ endpointId: 'we_other' }), appB.url, 'an endpoint no session owns: the newest session');
      let changes = 0;
      listening.onDidChange(() => changes++);
      await client.testWebhookEndpoint(a.endpointId!, 'batch.completed');
      await client.testWebhookEndpoint(b.endpointId!, 'batch.completed');
      await eventually(() => forwarded.length === 2 || undefined);
      assert.deepEqual([appA.received.length, appB.received.length], [1, 1]);
      await b.undo();
      assert.equal(changes, 1, 'a session that ends is a change');
      assert.ok(listening.state, 'still running: session A started it');
      assert.equal(await urlOf(b.endpointId!), undefined);
      assert.equal(await urlOf(a.endpointId!), `${a.state.publicUrl}/webhook`, 'A\'s endpoint stays (Stop Listening offers to delete it)');
      assert.equal(listening.forwardTarget({ endpointId: b.endpointId }), appA.url);
      await assert.rejects(
        listening.start({ connection: { id: 'c2', label: 'Other' }, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined }),
        /The webhook listener is running for "Local service": stop it first/,
      );
      await a.undo();
      assert.equal(listening.state, undefined);
      assert.equal(changes, 2, 'stopping is a change');
      await client.deleteWebhookEndpoint(a.endpointId!);
    } finally {
      await appA.close();
      await appB.close();
    }
  });

  it('keeps a re-pointed endpoint\'s URL before changing it, shares it between overlapping sessions, and puts it back once, after the last', async () => {
    // Others around it, so only the endpoint named is the one changed.
    const decoy1 = await endpoints.create({ name: 'other', url: 'https://other.example/1', event_types: ['batch.completed'] });
    const { id } = await endpoints.create({ name: 'prod', url: 'https://app.example.com/hooks', event_types: ['batch.completed'] });
    const decoy2 = await endpoints.create({ name: 'other', url: 'https://other.example/2', event_types: ['batch.completed'] });
    const plan = { mode: 'update' as const, endpointId: id };
    // Start Listening holds the listener throughout.
    const user = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
    const first = await listening.start({ connection: conn, endpoints, endpoint: plan, forwardTo: () => undefined, undoEndpoint: true });
    const here = `${first.state.publicUrl}/webhook`;
    assert.deepEqual(keptAtUpdate, [[`${id}=https://app.example.com/hooks`]], 'kept before the service was changed');
    const second = await listening.start({ connection: conn, endpoints, endpoint: plan, forwardTo: () => undefined, undoEndpoint: true });
    assert.deepEqual([first.originalUrl, second.originalUrl, await urlOf(id)], ['https://app.example.com/hooks', 'https://app.example.com/hooks', here]);
    await first.undo();
    assert.equal(await urlOf(id), here, 'the other session still uses it');
    assert.ok(listening.state, 'the second session still listens');
    await second.undo();
    assert.equal(await urlOf(id), 'https://app.example.com/hooks');
    assert.deepEqual([kept.list(), state.data.size], [[], 0]);
    // The same endpoint again on the same listener: pointed here again, and put back again.
    const third = await listening.start({ connection: conn, endpoints, endpoint: plan, forwardTo: () => undefined, undoEndpoint: true });
    assert.equal(await urlOf(id), here);
    await third.undo();
    assert.equal(await urlOf(id), 'https://app.example.com/hooks');
    assert.deepEqual([await urlOf(decoy1.id), await urlOf(decoy2.id)], ['https://other.example/1', 'https://other.example/2']);
    await user.undo();
    for (const e of [id, decoy1.id, decoy2.id]) await client.deleteWebhookEndpoint(e);
  });

  it('after a crash, the original URL is still kept (what the host offers back), and a new session keeps that one, not the dead tunnel\'s', async () => {
    const { id } = await endpoints.create({ name: 'prod', url: 'https://app.example.com/a', event_types: ['batch.completed'] });
    await listening.start({ connection: conn, endpoints, endpoint: { mode: 'update', endpointId: id }, forwardTo: () => undefined, undoEndpoint: true });
    // The window dies: no undo runs.
    await listening.stop();
    assert.deepEqual(kept.list().map((k) => [k.connectionId, k.endpointId, k.url]), [['c1', id, 'https://app.example.com/a']]);
    const again = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'update', endpointId: id }, forwardTo: () => undefined, undoEndpoint: true });
    assert.equal(again.originalUrl, 'https://app.example.com/a');
    await again.undo();
    assert.equal(await urlOf(id), 'https://app.example.com/a');
    await client.deleteWebhookEndpoint(id);
  });

  it('a start that fails part way undoes what it did: the listener it started stops, nothing is left on the service', async () => {
    const before = (await endpoints.all()).length;
    await assert.rejects(
      listening.start({ connection: conn, endpoints, endpoint: { mode: 'update', endpointId: 'we_missing' }, forwardTo: () => undefined, undoEndpoint: true }),
      /^Error: No webhook endpoint "we_missing" on "Local service"\.$/,
    );
    assert.equal(listening.state, undefined);
    assert.equal((await endpoints.all()).length, before);
    assert.deepEqual(kept.list(), []);
  });

  it('"Start Listening" replaces what runs; a failed undo step is reported and the rest still run', async () => {
    const a = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
    const b = await listening.start({ connection: { id: 'c2', label: 'Other' }, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
    assert.notEqual(a.state.localUrl, b.state.localUrl);
    assert.equal(listening.state?.connection.id, 'c2');
    // Another connection's endpoints changed: nothing to read for this listener.
    const other = await endpoints.create({ name: 'c1 only', url: 'https://c1.example/h', event_types: ['batch.completed'] });
    await listening.endpointsChanged('c1', endpoints);
    assert.ok(!listening.knownSecrets().some((k) => k.endpointId === other.id));
    await client.deleteWebhookEndpoint(other.id);
    await a.undo();
    assert.equal(listening.state, b.state, 'the replaced session\'s undo does not stop its successor');
    b.steps.push(async () => {
      throw new Error('service down');
    });
    const failed = await b.undo();
    assert.deepEqual(failed.map((e) => e.message), ['service down']);
    assert.equal(listening.state, undefined, 'the other steps ran');
    await listening.endpointsChanged('c1', endpoints);
    assert.deepEqual(listening.knownSecrets(), [], 'another connection\'s change reads nothing');
  });

  it('a delivery with no endpoint goes to the newest session; an endpoint an earlier Start Listening created is offered for deletion again', async () => {
    const { id } = await endpoints.create({ name: 'mine', url: 'https://old.example/hook', event_types: ['batch.completed'] });
    const a = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => 'http://127.0.0.1:1/a', replace: true });
    const b = await listening.start({ connection: conn, endpoints, endpoint: { mode: 'update', endpointId: id, created: true }, forwardTo: () => 'http://127.0.0.1:1/b' });
    assert.deepEqual([a.endpointId, b.endpointId, b.createdEndpointId, b.originalUrl], [undefined, id, id, undefined]);
    assert.equal(await urlOf(id), `${b.state.publicUrl}/webhook`);
    assert.equal(listening.forwardTarget({}), 'http://127.0.0.1:1/b', 'not the session that has no endpoint either');
    assert.equal(listening.forwardTarget({ endpointId: id }), 'http://127.0.0.1:1/b');
    await b.undo();
    assert.equal(await urlOf(id), `${a.state.publicUrl}/webhook`, 'without undoEndpoint the change stays');
    assert.equal(listening.forwardTarget({ endpointId: id }), 'http://127.0.0.1:1/a');
    // An endpoint chosen after the start (Start Listening asks then): its secret is known at once.
    await listening.point(a, { mode: 'create', name: 'chosen later', eventTypes: ['batch.completed'] }, endpoints);
    assert.ok(listening.knownSecrets().some((k) => k.endpointId === a.endpointId && k.label === 'chosen later'));
    await client.deleteWebhookEndpoint(id);
    await client.deleteWebhookEndpoint(a.endpointId!);
  });

  it('reads secrets once per change, and an older reading that ends late does not overwrite a newer one', async () => {
    await listening.start({ connection: conn, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
    const { id } = await endpoints.create({ name: 'late', url: 'https://x.example/h', event_types: ['batch.completed'] });
    let calls = 0;
    // The first reading lists what was there before the endpoint existed, and finishes last.
    const slowFirst: SessionEndpoints = {
      ...endpoints,
      all: async () => {
        const n = calls++;
        const all = await endpoints.all();
        if (n === 0) await new Promise((r) => setTimeout(r, 150));
        return n === 0 ? all.filter((e) => e.id !== id) : all;
      },
    };
    await Promise.all([listening.endpointsChanged('c1', slowFirst), listening.endpointsChanged('c1', slowFirst)]);
    assert.ok(listening.knownSecrets().some((k) => k.endpointId === id), 'the newer reading stands');
    assert.ok(listening.endpointList.some((e) => e.id === id));
    await client.deleteWebhookEndpoint(id);
  });

  it('a tunnel that cannot start leaves no listener behind', async () => {
    const handles: Array<{ running: boolean }> = [];
    const own = new Listening({
      events,
      createListener: (wiring) => {
        const l = childListener(wiring);
        handles.push(l);
        return l;
      },
      defaultForwardTo: () => undefined,
    });
    await assert.rejects(own.start({ connection: conn, endpoints, tunnel: new ManualTunnel(() => undefined), endpoint: { mode: 'skip' }, forwardTo: () => undefined }));
    assert.deepEqual([own.state, handles.length, handles[0].running], [undefined, 1, false]);
    // Disposed: nobody is told any more.
    let told = 0;
    own.onDidChange(() => told++);
    own.onDidChangeTunnel(() => told++);
    await own.start({ connection: conn, endpoints, endpoint: { mode: 'skip' }, forwardTo: () => undefined });
    own.dispose();
    await own.stop();
    assert.equal(told, 1, 'the start, not the stop after dispose');
  });

  it('behind a tunnel: the public URL is the tunnel\'s; a tunnel that ends by itself is reported as reopening, one stopped with the listener is not', async () => {
    // cloudflared's stand-in, as a program that ends by itself a moment after its tunnel is up.
    const bin = mkdtempSync(join(tmpdir(), 'tunnel-bin-'));
    const script = readFileSync(join(__dirname, '..', 'fixtures', 'tunnels', 'cloudflared-standin.sh'), 'utf8');
    writeFileSync(join(bin, 'cloudflared'), script.replace('exec sleep 600', 'exec sleep ${STANDIN_SECONDS:-600}'), { mode: 0o755 });
    const closed: string[] = [];
    listening.onDidChangeTunnel((t) => closed.push(`${t.label}: ${t.health.kind}`));
    try {
      const tunnel = new CloudflaredTunnel(undefined, bin);
      const s = await listening.start({ connection: conn, endpoints, tunnel, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
      assert.deepEqual([s.state.publicUrl, s.state.provider], ['https://marble-kinds-sunset-retreat.trycloudflare.com', 'cloudflared']);
      await listening.stop();
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(closed, [], 'stopped with the listener: nothing to report');
      process.env.STANDIN_SECONDS = '1';
      await listening.start({ connection: conn, endpoints, tunnel, endpoint: { mode: 'skip' }, forwardTo: () => undefined, replace: true });
      await eventually(() => closed[0]);
      assert.deepEqual(closed, ['Cloudflare quick tunnel: reopening']);
    } finally {
      delete process.env.STANDIN_SECONDS;
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('kept original URLs', () => {
  it('the first original wins, forgetting one leaves the others, at most 50 are kept, and anything malformed in the state is ignored', async () => {
    const state = memento();
    let now = 1;
    const kept = new KeptOriginalUrls(state, () => now++, 42);
    assert.equal(await kept.keep('c', 'e1', 'https://a'), 'https://a');
    assert.equal(await kept.keep('c', 'e1', 'https://tunnel'), 'https://a');
    assert.equal(await kept.keep('d', 'e1', 'https://b'), 'https://b', 'another connection, another entry');
    assert.deepEqual(kept.list(), [
      { connectionId: 'c', endpointId: 'e1', url: 'https://a', at: 1, owner: 42 },
      { connectionId: 'd', endpointId: 'e1', url: 'https://b', at: 2, owner: 42 },
    ]);
    await kept.keep('c', 'e2', 'https://c2');
    await kept.forget('c', 'e1');
    let updates = 0;
    const update = state.update;
    state.update = async (k, v) => {
      updates++;
      return update(k, v);
    };
    await kept.forget('c', 'nothing');
    assert.equal(updates, 0, 'nothing to forget: nothing written');
    state.update = update;
    assert.deepEqual(kept.list().map((k) => `${k.connectionId}/${k.endpointId}`), ['d/e1', 'c/e2'], 'only that endpoint of that connection');
    await kept.forget('c', 'e2');
    await kept.forget('d', 'e1');
    assert.equal(state.data.size, 0, 'nothing left behind in global state');
    for (let i = 0; i < 60; i++) await kept.keep('c', `e${i}`, `https://${i}`);
    assert.deepEqual([kept.list().length, kept.list()[0].endpointId], [50, 'e10']);
    const good = { connectionId: 'c', endpointId: 'x', url: 'u', at: 1 };
    const wrong = [{ ...good, connectionId: 1 }, { ...good, endpointId: 2 }, { ...good, url: 3 }, { ...good, at: '1' }, { connectionId: 'c' }, null, 'x'];
    state.data.set('aoaiWorkbench.webhookOriginalUrls', [good, ...wrong]);
    assert.deepEqual(kept.list().map((k) => k.endpointId), ['x']);
    state.data.set('aoaiWorkbench.webhookOriginalUrls', { not: 'a list' });
    assert.deepEqual(kept.list(), []);
  });

  it('offers back only what a window that is gone left: not this window\'s, not a running window\'s', async () => {
    const state = memento();
    const entry = (endpointId: string, owner?: number) => ({ connectionId: 'c', endpointId, url: `https://${endpointId}`, at: 1, ...(owner !== undefined ? { owner } : {}) });
    // A process that has ended: a child that exited.
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    state.data.set('aoaiWorkbench.webhookOriginalUrls', [entry('mine', process.pid), entry('running', process.ppid), entry('crashed', gone), entry('older')]);
    const kept = new KeptOriginalUrls(state);
    assert.deepEqual(kept.orphans().map((k) => k.endpointId), ['crashed', 'older']);
    assert.deepEqual(kept.orphans(() => false).map((k) => k.endpointId), ['running', 'crashed', 'older'], 'never this window\'s own');
  });
});
