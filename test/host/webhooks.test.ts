import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import type { WebhookEndpoint } from '../../src/service/types';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { MessageNode, TreeNode, WebhookNode } from '../../src/vscode/tree/nodes';
import { closeEmulatedService, emulatedService, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('webhook endpoints in the sidebar', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Hooks'));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  async function endpoints(): Promise<TreeNode[]> {
    const api = await workbench();
    return api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.webhooks);
  }

  it('shows an empty state that offers to create one', async () => {
    const [row] = await endpoints();
    const api = await workbench();
    const item = api.services.tree.getTreeItem(row);
    assert.match(String(item.label), /No webhook endpoints yet/);
    assert.equal(item.command?.command, 'aoaiWorkbench.createWebhookEndpoint');
  });

  it('create → the secret goes to SecretStorage, the tree shows the endpoint; edit and delete round-trip', async () => {
    const api = await workbench();
    const created = await exec<WebhookEndpoint>('createWebhookEndpoint', {
      connectionId: conn.id,
      name: 'orders',
      url: 'https://example.test/hook',
      eventTypes: ['response.completed', 'batch.failed'],
    });
    assert.ok(created);
    assert.equal((created as { signing_secret?: string }).signing_secret, undefined, 'the command never returns the secret');
    const secret = await api.services.store.signingSecret(conn.id, created.id);
    assert.match(secret ?? '', /^whsec_/);
    let nodes = (await endpoints()) as WebhookNode[];
    assert.deepEqual(nodes.map((n) => n.endpoint.name), ['orders']);
    const item = api.services.tree.getTreeItem(nodes[0]);
    assert.equal(item.description, 'https://example.test/hook');
    assert.equal(item.contextValue, 'webhookEndpoint.secret');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('aoaiWorkbench').inspect('connections')).includes(secret!));

    for (const f of settingsAndLogFiles()) assert.ok(!readFileSync(f, 'utf8').includes(secret!), `${f} contains the signing secret`);

    assert.equal(await exec('copySigningSecret', { connectionId: conn.id, endpointId: created.id }), true);
    assert.equal(await vscode.env.clipboard.readText(), secret);

    const updated = await exec<WebhookEndpoint>('editWebhookEndpoint', { connectionId: conn.id, endpointId: created.id, name: 'orders-v2', eventTypes: ['response.failed'] });
    assert.equal(updated?.name, 'orders-v2');
    nodes = (await endpoints()) as WebhookNode[];
    assert.equal(nodes[0].endpoint.name, 'orders-v2');
    assert.deepEqual(nodes[0].endpoint.event_types, ['response.failed']);

    assert.equal(await exec('deleteWebhookEndpoint', { connectionId: conn.id, endpointId: created.id }), true);
    assert.equal((await endpoints())[0].type, 'message');
    assert.equal(await api.services.store.signingSecret(conn.id, created.id), undefined, 'its secret is gone too');
  });

  it('says why the secret of an endpoint created elsewhere cannot be copied', async () => {
    const other = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    const e = await other.createWebhookEndpoint({ name: 'elsewhere', url: 'https://example.test/x', event_types: ['batch.completed'] });
    await other.close();
    await vscode.env.clipboard.writeText('unchanged');
    assert.equal(await exec('copySigningSecret', { connectionId: conn.id, endpointId: e.id }), false);
    assert.equal(await vscode.env.clipboard.readText(), 'unchanged');
    await exec('deleteWebhookEndpoint', { connectionId: conn.id, endpointId: e.id });
  });

  it('rejects bad input without creating anything, and the command still ends', async () => {
    const res = await exec('createWebhookEndpoint', { connectionId: conn.id, name: 'bad', url: 'http://example.test/hook', eventTypes: ['response.completed'] });
    assert.equal(res, undefined);
    assert.equal((await endpoints())[0].type, 'message');
  });

  it('pages through hundreds of endpoints with "Load more"', async () => {
    const api = await workbench();
    const c = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    for (let i = 0; i < 250; i++) await c.createWebhookEndpoint({ name: `bulk-${i}`, url: `https://example.test/${i}`, event_types: ['batch.completed'] });
    await c.close();
    await exec('refreshNode', api.services.tree.connectionNode(conn.id)!.webhooks);
    let nodes = await endpoints();
    assert.equal(nodes.length, 101);
    const more = nodes[100] as MessageNode;
    assert.equal(more.kind, 'more');
    await exec('loadMore', more.parent);
    nodes = await endpoints();
    assert.equal(nodes.length, 201);
    await exec('loadMore', (nodes[200] as MessageNode).parent);
    nodes = await endpoints();
    assert.equal(nodes.length, 250, 'all endpoints, no more row');
    assert.equal((nodes[0] as WebhookNode).endpoint.name, 'bulk-249', 'newest first');
  });
});
