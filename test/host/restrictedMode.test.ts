/**
 * Restricted Mode, for real: the runner starts its own code-server with workspace trust on and a
 * folder it never trusts, holding what a repository could bring (a launch.json of our debug type,
 * workspace settings). Only this file runs there (AOAI_HOST_RESTRICTED=1), and only there.
 * Chat, the sidebar and the listener work; the launch configuration and the restricted settings
 * wait for trust.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { DeploymentNode } from '../../src/vscode/tree/nodes';
import { closeEmulatedService, EXTENSION_ID, emulatedService, eventually, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

/** What the runner writes into the folder (scripts/host/run-tests.mjs, `REPOSITORY_FILES`). */
const REPOSITORY_LAUNCH = 'Webhooks from the repository';

describe('Restricted Mode: an untrusted folder', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Restricted emulator'));
  });
  after(() => closeEmulatedService({ emu, client }));

  it('is untrusted, and the extension runs in it', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the runner opened the folder in Restricted Mode');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext?.isActive, 'the extension is active (its capabilities allow Restricted Mode)');
  });

  it("ignores the folder's values of the restricted settings, and takes its other settings", async () => {
    const api = await workbench();
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'settings.json');
    const folderSettings = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8')) as Record<string, unknown>;
    assert.equal(folderSettings['aoaiWorkbench.webhooks.toleranceSeconds'], 86_400, 'the folder does set them');
    assert.equal(folderSettings['aoaiWorkbench.tunnel.provider'], 'ngrok');
    const inspected = vscode.workspace.getConfiguration('aoaiWorkbench').inspect<number>('webhooks.toleranceSeconds');
    assert.equal(api.setting('webhooks.toleranceSeconds'), inspected?.defaultValue, 'and the listener does not take them');
    assert.equal(api.setting('tunnel.provider'), 'cloudflared', 'the default');
    assert.equal(api.setting('pageSize'), 2, 'a setting nobody restricted comes from the folder');
  });

  it('the sidebar lists deployments and a chat answers', async () => {
    const api = await workbench();
    const rows = (await api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.deployments)) as DeploymentNode[];
    assert.deepEqual(rows.slice(0, 2).map((r) => r.deployment.name), emu.config.deployments.slice(0, 2).map((d) => d.name));
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
    const panel = api.services.chat.panel(res!.conversationId)!;
    await panel.receive({ type: 'send', text: 'hello from restricted mode' });
    await panel.idle();
    assert.match(panel.conversation.turns.at(-1)!.content, /You said: hello from restricted mode/);
    panel.panel.dispose();
  });

  it('the listener takes a verified delivery', async () => {
    const api = await workbench();
    const started = await exec<{ endpointId: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'restricted', eventTypes: ['response.completed'] } });
    assert.ok(started?.endpointId);
    await client.createResponse({ model: 'gpt-4o', input: 'notify me', background: true });
    const r = await eventually(() => api.services.events.list().find((x) => x.eventType === 'response.completed'));
    assert.equal(r.verdict, 'verified');
    await exec('stopListening', { deleteEndpoint: true });
  });

  it("a new secret written into a .env here runs no git (the repository's own git stays unrun) and says it could not check", async () => {
    const app = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'app');
    mkdirSync(join(app, '.git'), { recursive: true });
    const env = join(app, '.env');
    writeFileSync(env, 'PORT=3000\n');
    for (const name of ['git', 'git.exe', 'git.cmd']) writeFileSync(join(app, name), '#!/bin/sh\necho ran > "$(dirname "$0")/ran.marker"\n', { mode: 0o755 });
    const started = await exec<{ endpointId: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'env', eventTypes: ['batch.completed'] } });
    const handOver = { kind: 'env', file: env, variable: 'WEBHOOK_SECRET' };
    const r = (await exec<{ newId: string }>('rotateSigningSecret', { connectionId: conn.id, endpointId: started!.endpointId, confirm: false, handOver }))!;
    assert.match(readFileSync(env, 'utf8'), /^PORT=3000\nWEBHOOK_SECRET=whsec_/, 'the secret was written');
    const said = (f: string) => readFileSync(f, 'utf8').includes('Could not check whether git ignores .env: this folder is not trusted, so git was not run.');
    await eventually(() => settingsAndLogFiles().some(said), undefined, "the extension's log to say the .env could not be checked");
    assert.equal(existsSync(join(app, 'ran.marker')), false, "the repository's git ran");
    await exec('cancelRotation', { connectionId: conn.id, endpointId: r.newId, confirm: false });
    await exec('stopListening', { deleteEndpoint: true });
  });

  // Last: VS Code asks to trust the folder before any debug session, and that request stays open.
  it("the repository's launch configuration starts nothing: no session, no listener, no endpoint", async () => {
    const api = await workbench();
    const endpointsBefore = (await client.listWebhookEndpointsPage()).data.map((e) => e.id);
    const folder = vscode.workspace.workspaceFolders![0];
    const started = await Promise.race([vscode.debug.startDebugging(folder, REPOSITORY_LAUNCH), new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5000))]);
    assert.notEqual(started, true);
    assert.equal(vscode.debug.activeDebugSession, undefined);
    assert.equal(api.services.listener.running, false);
    assert.deepEqual((await client.listWebhookEndpointsPage()).data.map((e) => e.id), endpointsBefore);
    assert.equal(vscode.workspace.isTrusted, false);
  });
});
