/**
 * The "Azure OpenAI Webhooks" debug type in the real host: a session starts the listener (behind
 * the loopback localtunnel server the runner provides), points an endpoint at it, forwards the
 * service's deliveries to the app, and stopping the session undoes all of it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { checkDebugConfig, DEBUG_CONSENTS_KEY, debugConsentKey, pickConnection } from '../../src/webhooks/session/debugConfig';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { startAnsweringApp, type AnsweringApp } from '../support/answeringApp';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('debugging with webhooks (debug type azure-openai-webhooks)', () => {
  const tunnelServer = process.env.AOAI_TEST_LOCALTUNNEL;
  const settings = () => vscode.workspace.getConfiguration('aoaiWorkbench');
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let app: AnsweringApp;

  before(async () => {
    ({ emu, client } = await emulatedService('Debug emulator'));
    app = await startAnsweringApp([{ status: 202, body: 'taken' }]);
    if (tunnelServer) {
      await settings().update('tunnel.localtunnelHost', tunnelServer, vscode.ConfigurationTarget.Global);
      await settings().update('tunnel.localtunnelSubdomain', 'debughooks', vscode.ConfigurationTarget.Global);
    }
  });
  after(async () => {
    await settings().update('tunnel.localtunnelHost', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tunnel.localtunnelSubdomain', undefined, vscode.ConfigurationTarget.Global);
    await app.close();
    await closeEmulatedService({ emu, client });
  });

  type Started = { ok: boolean; session?: vscode.DebugSession };

  /** The user's yes to a configuration, as the first-use question records it (a test cannot click a modal). */
  async function agree(config: Record<string, unknown>): Promise<void> {
    const api = await workbench();
    const checked = checkDebugConfig({ name: 'Hooks', ...config });
    const conn = checked.ok && pickConnection(api.services.store.list(), checked.config.connection);
    if (!checked.ok || !conn || typeof conn === 'string') return;
    const state = api.services.context.globalState;
    await state.update(DEBUG_CONSENTS_KEY, [...(state.get<string[]>(DEBUG_CONSENTS_KEY) ?? []), debugConsentKey(checked.config, conn.id)]);
  }

  /** Starts a session (agreed to first) and waits until VS Code has it. */
  async function start(config: Record<string, unknown>, folder?: vscode.WorkspaceFolder, name?: string): Promise<Started> {
    let session: vscode.DebugSession | undefined;
    const sub = vscode.debug.onDidStartDebugSession((s) => (session = s));
    try {
      await agree(config);
      const ok = await vscode.debug.startDebugging(folder, name ?? ({ type: 'azure-openai-webhooks', request: 'launch', name: 'Hooks', ...config } as vscode.DebugConfiguration));
      return { ok, session };
    } finally {
      sub.dispose();
    }
  }

  it('starts listener and tunnel with the session, forwards the service\'s delivery to the app, and undoes everything when it stops', async function () {
    if (!tunnelServer) this.skip();
    const api = await workbench();
    const { ok, session } = await start({ forwardTo: app.url, eventTypes: ['batch.completed'], tunnel: 'localtunnel' });
    assert.equal(ok, true);
    const state = await eventually(() => api.services.listener.state);
    assert.equal(state.provider, 'localtunnel');
    assert.match(state.publicUrl, /^http:\/\/debughooks\.localhost:\d+$/);
    const endpoint = await eventually(async () => (await client.listWebhookEndpointsPage()).data.find((e) => e.url === `${state.publicUrl}/webhook`));
    assert.deepEqual(endpoint.event_types, ['batch.completed']);
    assert.equal(api.services.listener.forwardTarget(), app.url);

    // The service delivers through the tunnel; the listener verifies it and the app gets it.
    const before = app.received.length;
    await emitServiceEvent(emu, 'batch.completed', { id: 'batch_dbg' });
    const r = await eventually(() => api.services.events.list().find((x) => x.endpointId === endpoint.id && x.forward));
    assert.equal(r.verdict, 'verified');
    assert.equal(r.forward?.status, 202);
    assert.equal(app.received.length, before + 1);
    assert.match(app.received.at(-1)!.body, /batch_dbg/);

    await vscode.debug.stopDebugging(session);
    await eventually(() => !api.services.listener.running || undefined);
    assert.equal(api.services.listener.forwardTarget(), undefined, 'the app is no longer forwarded to');
    await eventually(async () => !(await client.listWebhookEndpointsPage()).data.some((e) => e.id === endpoint.id) || undefined);
  });

  it('points an existing endpoint at the listener for the session and puts its URL back after; a running listener stays running', async () => {
    const api = await workbench();
    const conn = api.services.store.list()[0];
    const existing = await api.services.endpoints.create(conn, { name: 'prod', url: 'https://app.example.com/hooks', event_types: ['batch.completed'] });
    await exec('startListening', { connectionId: conn.id, endpoint: { mode: 'skip' } });
    const { ok, session } = await start({ forwardTo: 9, endpoint: existing.id, connection: 'Debug emulator' });
    assert.equal(ok, true);
    const local = api.services.listener.state!.publicUrl;
    await eventually(async () => (await client.listWebhookEndpointsPage()).data.find((e) => e.id === existing.id && e.url === `${local}/webhook`));
    assert.equal(api.services.listener.forwardTarget(), 'http://localhost:9/webhook');
    await vscode.debug.stopDebugging(session);
    await eventually(async () => (await client.listWebhookEndpointsPage()).data.find((e) => e.id === existing.id && e.url === 'https://app.example.com/hooks'));
    assert.equal(api.services.listener.running, true, 'it was running before the session');
    await exec('stopListening', { deleteEndpoint: false });
    await api.services.endpoints.delete(conn, existing.id);
  });

  it('a configuration with a mistake does not start, a launch failing part way is undone, and nothing is left behind', async () => {
    const api = await workbench();
    const endpointsBefore = (await client.listWebhookEndpointsPage()).data.length;
    assert.equal((await start({ forwardTo: 'ftp://nope' })).ok, false);
    // A launch that fails is shown by VS Code in a dialog with the adapter's message.
    await assert.rejects(start({ forwardTo: 3000, connection: 'Nobody' }), /No connection is called or points at "Nobody"\. Connections: "Debug emulator"/);
    // A failure part way (the listener started, the endpoint named is not there): what started is stopped.
    await assert.rejects(start({ forwardTo: 3000, endpoint: 'we_missing' }), /No webhook endpoint "we_missing" on "Debug emulator"/);
    assert.equal(api.services.listener.running, false);
    assert.equal((await client.listWebhookEndpointsPage()).data.length, endpointsBefore);
  });

  it("a workspace launch.json forwards only to this machine: one aimed elsewhere starts nothing; one agreed to runs and forwards to its own app", async () => {
    const api = await workbench();
    const conn = api.services.store.list()[0];
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('the runner opens a workspace folder');
    const dir = join(folder.uri.fsPath, '.vscode');
    const existing = await api.services.endpoints.create(conn, { name: 'prod', url: 'https://app.example.com/prod', event_types: ['batch.completed'] });
    const elsewhere = { type: 'azure-openai-webhooks', request: 'launch', name: 'Repo elsewhere', forwardTo: 'https://attacker.example/hooks', endpoint: existing.id };
    const local = { type: 'azure-openai-webhooks', request: 'launch', name: 'Repo local', forwardTo: app.url, eventTypes: ['batch.completed'] };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'launch.json'), JSON.stringify({ version: '0.2.0', configurations: [elsewhere, local] }, null, 2));
    try {
      await eventually(() => (vscode.workspace.getConfiguration('launch', folder.uri).get<unknown[]>('configurations')?.length === 2 ? true : undefined));
      // Even agreed to, a host that is not this machine is refused before anything starts.
      assert.equal((await start(elsewhere, folder, 'Repo elsewhere')).ok, false);
      assert.equal(api.services.listener.running, false, 'no listener, no tunnel');
      assert.equal((await client.listWebhookEndpointsPage()).data.find((e) => e.id === existing.id)?.url, 'https://app.example.com/prod', 'the endpoint is untouched');
      const { ok, session } = await start(local, folder, 'Repo local');
      assert.equal(ok, true);
      const created = await eventually(async () => (await client.listWebhookEndpointsPage()).data.find((e) => e.name === 'VS Code debug: Repo local'));
      assert.equal(api.services.listener.forwardTarget({ endpointId: created.id }), app.url, "the session's own app");
      // The inspector's replay of a delivery the session got goes to the session's app, not to the user's setting.
      await settings().update('webhooks.forwardTo', 'http://127.0.0.1:9/setting', vscode.ConfigurationTarget.Global);
      const before = app.received.length;
      await emitServiceEvent(emu, 'batch.completed', { id: 'batch_launch' });
      const r = await eventually(() => api.services.events.list().find((x) => x.endpointId === created.id && x.forward));
      assert.equal(api.services.inspector.open(r.id)?.appUrl, app.url, 'the inspector says where replays go');
      await api.services.inspector.receive({ type: 'replay', eventId: r.id });
      await eventually(() => (app.received.length === before + 2 ? true : undefined));
      assert.equal(api.services.events.get(r.id)?.replays?.at(-1)?.url, app.url);
      await vscode.debug.stopDebugging(session);
      await eventually(() => !api.services.listener.running || undefined);
      await eventually(async () => !(await client.listWebhookEndpointsPage()).data.some((e) => e.id === created.id) || undefined);
    } finally {
      await settings().update('webhooks.forwardTo', undefined, vscode.ConfigurationTarget.Global);
      rmSync(dir, { recursive: true, force: true });
      await api.services.endpoints.delete(conn, existing.id);
    }
  });
});
