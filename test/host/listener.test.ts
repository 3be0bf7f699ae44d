import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { EventStore } from '../../src/webhooks/store/stores';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { EventNode } from '../../src/vscode/webhooks/eventsTree';
import { childPids } from '../support/processes';
import { startReleaseServer } from '../support/releaseServer';
import { clearConnections, closeEmulatedService, emitServiceEvent, emulatedService, eventually, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const records = async () => (await workbench()).services.events.list();
/** The extension host's child processes running the listener (Linux: read from /proc). */
const listenerProcesses = () => childPids(process.pid, (p) => p.cmdline.includes('webhook-listener'));

describe('webhook listener in VS Code', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  let endpointId: string;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Listener emulator', { responseQueuedMs: 20, responseInProgressMs: 20, delivery: { maxAttempts: 3, retryBaseMs: 100, timeoutMs: 3000 } }));
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  /** Each test stands alone (HOST_GREP can pick any one): listening starts here unless an earlier test started it. */
  async function listening(): Promise<void> {
    const api = await workbench();
    if (api.services.listener.running) return;
    const res = await exec<{ endpointId: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'vscode', eventTypes: ['response.completed', 'batch.completed'] } });
    endpointId = res!.endpointId;
  }

  it('Start listening creates an endpoint pointing at the listener, with its secret captured', async () => {
    const res = await exec<{ localUrl: string; publicUrl: string; endpointId: string }>('startListening', {
      connectionId: conn.id,
      endpoint: { mode: 'create', name: 'vscode', eventTypes: ['response.completed', 'batch.completed'] },
    });
    assert.ok(res?.endpointId);
    endpointId = res.endpointId;
    assert.match(res.localUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(res.publicUrl, res.localUrl, 'a local service needs no tunnel');
    const api = await workbench();
    assert.match((await api.services.store.signingSecret(conn.id, endpointId)) ?? '', /^whsec_/);
    const listed = await client.listWebhookEndpointsPage();
    assert.equal(listed.data.find((e) => e.id === endpointId)?.url, `${res.publicUrl}/webhook`);
  });

  it('a background response\'s delivery shows verified in the Events view and the output channel', async () => {
    await listening();
    const resp = await client.createResponse({ model: 'gpt-4o', input: 'notify me', background: true });
    const r = await eventually(async () => (await records()).find((x) => x.eventType === 'response.completed'));
    assert.equal(r.verdict, 'verified');
    assert.equal(r.endpointId, endpointId);
    const api = await workbench();
    const rows = api.eventsTree.rows();
    assert.equal(rows[0].record.id, r.id, 'newest first');
    assert.match(String(api.eventsTree.getTreeItem(rows[0]).description), /verified/);
    // The tooltip is made when the pointer rests on the row (VS Code asks resolveTreeItem then).
    const tooltip = api.eventsTree.resolveTreeItem(api.eventsTree.getTreeItem(rows[0]), rows[0]).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /response\\\.completed/, 'the event type shows, escaped');
    assert.ok(!tooltip.isTrusted && !tooltip.supportHtml, 'the tooltip runs no command link and renders no HTML');
    const doc = await exec<string>('openEventPayload', { eventId: r.id });
    assert.equal(JSON.parse(doc!).data.id, resp.id);
    const fetched = await exec<{ id: string; status: string }>('fetchEventResponse', { eventId: r.id, quiet: true });
    assert.deepEqual([fetched?.id, fetched?.status], [resp.id, 'completed']);
    await eventually(() => settingsAndLogFiles().some((f) => /response\.completed .* VERIFIED/.test(readFileSync(f, 'utf8'))));
    assert.ok(api.services.listener.running);
  });

  it('replays re-signed: with the same webhook-id it is a duplicate, counted on its row, with a new one it is verified', async () => {
    const original = (await records()).find((x) => x.eventType === 'response.completed')!;
    const rowsBefore = (await records()).length;
    assert.deepEqual(await exec('replayEvent', { eventId: original.id, keepWebhookId: true }), { status: 200 });
    const counted = await eventually(async () => (await records()).find((x) => x.id === original.id && x.duplicates?.count === 1));
    assert.equal((await records()).length, rowsBefore, 'a duplicate takes no row of its own');
    const api = await workbench();
    const row = await eventually(() => api.eventsTree.rows().find((n: EventNode) => n.record.id === original.id && n.record.duplicates));
    assert.match(String(api.eventsTree.getTreeItem(row).description), /^verified \(\+1 duplicate\)/, 'the row says it arrived again');
    assert.equal(counted.verdict, 'verified');
    const before = (await records()).length;
    assert.deepEqual(await exec('replayEvent', { eventId: original.id, keepWebhookId: false }), { status: 200 });
    const fresh = await eventually(async () => ((await records()).length > before ? (await records())[0] : undefined));
    assert.equal(fresh.verdict, 'verified');
    const curl = await exec<string>('copyEventAsCurl', { eventId: original.id });
    assert.match(curl ?? '', /^curl -X POST '.*\/webhook'/);
    assert.equal(await vscode.env.clipboard.readText(), curl);
  });

  it('one Send Test Event gives one row: the service signs it and delivers it through its test route', async () => {
    await listening();
    const sent = (type: string) => records().then((all) => all.filter((x) => x.eventType === type));
    const deliveredBefore = emu.deliveries().length;
    const res = await exec<{ status: number; sentBy: string }>('sendTestEvent', { eventType: 'batch.completed' });
    assert.deepEqual(res, { status: 200, sentBy: 'service' });
    // The listener's process hands its verdicts to the host in batches: the row follows within one (20 ms).
    const rows = await eventually(async () => {
      const r = await sent('batch.completed');
      return r.length ? r : undefined;
    });
    assert.equal(rows.length, 1, 'one test event, one row');
    assert.deepEqual([rows[0].verdict, rows[0].endpointId], ['verified', endpointId]);
    assert.equal(emu.deliveries().length, deliveredBefore + 1, 'the service delivered it once');
  });

  it('a burst of deliveries: every one in the Events view; the log shows the first lines of each second and counts the rest', async () => {
    await listening();
    const webhooksLog = () => settingsAndLogFiles().find((f) => f.includes('Azure OpenAI Webhooks'));
    const logFile = await eventually(webhooksLog);
    const logged = readFileSync(logFile, 'utf8').length;
    const before = (await records()).length;
    const BURST = 60;
    await Promise.all(Array.from({ length: BURST }, (_, i) => emitServiceEvent(emu, 'response.completed', { id: `resp_burst_${i}` })));
    await eventually(async () => (await records()).length >= before + BURST);
    // Each window's count comes when its second ends.
    const counts = await eventually(() => {
      const added = readFileSync(logFile, 'utf8').slice(logged);
      const counted = [...added.matchAll(/(\d+) more deliveries in the last second, not logged one by one/g)].map((m) => Number(m[1]));
      const oneByOne = added.match(/response\.completed \S+ webhook-id=\S+ VERIFIED/g)?.length ?? 0;
      return counted.length && oneByOne + counted.reduce((a, b) => a + b, 0) === BURST ? { counted, oneByOne } : undefined;
    });
    // A second's first lines may have gone to the deliveries before the burst.
    assert.ok(counts.oneByOne > 0 && counts.oneByOne < BURST, `${counts.oneByOne} lines one by one`);
  });

  it('a delivery signed with another secret is rejected and shown with the reason', async () => {
    await listening();
    const api = await workbench();
    const body = JSON.stringify({ object: 'event', id: 'evt_bad', type: 'batch.failed', created_at: 1, data: {} });
    const { signedHeaders, generateSecret } = await import('../../src/webhooks/signature');
    const res = await fetch(`${api.services.listener.state!.localUrl}/webhook`, { method: 'POST', headers: signedHeaders(generateSecret(), 'msg_bad', body), body });
    assert.equal(res.status, 400);
    const r = await eventually(async () => (await records()).find((x) => x.webhookId === 'msg_bad'));
    assert.equal(r.verdict, 'rejected');
    assert.match(r.reason ?? '', /Signature mismatch/);
    // What the user sees in the Webhook Events view: the reason in the row's tooltip, and a
    // rejection icon in the error colour, never the verified tick.
    const row = api.eventsTree.rows().find((n) => (n as EventNode).record?.id === r.id) as EventNode;
    const item = api.eventsTree.getTreeItem(row);
    const tooltip = (api.eventsTree.resolveTreeItem(item, row).tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /Signature mismatch/, 'the tooltip says why it was rejected');
    const icon = item.iconPath as vscode.ThemeIcon;
    assert.notEqual(icon.id, 'pass', 'a rejected delivery never shows the verified icon');
    assert.match(icon.color?.id ?? '', /error/i);
  });

  it('filters by verdict, and keeps every event on disk for the next session', async () => {
    const api = await workbench();
    await exec('filterEvents', { verdicts: ['rejected'] });
    const shown = api.eventsTree.rows();
    assert.ok(shown.length >= 1 && shown.every((n: EventNode) => n.record.verdict === 'rejected'));
    await exec('filterEvents', { types: ['batch.completed'], verdicts: [] });
    assert.ok(api.eventsTree.rows().every((n: EventNode) => n.record.eventType === 'batch.completed'));
    await exec('filterEvents', {});
    assert.equal(api.eventsTree.rows().length, api.services.events.list().length);
    await api.services.events.flush();
    const reloaded = await new EventStore(join(api.services.context.globalStorageUri.fsPath, 'webhook-events.jsonl')).load();
    assert.deepEqual(reloaded.map((r) => r.id), api.services.events.list().map((r) => r.id));
  });

  it('after a reload cut listening off, the view says so, and Listen Again points the same endpoint at the new listener', async () => {
    const api = await workbench();
    const before = api.services.listener.state!;
    assert.equal(api.eventsView.message, `Listening at ${before.publicUrl}/webhook for "Listener emulator".`, 'the whole URL, in a message that wraps');
    // What deactivating does when the window reloads.
    await api.services.listener.stop(true);
    await eventually(() => /^Not listening since the window reloaded: new deliveries for "Listener emulator" are not received\.$/.test(api.eventsView.message ?? ''));
    await exec('resumeListening');
    const now = api.services.listener.state!;
    assert.equal((await client.listWebhookEndpointsPage()).data.find((e) => e.id === endpointId)?.url, `${now.publicUrl}/webhook`);
    assert.equal(now.createdEndpointId, endpointId, 'the endpoint Start Listening created is still offered for deletion on stop');
    await eventually(() => api.eventsView.message === `Listening at ${now.publicUrl}/webhook for "Listener emulator".`);
    assert.deepEqual(await exec('sendTestEvent', { eventType: 'response.completed' }), { status: 200, sentBy: 'service' });
    assert.equal(api.services.listener.interrupted, undefined, 'listening again: nothing to offer');
  });

  it('a listener process killed from outside: listening stops and the output says why; Start Listening listens again', async () => {
    await listening();
    const api = await workbench();
    const oldUrl = api.services.listener.state!.localUrl;
    // The listener's process is this extension host's child (dist/webhook-listener.js), not the host itself.
    const child = listenerProcesses();
    assert.equal(child.length, 1, 'one listener process, a child of the extension host');
    process.kill(child[0], 'SIGKILL');
    await eventually(() => !api.services.listener.running || undefined, undefined, 'listening to stop');
    const log = await eventually(() => settingsAndLogFiles().find((f) => f.includes('Azure OpenAI Webhooks')));
    await eventually(() => /ended unexpectedly \(signal SIGKILL\)/.test(readFileSync(log, 'utf8')) || undefined, undefined, 'the output line');
    assert.ok((await fetch(oldUrl).catch((e: Error) => e)) instanceof Error, 'nothing listens at the old port');
    await listening();
    assert.notEqual(listenerProcesses()[0], child[0], 'a new process');
    await emitServiceEvent(emu, 'response.completed', { id: 'resp_after_restart' });
    const r = await eventually(async () => (await records()).find((x) => x.body.includes('resp_after_restart')));
    assert.equal(r.verdict, 'verified');
  });

  it('Stop listening stops the listener and can delete the endpoint it created', async () => {
    const api = await workbench();
    const url = api.services.listener.state!.localUrl;
    assert.equal(await exec('stopListening', { deleteEndpoint: true }), true);
    assert.equal(api.services.listener.running, false);
    await eventually(() => api.eventsView.message === 'Not listening: new deliveries are not received.');
    await exec('resumeListening');
    assert.equal(api.services.listener.running, false, 'a stop the user asked for is not offered for resuming');
    assert.ok((await fetch(url).catch((e: Error) => e)) instanceof Error, 'nothing listens any more');
    assert.ok(!(await client.listWebhookEndpointsPage()).data.some((e) => e.id === endpointId));
  });
});


describe('webhook listener behind a real tunnel in VS Code', function () {
  // The runner (scripts/host/run-tests.mjs) starts a localtunnel server on loopback.
  const tunnelServer = process.env.AOAI_TEST_LOCALTUNNEL;
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  const settings = () => vscode.workspace.getConfiguration('aoaiWorkbench');

  before(async function () {
    if (!tunnelServer) this.skip();
    emu = await startEmulator({ config: { responseQueuedMs: 20, responseInProgressMs: 20 } });
    await clearConnections();
    conn = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'Tunnel emulator' }))!;
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    await settings().update('tunnel.localtunnelHost', tunnelServer, vscode.ConfigurationTarget.Global);
    await settings().update('tunnel.localtunnelSubdomain', 'vscodehost', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    if (!tunnelServer) return;
    await exec('stopListening', { deleteEndpoint: false });
    await settings().update('tunnel.localtunnelHost', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tunnel.localtunnelSubdomain', undefined, vscode.ConfigurationTarget.Global);
    await client.close();
    await clearConnections();
    await emu.close();
  });

  it('Start listening opens the tunnel and points a new endpoint at its public URL; the service\'s delivery comes through it verified', async () => {
    const res = await exec<{ localUrl: string; publicUrl: string; endpointId: string }>('startListening', {
      connectionId: conn.id,
      provider: 'localtunnel',
      endpoint: { mode: 'create', name: 'through the tunnel', eventTypes: ['response.completed'] },
    });
    const port = new URL(tunnelServer!).port;
    assert.equal(res?.publicUrl, `http://vscodehost.localhost:${port}`);
    assert.match(res.localUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await client.listWebhookEndpointsPage()).data.find((e) => e.id === res.endpointId)?.url, `${res.publicUrl}/webhook`);
    const resp = await client.createResponse({ model: 'gpt-4o', input: 'via the tunnel', background: true });
    const r = await eventually(async () => (await records()).find((x) => x.eventType === 'response.completed' && x.endpointId === res.endpointId));
    assert.equal(r.verdict, 'verified');
    assert.equal(JSON.parse(r.body).data.id, resp.id);
    // The emulator saw the listener's 200 come back through the tunnel.
    const delivery = await eventually(() => emu.deliveries().find((d) => d.endpointId === res.endpointId && d.state === 'delivered'));
    assert.equal(delivery.attempts.at(-1)?.status, 200);
  });

  it('a test event goes out from the service to the public URL and back in through the tunnel', async () => {
    const before = (await records()).length;
    assert.deepEqual(await exec('sendTestEvent', { eventType: 'response.failed' }), { status: 200, sentBy: 'service' });
    const all = await eventually(async () => {
      const r = await records();
      return r.length > before ? r : undefined;
    });
    assert.equal(all.length, before + 1, 'one test event, one row');
    assert.deepEqual([all[0].eventType, all[0].verdict], ['response.failed', 'verified']);
    const delivery = emu.deliveries().find((d) => d.eventType === 'response.failed' && d.url.startsWith('http://vscodehost.localhost'));
    assert.ok(delivery, 'the service delivered to the tunnel URL');
    assert.equal(delivery.attempts.at(-1)?.status, 200);
  });

  it('Stop listening closes the tunnel too', async () => {
    const api = await workbench();
    const publicUrl = api.services.listener.state!.publicUrl;
    assert.equal(await exec('stopListening', { deleteEndpoint: true }), true);
    const { webhookTransport } = await import('../../src/webhooks/send/outbound');
    // The tunnel server holds requests for a moment in case its client comes back, then says 404.
    const status = await eventually(async () => {
      const r = await webhookTransport.request(`${publicUrl}/webhook`, { method: 'POST', body: '{}', headersTimeout: 2_000 }).catch(() => undefined);
      await r?.body.dump();
      return r && r.statusCode !== 200 ? r.statusCode : undefined;
    }, 15_000);
    assert.equal(status, 404, 'nothing answers behind the public URL any more');
  });
});

describe('cloudflared downloaded on consent in VS Code', function () {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let releases: Awaited<ReturnType<typeof startReleaseServer>>;
  const settings = () => vscode.workspace.getConfiguration('aoaiWorkbench');
  /** Child processes of this extension host running `sleep` (what the stand-in becomes). */
  const standinPids = () => childPids(process.pid, (p) => p.comm === 'sleep');

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    await workbench();
    // From the checkout (dist/test/host → test/fixtures): the installed package has no fixtures.
    const standin = readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tunnels', 'cloudflared-standin.sh'));
    releases = await startReleaseServer(standin);
    // The stand-in is not Cloudflare's build: its checksum is the one to expect (same process as the extension).
    process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256 = createHash('sha256').update(standin).digest('hex');
    await settings().update('tunnel.cloudflaredDownloadUrl', `${releases.url}/releases`, vscode.ConfigurationTarget.Global);
    emu = await startEmulator({});
    await clearConnections();
    conn = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: emu.apiKey, label: 'Cloudflare emulator' }))!;
  });
  after(async () => {
    if (process.platform !== 'linux') return;
    await exec('stopListening', { deleteEndpoint: false });
    await exec('deleteCloudflared');
    await settings().update('tunnel.cloudflaredDownloadUrl', undefined, vscode.ConfigurationTarget.Global);
    delete process.env.AOAI_WORKBENCH_CLOUDFLARED_SHA256;
    await releases.close();
    await clearConnections();
    await emu.close();
  });

  it('declined: nothing is downloaded and listening does not start', async () => {
    const api = await workbench();
    const res = await exec('startListening', { connectionId: conn.id, provider: 'cloudflared', downloadCloudflared: false, endpoint: { mode: 'skip' } });
    assert.equal(res, undefined);
    assert.equal(api.services.listener.running, false);
    assert.deepEqual(releases.requests, [], 'not one request to the download site');
    assert.ok(!existsSync(join(api.services.listener.storageDir, 'cloudflared')));
  });

  it('agreed: downloaded into global storage, run as the tunnel, and stopped with the listener', async () => {
    const api = await workbench();
    const res = await exec<{ publicUrl: string }>('startListening', { connectionId: conn.id, provider: 'cloudflared', downloadCloudflared: true, endpoint: { mode: 'skip' } });
    assert.equal(res?.publicUrl, 'https://marble-kinds-sunset-retreat.trycloudflare.com');
    assert.ok(existsSync(join(api.services.listener.storageDir, 'cloudflared', 'cloudflared')));
    assert.equal(standinPids().length, 1, 'cloudflared runs');
    await eventually(() => settingsAndLogFiles().some((f) => /Downloaded cloudflared 2026\.6\.1 \(\d+ bytes, SHA-256 [0-9a-f]{64}\)/.test(readFileSync(f, 'utf8'))));
    assert.equal(await exec('stopListening', { deleteEndpoint: false }), true);
    await eventually(() => standinPids().length === 0 || undefined);
    // Next time it is found without asking.
    const again = await exec<{ publicUrl: string }>('startListening', { connectionId: conn.id, provider: 'cloudflared', endpoint: { mode: 'skip' } });
    assert.equal(again?.publicUrl, res.publicUrl);
    assert.equal(releases.requests.filter((r) => r.startsWith('/assets/')).length, 1, 'downloaded once');
    await exec('stopListening', { deleteEndpoint: false });
    assert.equal(await exec('deleteCloudflared'), true);
    assert.ok(!existsSync(join(api.services.listener.storageDir, 'cloudflared')));
  });
});
