import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { FixtureSendOutcome } from '../../src/vscode/fixtures/sends';
import type { ScenarioRun } from '../../src/webhooks/fixtures/order';
import type { DeliveryRecord } from '../../src/webhooks/store/records';
import { startAnsweringApp, type AnsweringApp } from '../support/answeringApp';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, execAsOurs, workbench } from './support';

const settings = () => vscode.workspace.getConfiguration('aoaiWorkbench');

/** The lenses VS Code draws on a file, ours only. */
async function ourLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const all = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return all.filter((l) => l.command?.command === 'aoaiWorkbench.sendFixture');
}

/** Clicks a lens: its command with its arguments, as VS Code runs it. */
const click = <T>(lens: vscode.CodeLens) => vscode.commands.executeCommand<T>(lens.command!.command, ...(lens.command!.arguments ?? []));

describe('webhook fixtures', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  let secret = '';
  /** The user's app (forwardTo): verifies with standardwebhooks and says which object it handled. */
  let app: AnsweringApp;
  /** Their batch handler, a second app that `batch.*` is routed to. */
  let batchApp: AnsweringApp;
  let fixturesDir = '';

  const verifying = (name: string) => (body: string, headers: Record<string, unknown>) => {
    try {
      const evt = new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: { id: string } };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app: name, handled: evt.data.id, type: evt.type }) };
    } catch {
      return { status: 401, body: 'bad signature' };
    }
  };

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Fixtures emulator', { delivery: { maxAttempts: 1, retryBaseMs: 100, timeoutMs: 3000 } }));
    app = await startAnsweringApp(verifying('main'));
    batchApp = await startAnsweringApp(verifying('batch'));
    await settings().update('webhooks.forwardTo', app.url, vscode.ConfigurationTarget.Global);
    await settings().update('webhooks.routes', { 'batch.*': batchApp.url }, vscode.ConfigurationTarget.Global);
    fixturesDir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'webhook-fixtures');
    rmSync(fixturesDir, { recursive: true, force: true });
    const res = await execAsOurs<{ endpointId: string }>('startListening', {
      connectionId: conn.id,
      endpoint: { mode: 'create', name: 'fixtures', eventTypes: ['response.completed', 'batch.completed'] },
    });
    secret = (await (await workbench()).services.store.signingSecret(conn.id, res.endpointId))!;
  });
  after(async () => {
    await settings().update('webhooks.forwardTo', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('webhooks.routes', undefined, vscode.ConfigurationTarget.Global);
    await app.close();
    await batchApp.close();
    await closeEmulatedService({ emu, client });
    rmSync(fixturesDir, { recursive: true, force: true });
  });

  /** A delivery of `type` from the emulated service, once the app's answer to its forward is kept. */
  async function delivered(type: string, id: string): Promise<DeliveryRecord> {
    const api = await workbench();
    await emitServiceEvent(emu, type, { id });
    return eventually(() => api.services.events.list().find((r) => r.eventType === type && r.body.includes(id) && r.forward), 20_000);
  }

  it("Save as Fixture from a row, the CodeLens sends it and the inspector shows the app's answer", async () => {
    const api = await workbench();
    const r = await delivered('response.completed', 'resp_fixture_1');
    assert.equal(r.forward?.status, 200, 'the app verified the delivery on arrival');
    // The row's menu item, with the row as VS Code passes it.
    const row = await eventually(() => api.eventsTree.rows().find((n) => n.record.id === r.id));
    const path = await vscode.commands.executeCommand<string>('aoaiWorkbench.saveAsFixture', row);
    assert.ok(path?.startsWith(fixturesDir), `saved in the workspace's webhook-fixtures/: ${path}`);
    const text = readFileSync(path, 'utf8');
    assert.doesNotMatch(text, /webhook-signature|v1,|whsec_/, 'no signature, no secret');
    assert.equal(JSON.parse(text).body.data.id, 'resp_fixture_1');
    const uri = vscode.Uri.file(path);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri.fsPath, 'opened in an editor');

    const lenses = await eventually(async () => ((await ourLenses(uri)).length === 4 ? ourLenses(uri) : undefined));
    assert.deepEqual(lenses.map((l) => l.command!.title), ['Send to App', 'Send Twice (same id)', 'Send with a Stale Timestamp', 'Send with Another Secret']);
    const before = app.received.length;
    const sent = await click<FixtureSendOutcome>(lenses[0]);
    assert.equal(sent?.asExpected, true);
    assert.equal(app.received.length, before + 1);
    const got = app.received.at(-1)!;
    new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    assert.notEqual(got.headers['webhook-id'], r.webhookId, 'signed afresh with a new webhook-id');
    // The inspector opens on the delivery the fixture came from, the send's answer beside the forward's.
    await eventually(() => api.services.inspector.isOpen && api.services.inspector.shownId === r.id);
    const view = api.services.inspector.viewOf(api.services.events.get(r.id)!);
    assert.deepEqual(view.answers.map((a) => [a.kind, a.status, a.fixture]), [['forward', 200, undefined], ['replay', 200, true]]);
    assert.deepEqual(JSON.parse(view.answers[1].body), { app: 'main', handled: 'resp_fixture_1', type: 'response.completed' });

    // Another secret: the sound app refuses it, which is what a correct handler does; the delivery's
    // row and inspector do not take that refusal for the app's failure.
    const stranger = await click<FixtureSendOutcome>(lenses[3]);
    assert.deepEqual([stranger?.answers.map((a) => a.status), stranger?.asExpected, stranger?.recordId], [[401], true, undefined]);
    assert.deepEqual(api.services.inspector.viewOf(api.services.events.get(r.id)!).answers.map((a) => a.status), [200, 200]);
    // Any other JSON file gets no lens.
    const other = join(fixturesDir, 'not-a-fixture.json');
    writeFileSync(other, JSON.stringify({ name: 'package', type: 'response.completed' }));
    // Opened first: VS Code asks the providers of open documents only.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(other));
    assert.deepEqual(await ourLenses(vscode.Uri.file(other)), []);
  });

  it('a batch event routed to a second app; a fixture of it follows the route', async () => {
    const api = await workbench();
    const [mainBefore, batchBefore] = [app.received.length, batchApp.received.length];
    const batch = await delivered('batch.completed', 'batch_routed_1');
    const response = await delivered('response.completed', 'resp_routed_1');
    assert.deepEqual([batch.forward?.status, batch.forward?.route], [200, 'batch.*']);
    assert.deepEqual([response.forward?.status, response.forward?.route], [200, undefined], 'the rest goes to forwardTo');
    const types = (a: AnsweringApp, from: number) => a.received.slice(from).map((x) => JSON.parse(x.body).type as string);
    assert.deepEqual(types(batchApp, batchBefore), ['batch.completed']);
    assert.deepEqual(types(app, mainBefore), ['response.completed']);
    // The inspector says which route it took.
    assert.equal(api.services.inspector.viewOf(batch).answers[0].route, 'batch.*');
    // A fixture of it follows the same route.
    const path = await execAsOurs<string>('saveAsFixture', { eventId: batch.id });
    const sent = await execAsOurs<FixtureSendOutcome>('sendFixture', { uri: vscode.Uri.file(path).toString(), variant: 'send' });
    assert.deepEqual([sent.answers[0].status, sent.answers[0].route, sent.url], [200, 'batch.*', batchApp.url]);
    assert.deepEqual(types(batchApp, batchBefore), ['batch.completed', 'batch.completed']);

    // A workspace may move the folder within itself, never out of it.
    const escape = join(fixturesDir, '..', '..', 'fixtures-escape');
    await settings().update('webhooks.fixturesFolder', '../fixtures-escape', vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(await execAsOurs('saveAsFixture', { eventId: batch.id }), undefined, 'refused');
      assert.ok(!existsSync(escape), 'nothing written outside the workspace folder');
      await settings().update('webhooks.fixturesFolder', 'webhook-fixtures/batches', vscode.ConfigurationTarget.Workspace);
      const inside = await execAsOurs<string>('saveAsFixture', { eventId: batch.id });
      assert.ok(inside.startsWith(join(fixturesDir, 'batches')), inside);
      rmSync(join(fixturesDir, 'batches'), { recursive: true, force: true });
    } finally {
      await settings().update('webhooks.fixturesFolder', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("New Fixture from Catalog names the connection's batch; Send Fixtures in Order sends the folder's fixtures by name", async () => {
    const input = join(fixturesDir, '..', 'fixture-batch-input.jsonl');
    const request = { custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: 'hi' }] } };
    writeFileSync(input, JSON.stringify(request));
    try {
      const batch = await execAsOurs<{ id: string }>('createBatch', { connectionId: conn.id, file: input, endpoint: '/v1/chat/completions' });
      const path = await execAsOurs<string>('newFixtureFromCatalog', { type: 'batch.expired' });
      const made = JSON.parse(readFileSync(path, 'utf8'));
      assert.deepEqual([made.type, made.body.type, made.body.object, made.body.data.id], ['batch.expired', 'batch.expired', 'event', batch.id]);
    } finally {
      rmSync(input, { force: true });
    }
    const [mainBefore, batchBefore] = [app.received.length, batchApp.received.length];
    const run = await execAsOurs<ScenarioRun<FixtureSendOutcome>>('sendFixturesInOrder', { folder: fixturesDir, delayMs: 0 });
    const sent = run.done.map((d) => [d.result.type, d.result.answers[0].status]);
    // batch.completed-…, batch.expired-…, response.completed-…: by name; not-a-fixture.json skipped.
    assert.deepEqual(sent, [['batch.completed', 200], ['batch.expired', 200], ['response.completed', 200]]);
    assert.equal(run.cancelled, false);
    assert.equal(batchApp.received.length - batchBefore, 2, 'the batch fixtures to the batch app');
    assert.equal(app.received.length - mainBefore, 1);
  });
});
