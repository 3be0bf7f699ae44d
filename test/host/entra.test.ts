/**
 * Entra ID in the real extension host: DefaultAzureCredential (loaded lazily from dist/identity.js)
 * signs in as the service principal the runner put in AZURE_* against the local identity provider;
 * "Add Connection from Azure" finds the emulator's account through Resource Manager; the tree lists
 * its deployments from ARM and a chat completes with bearer tokens, on a resource whose API key is
 * disabled.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { DEFAULT_CONFIG } from '../../src/emulator/config';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { DeploymentNode, MessageNode, TreeNode } from '../../src/vscode/tree/nodes';
import { clearConnections, eventually, settingsAndLogFiles, testIssuer, useTestCloud, workbench, type TestIssuer } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('Entra ID connections', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let issuer: TestIssuer;
  const config = () => vscode.workspace.getConfiguration('aoaiWorkbench');

  before(async function () {
    issuer = testIssuer();
    const [sub] = DEFAULT_CONFIG.subscriptions;
    emu = await startEmulator({
      config: {
        armPageSize: 2,
        // Like a resource with local auth disabled: only tokens get in.
        disableLocalAuth: true,
        entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, grantedPrincipals: [issuer.oid] },
        subscriptions: [{ ...sub, tenantId: issuer.tenantId }],
      },
    });
    await clearConnections();
    await useTestCloud(issuer, emu.url);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await clearConnections();
    await config().update('cloud', undefined, vscode.ConfigurationTarget.Global);
    await config().update('customCloud', undefined, vscode.ConfigurationTarget.Global);
    await emu?.close();
  });

  async function groupChildren(connectionId: string, kind: 'deployments' | 'webhooks'): Promise<TreeNode[]> {
    const api = await workbench();
    const node = await eventually(() => api.services.tree.connectionNode(connectionId));
    return api.services.tree.settledChildren(node[kind]);
  }

  let conn: ConnectionInfo;

  it('adds a connection from Azure: subscription → account, with the tenant of the subscription', async () => {
    const info = await exec<ConnectionInfo>('addConnectionFromAzure', {
      tokenSource: 'default',
      subscriptionId: DEFAULT_CONFIG.subscriptions[0].subscriptionId,
      account: 'emulator-openai',
      label: 'From Azure',
    });
    assert.ok(info, 'the command returned the connection (a failure would have shown an error instead)');
    conn = info;
    assert.deepEqual(
      { auth: info.auth, tokenSource: info.tokenSource, tenantId: info.tenantId, endpoint: info.endpoint },
      { auth: 'entraId', tokenSource: 'default', tenantId: issuer.tenantId, endpoint: emu.url },
    );
    assert.match(info.armId ?? '', /\/resourceGroups\/rg-emulator\/providers\/Microsoft\.CognitiveServices\/accounts\/emulator-openai$/);
    const api = await workbench();
    const item = api.services.tree.getTreeItem(await eventually(() => api.services.tree.connectionNode(info.id)));
    assert.match(String(item.description), /Entra ID/);
  });

  it('lists deployments from Resource Manager with version, SKU, capacity and rate limits', async () => {
    const deployments = (await groupChildren(conn.id, 'deployments')) as DeploymentNode[];
    assert.deepEqual(deployments.map((d) => d.type), deployments.map(() => 'deployment'), `rows: ${JSON.stringify(deployments.map((d) => (d as unknown as MessageNode).detail ?? d.type))}`);
    assert.deepEqual(deployments.map((d) => d.deployment.name), emu.config.deployments.map((d) => d.name), 'every ARM page was followed');
    const api = await workbench();
    const item = api.services.tree.getTreeItem(deployments[0]);
    assert.equal(item.description, '2024-11-20 · GlobalStandard 50');
    assert.match((item.tooltip as vscode.MarkdownString).value, /300 requests\/min, 50000 tokens\/min/);
  });

  it('manages webhook endpoints and chats with bearer tokens (the API key is disabled on this resource)', async () => {
    const rows = await groupChildren(conn.id, 'webhooks');
    const errors = rows.filter((r) => (r as MessageNode).kind === 'error').map((r) => (r as MessageNode).detail);
    assert.deepEqual(errors, [], 'the webhook list loads');
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
    assert.ok(res?.conversationId);
    const api = await workbench();
    const panel = api.services.chat.panel(res.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'send', text: 'hello without a key' });
    await panel.idle();
    const finished = posted.filter((m): m is Extract<HostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished');
    assert.equal(finished.length, 1, JSON.stringify(posted.filter((m) => m.type !== 'delta')));
    assert.match(finished[0].turn.content, /You said: hello without a key/);
    assert.equal(finished[0].turn.error, undefined);
  });

  it('an identity without a role gets an error row naming the role to grant', async () => {
    // Another resource, on which the service principal holds no role.
    const other = await startEmulator({
      config: { disableLocalAuth: true, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile, grantedPrincipals: [] } },
    });
    try {
      const info = await exec<ConnectionInfo>('addConnection', { endpoint: other.url, auth: 'entraId', tokenSource: 'default', tenantId: issuer.tenantId, label: 'No role' });
      const [row] = (await groupChildren(info!.id, 'webhooks')) as MessageNode[];
      assert.equal(row.kind, 'error');
      assert.match(row.detail ?? row.text, /"Cognitive Services OpenAI User" role/);
    } finally {
      await other.close();
    }
  });

  it('keeps tokens out of settings and logs', async () => {
    const files = settingsAndLogFiles();
    assert.ok(files.length > 0);
    for (const f of files) assert.doesNotMatch(readFileSync(f, 'utf8'), /eyJ[\w-]{10,}\.eyJ[\w-]{10,}\./, `${f} contains a JWT`);
  });
});
