import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import { signedHeaders } from '../../src/webhooks/signature';
import type { PendingRotation } from '../../src/webhooks/endpoints/rotation';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { WebhookNode } from '../../src/vscode/tree/nodes';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('rotating a signing secret in VS Code', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Rotation'));
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  /** Emits an event on the service; the listener's verdicts on the deliveries it caused, by endpoint. */
  async function deliveredTo(): Promise<string[]> {
    const api = await workbench();
    const before = api.services.events.list().length;
    const { deliveries } = await emitServiceEvent(emu, 'batch.completed', { id: 'batch_r' });
    const fresh = await eventually(() => {
      const all = api.services.events.list();
      return all.length - before >= deliveries.length ? all.slice(0, all.length - before) : undefined;
    });
    return fresh.map((r) => `${r.endpointId}:${r.verdict}`).sort();
  }

  it('during the overlap both secrets are accepted; the new one lands in the .env file; finishing leaves one endpoint and one secret', async () => {
    const api = await workbench();
    const started = await exec<{ endpointId: string; publicUrl: string }>('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'app', eventTypes: ['batch.completed'] } });
    const oldId = started!.endpointId;
    const oldSecret = (await api.services.store.signingSecret(conn.id, oldId))!;
    const env = join(mkdtempSync(join(tmpdir(), 'aoai-env-')), '.env');
    writeFileSync(env, '# the app\nPORT=3000\nWEBHOOK_SECRET=stale\n');

    const r = (await exec<PendingRotation>('rotateSigningSecret', { connectionId: conn.id, endpointId: oldId, confirm: false, handOver: { kind: 'env', file: env, variable: 'WEBHOOK_SECRET' } }))!;
    const newSecret = (await api.services.store.signingSecret(conn.id, r.newId))!;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, oldSecret);
    const listed = (await client.listWebhookEndpointsPage()).data;
    assert.deepEqual(listed.map((e) => [e.url, e.event_types]), [[`${started!.publicUrl}/webhook`, ['batch.completed']], [`${started!.publicUrl}/webhook`, ['batch.completed']]]);
    assert.equal(readFileSync(env, 'utf8'), `# the app\nPORT=3000\nWEBHOOK_SECRET=${newSecret}\n`);

    // The sidebar says which is which, and offers Finish on both rows.
    const rows = (await api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.webhooks)) as WebhookNode[];
    const describe = (id: string) => api.services.tree.getTreeItem(rows.find((n) => n.endpoint.id === id)!);
    assert.match(String(describe(r.newId).description), /^new secret, rotating · /);
    assert.match(String(describe(oldId).description), /^old secret, being replaced · /);
    assert.equal(describe(oldId).contextValue, 'webhookEndpoint.secret.rotating');
    const tooltip = (id: string) => (describe(id).tooltip as vscode.MarkdownString).value;
    // The ids are the service's text: the tooltip's Markdown shows them escaped, as text.
    const asText = (id: string) => id.replace(/_/g, '\\_');
    assert.ok(tooltip(r.newId).includes(`Replaces: ${asText(oldId)}`), tooltip(r.newId));
    assert.ok(tooltip(oldId).includes(`Replaced by: ${asText(r.newId)}`), tooltip(oldId));
    assert.deepEqual([describe(r.newId).label, describe(oldId).label], ['New secret: app', 'Old secret: app'], 'the side first, where a narrow sidebar does not cut it');

    // Each event comes from both endpoints, each verified with its own secret.
    await eventually(() => api.services.listener.knownSecrets().length === 2 || undefined);
    assert.deepEqual(await deliveredTo(), [`${oldId}:verified`, `${r.newId}:verified`].sort());

    assert.equal(await exec('finishRotation', { connectionId: conn.id, endpointId: oldId, confirm: false }), true);
    assert.deepEqual((await client.listWebhookEndpointsPage()).data.map((e) => e.id), [r.newId]);
    assert.equal(await api.services.store.signingSecret(conn.id, oldId), undefined, 'the old secret is forgotten');
    assert.deepEqual(api.services.endpoints.rotations(), []);
    await eventually(() => api.services.listener.knownSecrets().length === 1 || undefined);
    assert.deepEqual(await deliveredTo(), [`${r.newId}:verified`]);
    // A sender still signing with the old secret is refused now.
    const body = JSON.stringify({ object: 'event', id: 'evt_old', type: 'batch.completed', created_at: 1, data: {} });
    const res = await fetch(`${api.services.listener.state!.localUrl}/webhook`, { method: 'POST', headers: signedHeaders(oldSecret, 'msg_old_secret', body), body });
    assert.equal(res.status, 400);
    for (const f of settingsAndLogFiles()) assert.ok(!readFileSync(f, 'utf8').includes(newSecret), `the new secret is in ${f}`);
  });

  it('cancelling deletes the replacement; rotating an endpoint in a rotation is refused with a clear message', async () => {
    const api = await workbench();
    const [only] = (await client.listWebhookEndpointsPage()).data;
    // A .env file that is not UTF-8 is left byte for byte; the rotation has begun all the same.
    const env = join(mkdtempSync(join(tmpdir(), 'aoai-env-')), '.env');
    const latin1 = Buffer.from('# caf\xe9\r\nWEBHOOK_SECRET=stale\r\n', 'latin1');
    writeFileSync(env, latin1);
    const r = (await exec<PendingRotation>('rotateSigningSecret', { connectionId: conn.id, endpointId: only.id, confirm: false, handOver: { kind: 'env', file: env, variable: 'WEBHOOK_SECRET' } }))!;
    assert.ok(r?.newId, 'the rotation began though the hand-over failed');
    assert.deepEqual(readFileSync(env), latin1);
    assert.deepEqual(api.services.endpoints.rotations().map((x) => x.newId), [r.newId]);
    await assert.rejects(api.services.endpoints.beginRotation(conn, only), /in a rotation already/);
    // From the palette (no row): the one rotation in progress is the one cancelled.
    assert.equal(await exec('cancelRotation', { confirm: false }), true);
    assert.deepEqual((await client.listWebhookEndpointsPage()).data.map((e) => e.id), [only.id]);
    assert.equal(await api.services.store.signingSecret(conn.id, r.newId), undefined);
    assert.deepEqual(api.services.endpoints.rotations(), []);
    assert.equal(await exec('finishRotation', { confirm: false }), false, 'nothing to finish: said so, nothing deleted');
    assert.deepEqual((await client.listWebhookEndpointsPage()).data.map((e) => e.id), [only.id]);

    // Deleting one side with the ordinary Delete ends that rotation: no row stays "being replaced".
    const again = (await exec<PendingRotation>('rotateSigningSecret', { connectionId: conn.id, endpointId: only.id, confirm: false, handOver: { kind: 'later' } }))!;
    assert.equal(await exec('deleteWebhookEndpoint', { connectionId: conn.id, endpointId: again.newId }), true);
    assert.deepEqual(api.services.endpoints.rotations(), []);
    const rows = (await api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.webhooks)) as WebhookNode[];
    assert.deepEqual(rows.map((n) => [n.endpoint.id, api.services.tree.getTreeItem(n).label]), [[only.id, 'app']]);
  });

  it("removing the connection forgets its rotation: nothing left in any window's list", async () => {
    const api = await workbench();
    const [only] = (await client.listWebhookEndpointsPage()).data;
    const r = (await exec<PendingRotation>('rotateSigningSecret', { connectionId: conn.id, endpointId: only.id, confirm: false, handOver: { kind: 'later' } }))!;
    assert.deepEqual(api.services.endpoints.rotations().map((x) => x.newId), [r.newId]);
    assert.equal(await exec('removeConnection', { connectionId: conn.id }), true);
    await eventually(() => api.services.endpoints.rotations().length === 0 || undefined);
    assert.equal(await exec('finishRotation', { confirm: false }), false, 'nothing offered to finish');
  });
});
