import assert from 'node:assert/strict';
import { DeploymentCatalog } from '../../src/service/deploymentCatalog';
import { isChatDeployment } from '../../src/chat/lm/catalog';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import type { Deployment } from '../../src/service/types';

interface Conn {
  id: string;
  endpoint: string;
  apiKey: string;
}

const limits = { version: '1', sku: 'Standard', capacity: 10, requestsPerMinute: 60, tokensPerMinute: 10_000 };
const embeddings = { name: 'text-embedding-3-small', model: 'text-embedding-3-small', ...limits };
/** Chat models (one on the Responses API only), a realtime model and an embeddings model. */
const DEPLOYMENTS = [
  { name: 'gpt-4o', model: 'gpt-4o', ...limits },
  { name: 'mini', model: 'gpt-4o-mini', ...limits },
  { name: 'o3-mini', model: 'o3-mini', ...limits },
  { name: 'gpt-5-codex', model: 'gpt-5-codex', ...limits },
  { name: 'gpt-realtime', model: 'gpt-realtime', ...limits },
  embeddings,
];

/** A catalog listing from the emulator through the real client; `clock` moves time for the age checks. */
function catalogOf(connections: Conn[], clock = { now: 0 }, maxAgeMs?: number) {
  const clients: AzureOpenAIClient[] = [];
  let calls = 0;
  const catalog = new DeploymentCatalog<Conn>({
    connections: () => connections,
    list: (c) => {
      calls++;
      const client = new AzureOpenAIClient({ endpoint: c.endpoint, auth: { kind: 'apiKey', apiKey: c.apiKey }, retry: { maxRetries: 0 } });
      clients.push(client);
      return client.listDeployments();
    },
    canChat: isChatDeployment,
    now: () => clock.now,
    maxAgeMs,
  });
  const events: (string | undefined)[] = [];
  catalog.onDidChange((id) => events.push(id));
  return { catalog, events, calls: () => calls, close: () => Promise.all(clients.map((c) => c.close())) };
}

const names = (list: readonly Deployment[]) => list.map((d) => d.name).sort();

describe('deployment catalog: one list per connection for the sidebar and both chats', () => {
  let emu: Emulator;
  let conn: Conn;
  let close: Array<() => Promise<unknown>>;

  beforeEach(async () => {
    emu = await startEmulator({ config: { deployments: DEPLOYMENTS.map((d) => ({ ...d })) } });
    conn = { id: 'a', endpoint: emu.url, apiKey: emu.apiKey };
    close = [];
  });
  afterEach(async () => {
    await Promise.all(close.map((c) => c()));
    await emu.close();
  });

  it('lists once for every reader; the sidebar sees every deployment, the chats only those that chat', async () => {
    const t = catalogOf([conn]);
    close.push(t.close);
    assert.deepEqual(t.catalog.state(conn), { status: 'idle' });
    const [tree, panel, provider] = await Promise.all([t.catalog.load(conn), t.catalog.chatDeployments(conn), t.catalog.deployments(conn)]);
    assert.equal(t.calls(), 1);
    assert.ok(names(tree).includes('text-embedding-3-small'));
    assert.deepEqual(names(provider), names(tree));
    assert.deepEqual(names(panel), ['gpt-4o', 'gpt-5-codex', 'mini', 'o3-mini']);
    assert.deepEqual(t.catalog.state(conn), { status: 'loaded', items: tree });
    assert.deepEqual(t.events, ['a']);
  });

  it('shows a load in progress to the sidebar, and settles it for whoever waits', async () => {
    const t = catalogOf([conn]);
    close.push(t.close);
    const listing = t.catalog.load(conn);
    const state = t.catalog.state(conn);
    assert.equal(state.status, 'loading');
    assert.deepEqual(t.events, []);
    await (state as { pending: Promise<unknown> }).pending;
    assert.equal(t.catalog.state(conn).status, 'loaded');
    assert.equal(await t.catalog.load(conn), await listing);
    assert.equal(t.calls(), 1);
  });

  it("after the sidebar's Refresh every reader gets the service's new list, and hears of it", async () => {
    const t = catalogOf([conn]);
    close.push(t.close);
    await t.catalog.load(conn);
    emu.config.deployments.push({ ...limits, name: 'gpt-4o-new', model: 'gpt-4o' });
    assert.ok(!names(await t.catalog.deployments(conn)).includes('gpt-4o-new'), 'within its age the list is not fetched again');
    t.catalog.refresh('a');
    assert.deepEqual(t.events, ['a', 'a']);
    assert.deepEqual(t.catalog.state(conn), { status: 'idle' });
    assert.ok((await t.catalog.chatDeployments(conn)).some((d) => d.name === 'gpt-4o-new'));
    assert.equal(t.calls(), 2);
    t.catalog.refresh();
    assert.equal(t.events.at(-1), undefined);
    assert.deepEqual(t.catalog.state(conn), { status: 'idle' });
  });

  it("the chats' lists are fetched again once older than the maximum age; the sidebar keeps showing the old one meanwhile", async () => {
    const clock = { now: 1000 };
    const t = catalogOf([conn], clock, 500);
    close.push(t.close);
    const first = await t.catalog.deployments(conn);
    clock.now = 1499;
    assert.equal(await t.catalog.deployments(conn), first);
    assert.equal(t.calls(), 1);
    clock.now = 1500;
    emu.config.deployments.pop();
    assert.equal(emu.config.deployments.length, DEPLOYMENTS.length - 1);
    const reload = t.catalog.deployments(conn);
    assert.deepEqual(t.catalog.state(conn), { status: 'loaded', items: first }, 'the old list stays on screen while the new one comes');
    assert.equal(await t.catalog.load(conn), first);
    assert.equal(t.catalog.deployments(conn), reload, 'readers during the reload share it');
    assert.ok(!names(await reload).includes('text-embedding-3-small'));
    assert.equal(t.calls(), 2);
    assert.deepEqual(t.catalog.state(conn), { status: 'loaded', items: await reload });
    // The age counts from when the list arrived.
    clock.now = 1999;
    await t.catalog.deployments(conn);
    assert.equal(t.calls(), 2);
  });

  it('a failure is kept (no request per look) until its age runs out or a Refresh, and says what the service said', async () => {
    const clock = { now: 0 };
    const bad = { ...conn, apiKey: 'wrong' };
    const t = catalogOf([bad], clock, 1000);
    close.push(t.close);
    await assert.rejects(t.catalog.deployments(bad), (e: unknown) => e instanceof ServiceError && e.status === 401);
    const state = t.catalog.state(bad);
    assert.equal(state.status, 'error');
    assert.ok(state.status === 'error' && state.error instanceof ServiceError && state.error.status === 401);
    assert.deepEqual(t.events, ['a']);
    await assert.rejects(t.catalog.load(bad), ServiceError);
    await assert.rejects(t.catalog.deployments(bad), ServiceError);
    assert.equal(t.calls(), 1);
    clock.now = 1000;
    await assert.rejects(t.catalog.deployments(bad), ServiceError);
    assert.equal(t.calls(), 2);
    t.catalog.refresh('a');
    await assert.rejects(t.catalog.load(bad), ServiceError);
    assert.equal(t.calls(), 3);
  });

  it("one connection's failure hides none of the others' chat deployments, and is reported", async () => {
    const other = await startEmulator({ config: { deployments: [embeddings, { ...embeddings, name: 'chat', model: 'gpt-4o-mini' }] } });
    close.push(() => other.close());
    const connections = [conn, { id: 'b', endpoint: other.url, apiKey: other.apiKey }, { id: 'c', endpoint: emu.url, apiKey: 'wrong' }];
    const t = catalogOf(connections);
    close.push(t.close);
    const failed: string[] = [];
    const all = await t.catalog.everyChatDeployment((c, reason) => failed.push(`${c.id}: ${(reason as ServiceError).status}`));
    assert.deepEqual(failed, ['c: 401']);
    assert.deepEqual(
      all.map((x) => `${x.connection.id}/${x.deployment.name}`),
      ['a/gpt-4o', 'a/mini', 'a/o3-mini', 'a/gpt-5-codex', 'b/chat'],
    );
    assert.equal(all[4].connection, connections[1]);
  });

  it('a connection that is removed or changed loses its list; a list arriving after a Refresh is dropped', async () => {
    const connections = [conn, { id: 'b', endpoint: emu.url, apiKey: emu.apiKey }];
    const t = catalogOf(connections);
    close.push(t.close);
    await Promise.all(connections.map((c) => t.catalog.load(c)));
    t.events.length = 0;
    t.catalog.prune();
    assert.deepEqual(t.events, [], 'nothing changed, nothing dropped');
    const changed = { ...conn, apiKey: 'rotated' };
    connections[0] = changed;
    connections.pop();
    assert.deepEqual(t.catalog.state(changed), { status: 'idle' }, 'a changed connection never reads the list of what it was');
    t.catalog.prune();
    assert.deepEqual(t.events.sort(), ['a', 'b']);
    // A Refresh while a list is on its way: the late answer does not come back.
    t.events.length = 0;
    const late = t.catalog.load(conn);
    t.catalog.refresh('a');
    await late;
    assert.deepEqual(t.catalog.state(conn), { status: 'idle' });
    assert.deepEqual(t.events, ['a']);
    const failing = t.catalog.load({ ...conn, apiKey: 'wrong' });
    t.catalog.refresh();
    await assert.rejects(failing, ServiceError);
    assert.deepEqual(t.catalog.state({ ...conn, apiKey: 'wrong' }), { status: 'idle' });
    assert.deepEqual(t.events, ['a', undefined]);
  });

  it('a reader that stops listening hears nothing more; one listener added twice hears twice', async () => {
    const t = catalogOf([conn]);
    close.push(t.close);
    const heard: string[] = [];
    const listener = (id: string | undefined) => heard.push(String(id));
    const first = t.catalog.onDidChange(listener);
    const second = t.catalog.onDidChange(listener);
    t.catalog.refresh('a');
    assert.deepEqual(heard, ['a', 'a']);
    first.dispose();
    t.catalog.refresh('a');
    assert.deepEqual(heard, ['a', 'a', 'a']);
    second.dispose();
    t.catalog.refresh();
    assert.equal(heard.length, 3);
    assert.equal(t.events.length, 3);
  });
});

describe('deployment catalog: which deployments can chat', () => {
  const d = (model: string, more: Partial<Deployment> = {}): Deployment => ({ name: model, model, source: 'arm', ...more });

  it('chat models that are ready can; batch-only, realtime, embeddings and unfinished deployments cannot', () => {
    assert.equal(isChatDeployment(d('gpt-4o', { sku: 'GlobalStandard', provisioningState: 'Succeeded' })), true);
    // A Global-Batch or Data Zone Batch deployment takes batch jobs only: the service refuses live calls on it.
    assert.equal(isChatDeployment(d('gpt-4o-mini', { sku: 'GlobalBatch' })), false);
    assert.equal(isChatDeployment(d('gpt-4o-mini', { sku: 'DataZoneBatch' })), false);
    assert.equal(isChatDeployment(d('gpt-4o-mini', { sku: 'manual', source: 'data-plane' })), true);
    assert.equal(isChatDeployment(d('gpt-realtime')), false);
    assert.equal(isChatDeployment(d('text-embedding-3-large')), false);
    assert.equal(isChatDeployment(d('gpt-4o', { provisioningState: 'Creating' })), false);
  });
});
