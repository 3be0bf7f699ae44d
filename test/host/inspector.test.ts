import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { DeliveryView, InspectorHostMessage } from '../../src/webhooks/inspect/inspectorProtocol';
import { signedHeaders } from '../../src/webhooks/signature';
import { fixtureOf, serializeFixture } from '../../src/webhooks/fixtures/format';
import type { HandlerReport } from '../../src/webhooks/fixtures/handlerCheck';
import { startAnsweringApp, type AnsweringApp } from '../support/answeringApp';
import { closeEmulatedService, emulatedService, eventually, EXTENSION_ID, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const settings = () => vscode.workspace.getConfiguration('aoaiWorkbench');

describe('delivery inspector', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;
  let app: AnsweringApp;
  let secret: string;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Inspector emulator', { responseQueuedMs: 20, responseInProgressMs: 20, delivery: { maxAttempts: 1, retryBaseMs: 100, timeoutMs: 3000 } }));
    // The user's app: its verifier is broken at first (401 to everything), then it verifies with standardwebhooks.
    let broken = true;
    app = await startAnsweringApp((body, headers) => {
      if (broken) return { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid signature"}' };
      try {
        const evt = new Webhook(secret).verify(body, headers as Record<string, string>) as { data: { id: string; note?: string } };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handled: evt.data.id, note: evt.data.note }) };
      } catch {
        return { status: 400, body: 'bad signature' };
      }
    });
    fixApp = () => (broken = false);
    await settings().update('webhooks.forwardTo', app.url, vscode.ConfigurationTarget.Global);
  });
  let fixApp = () => {};
  after(async () => {
    await settings().update('webhooks.forwardTo', undefined, vscode.ConfigurationTarget.Global);
    await app.close();
    await closeEmulatedService({ emu, client });
  });

  it("shows a received delivery with its trace and the app's answer, highlighted in the tree when the app refused it", async () => {
    const res = await exec<{ endpointId: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'inspected', eventTypes: ['response.completed'] } });
    const api = await workbench();
    secret = (await api.services.store.signingSecret(conn.id, res!.endpointId))!;
    const resp = await client.createResponse({ model: 'gpt-4o', input: 'inspect me', background: true });
    const r = await eventually(() => api.services.events.list().find((x) => x.eventType === 'response.completed' && x.forward));
    assert.equal(r.forward?.status, 401);

    // The row: type, then the verdict and the app's answer before the time; a warning icon in the error colour.
    const row = api.eventsTree.rows().find((n) => n.record.id === r.id)!;
    const item = api.eventsTree.getTreeItem(row);
    assert.equal(item.label, 'response.completed');
    assert.match(String(item.description), /^verified → 401 · /);
    const icon = item.iconPath as vscode.ThemeIcon;
    assert.deepEqual([icon.id, icon.color?.id], ['warning', 'list.errorForeground']);
    assert.equal(item.command?.command, 'aoaiWorkbench.inspectEvent', 'clicking the row opens the inspector');

    const posted: InspectorHostMessage[] = [];
    api.services.inspector.onDidPost((m) => posted.push(m));
    const view = await exec<DeliveryView>('inspectEvent', { eventId: r.id });
    assert.ok(view && api.services.inspector.isOpen);
    assert.deepEqual([view.title, view.verdict, view.method, view.path, view.responseId, view.replayable], ['response.completed', 'verified', 'POST', '/webhook', resp.id, true]);
    assert.ok(view.headers.some((h) => h.name === 'webhook-signature'), 'every header');
    assert.equal(JSON.parse(view.body).data.id, resp.id);
    assert.deepEqual(view.trace?.tried.map((t) => [t.endpoint, t.matched]), [[`inspected (${res!.endpointId})`, true]]);
    assert.ok(view.trace!.skewSeconds! >= 0 && view.trace!.skewSeconds! <= view.trace!.toleranceSeconds);
    assert.deepEqual(view.answers.map((a) => [a.kind, a.status, a.ok, a.body]), [['forward', 401, false, '{"error":"invalid signature"}']]);
    assert.equal(view.diagnoses[0]?.cause, 'app-verifier', "the doctor points at the app's own check");
    assert.ok(!JSON.stringify(view).includes(secret) && !JSON.stringify(posted).includes(secret), 'never the secret');
    // The page is locked down: a nonce for the one script, nothing inline, nothing remote.
    const html = api.services.inspector.html!;
    assert.match(html, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|https?:\/\/(?!.*vscode)/);
    // What the page loads is in the installed package.
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri.fsPath;
    for (const f of ['media/controls.css', 'media/inspector.css', 'dist/webview/inspector.js', 'dist/codicons/codicon.css']) assert.ok(existsSync(join(root, f)), `${f} is packaged`);
  });

  it("edit and replay reaches the app re-signed; the new answer shows beside the old", async () => {
    const api = await workbench();
    fixApp();
    const r = api.services.events.list().find((x) => x.eventType === 'response.completed')!;
    const posted: InspectorHostMessage[] = [];
    const sub = api.services.inspector.onDidPost((m) => posted.push(m));
    const edited = JSON.stringify({ ...JSON.parse(r.body), data: { ...JSON.parse(r.body).data, note: 'edited in the inspector' } });
    // As the page sends it (validated by the protocol on arrival).
    await api.services.inspector.receive({ type: 'replay', eventId: r.id, body: edited });
    sub.dispose();
    const got = app.received.at(-1)!;
    assert.equal(got.body, edited);
    new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    assert.notEqual(got.headers['webhook-id'], r.webhookId, 'a new webhook-id');
    const shown = posted.filter((m): m is Extract<InspectorHostMessage, { type: 'show' }> => m.type === 'show').at(-1)!.delivery;
    assert.deepEqual(shown.answers.map((a) => [a.kind, a.status, a.edited]), [['forward', 401, false], ['replay', 200, true]]);
    assert.match(shown.answers[1].body, /edited in the inspector/);
    assert.deepEqual(shown.diagnoses, [], 'the app took it: nothing to diagnose');
    const item = api.eventsTree.getTreeItem(api.eventsTree.rows().find((n) => n.record.id === r.id)!);
    assert.match(String(item.description), /^verified → 200 · /);
    // Invalid messages are dropped, not acted on.
    const before = app.received.length;
    await api.services.inspector.receive({ type: 'replay', eventId: r.id, body: 42 });
    await api.services.inspector.receive({ type: 'replay' });
    assert.equal(app.received.length, before);
  });

  it('copy as curl carries a fresh signature, not the secret', async () => {
    const api = await workbench();
    const r = api.services.events.list().find((x) => x.eventType === 'response.completed')!;
    await api.services.inspector.receive({ type: 'copyCurl', eventId: r.id });
    const curl = await vscode.env.clipboard.readText();
    assert.match(curl, new RegExp(`^curl -X POST '${app.url}'`));
    assert.match(curl, /webhook-signature: v1,/);
    assert.ok(!curl.includes(secret) && !curl.includes(secret.slice(6)));
  });

  it("Check My Webhook Verifier: the app, verifying with standardwebhooks now, takes the signed delivery and refuses the tampered and stale ones", async () => {
    const before = app.received.length;
    const report = await exec<{ sound: boolean; summary: string; results: Array<{ probe: string; passed: boolean }> }>('checkVerifier', { url: app.url });
    assert.equal(report?.sound, true, report?.summary);
    assert.deepEqual(report.results.map((r) => [r.probe, r.passed]), [['signed', true], ['tampered', true], ['stale', true]]);
    assert.equal(app.received.length, before + 3);
  });

  it('Check My Handler on an open fixture: six checks against the app, the report beside it; Copy as Test writes a node:test file', async () => {
    const api = await workbench();
    const dir = await mkdtemp(join(tmpdir(), 'handler-'));
    const fixture = fixtureOf('response.completed', JSON.stringify({ object: 'event', id: 'evt_fx', type: 'response.completed', created_at: 1, data: { id: 'resp_fx' } }), {});
    const file = vscode.Uri.file(join(dir, 'response.completed.json'));
    await writeFile(file.fsPath, serializeFixture(fixture));
    await vscode.window.showTextDocument(file);
    const before = app.received.length;
    const report = await exec<HandlerReport>('checkHandler', { url: app.url, endpointId: api.services.listener.state?.endpointId });
    const outcomes = report?.results.map((r) => [r.check, r.outcome]);
    // The app answers {"handled": …} to the repeat too: it says it processed it again.
    assert.deepEqual(outcomes, [['valid', 'pass'], ['duplicate', 'fail'], ['stale', 'pass'], ['wrongSecret', 'pass'], ['tampered', 'pass'], ['burst', 'pass']], report?.summary);
    assert.equal(app.received.length, before + 26, 'each check sent once');
    const shown = await eventually(() => vscode.window.visibleTextEditors.find((e) => e.document.getText().startsWith('# Check My Handler')));
    assert.match(shown.document.getText(), /## ❌ The same webhook-id twice/);
    const path = await exec<string>('copyFixtureAsTest', { uri: file.toString(), path: join(dir, 'response.completed.webhook.test.mjs'), runner: 'node', url: app.url });
    assert.equal(path, join(dir, 'response.completed.webhook.test.mjs'));
    assert.match(await readFile(path, 'utf8'), /import \{ Webhook \} from 'standardwebhooks';/);
    await eventually(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === path));
    await rm(dir, { recursive: true, force: true });
  });

  it("Open conversation: a background reply's response.completed delivery leads back to the chat it came from", async () => {
    const api = await workbench();
    const opened = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
    const chat = api.services.chat.panel(opened!.conversationId)!;
    await chat.receive({ type: 'setParams', params: { background: true } });
    await chat.receive({ type: 'send', text: 'tell me when done' });
    await chat.idle();
    const reply = chat.conversation.turns.at(-1)!;
    assert.equal(reply.backgroundStatus, 'completed', reply.error?.message);
    const event = await eventually(() => api.services.events.list().find((x) => x.eventType === 'response.completed' && x.body.includes(reply.responseId!)));
    chat.panel.dispose();
    await eventually(() => !api.services.chat.panel(opened!.conversationId));
    // From the inspector's button, as the user clicks it: the saved conversation opens again.
    await api.services.inspector.receive({ type: 'openConversation', eventId: event.id });
    const reopened = await eventually(() => api.services.chat.panel(opened!.conversationId));
    assert.equal(reopened.conversation.turns.at(-1)?.responseId, reply.responseId);
    assert.deepEqual(await exec('openEventConversation', { eventId: event.id }), { conversationId: opened!.conversationId });
    // A response no conversation here asked for (created by another app): nothing opens.
    const other = await client.createResponse({ model: 'gpt-4o', input: 'from another app', background: true });
    const foreign = await eventually(() => api.services.events.list().find((x) => x.eventType === 'response.completed' && x.body.includes(other.id)));
    assert.equal(await exec('openEventConversation', { eventId: foreign.id }), undefined);
    reopened.panel.dispose();
  });

  it('follows the selection in the Webhook Events view; a re-serialized rejected delivery shows the likely cause', async () => {
    const api = await workbench();
    const { localUrl } = api.services.listener.state!;
    const signed = JSON.stringify({ object: 'event', id: 'evt_pretty', type: 'response.completed', created_at: 1, data: { id: 'resp_x' } });
    const headers = { 'content-type': 'application/json', ...signedHeaders(secret, 'msg_pretty', signed) };
    // A proxy pretty-printed the JSON on the way.
    const res = await fetch(`${localUrl}/webhook`, { method: 'POST', headers, body: JSON.stringify(JSON.parse(signed), null, 2) });
    assert.equal(res.status, 400);
    const rejected = await eventually(() => api.services.events.list().find((x) => x.webhookId === 'msg_pretty'));
    const posted: InspectorHostMessage[] = [];
    const sub = api.services.inspector.onDidPost((m) => posted.push(m));
    const node = await eventually(() => api.eventsTree.rows().find((n) => n.record.id === rejected.id));
    // The view rendered first (as when the user has it open), then the row selected in it.
    await vscode.commands.executeCommand('aoaiWorkbench.events.focus');
    await eventually(() => api.services.inspector.eventsView.visible);
    // The row exists in our tree at once, but VS Code knows it only once the view has asked for its
    // rows again (a redraw gathers a burst for 50 ms): until then reveal cannot resolve it.
    const view = api.services.inspector.eventsView;
    await eventually(() => Promise.resolve(view.reveal(node, { select: true, focus: true })).then(() => true, () => undefined));
    await eventually(() => api.services.inspector.eventsView.selection[0] === node);
    await eventually(() => api.services.inspector.shownId === rejected.id);
    sub.dispose();
    const shown = posted.filter((m): m is Extract<InspectorHostMessage, { type: 'show' }> => m.type === 'show').at(-1)!.delivery;
    assert.equal(shown.id, rejected.id);
    assert.equal(shown.verdict, 'rejected');
    assert.equal(shown.replayable, false);
    assert.match(shown.bodyNote ?? '', /Unverified: only the first/);
    assert.equal(shown.diagnoses[0].cause, 'reserialized');
    assert.match(shown.diagnoses[0].title, /compact JSON/);
    assert.deepEqual(shown.trace?.tried.map((t) => t.matched), [false]);
  });
});
