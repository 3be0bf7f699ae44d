import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { newConnectionId, type ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { CheckResult } from '../../src/service/probe';
import type { DeploymentNode, MessageNode, TreeNode } from '../../src/vscode/tree/nodes';
import { clearConnections, eventually, settingsAndLogFiles, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('connections', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator();
    await clearConnections();
  });
  after(async () => {
    await clearConnections();
    await emu.close();
  });

  async function groupChildren(connectionId: string, kind: 'deployments' | 'webhooks'): Promise<TreeNode[]> {
    const api = await workbench();
    const node = await eventually(() => api.services.tree.connectionNode(connectionId));
    return api.services.tree.settledChildren(node[kind]);
  }

  it('adds a connection by command; the tree lists the emulator\'s deployments with model and SKU', async () => {
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, label: 'Emulator A' });
    assert.ok(info, 'the command returned the connection');
    assert.equal(info.endpoint, emu.url, 'the pasted /openai/v1/ suffix is normalised away');
    const api = await workbench();
    assert.deepEqual(api.services.tree.getChildren().map((n) => (n as { info: ConnectionInfo }).info.label), ['Emulator A']);
    const deployments = (await groupChildren(info.id, 'deployments')) as DeploymentNode[];
    assert.deepEqual(deployments.map((d) => d.deployment.name), emu.config.deployments.map((d) => d.name));
    const item = api.services.tree.getTreeItem(deployments[0]);
    assert.equal(item.label, 'gpt-4o');
    // The data plane lists no version, and its scale type is no SKU: nothing to add to the name.
    assert.equal(item.description, '');
    assert.match((item.tooltip as vscode.MarkdownString).value, /Model: gpt\\-4o/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /Scale: manual, capacity 50/);
    const mini = api.services.tree.getTreeItem(deployments.find((d) => d.deployment.name === 'gpt-4o-mini')!);
    assert.equal(mini.description, '', 'standard scale is not shown as a SKU either');
    assert.equal(item.contextValue, 'deployment');
  });

  it('keeps the key in SecretStorage only: not in settings, not in any log or settings file', async () => {
    const api = await workbench();
    const conn = api.services.store.list().find((c) => c.label === 'Emulator A')!;
    assert.equal(await api.services.store.apiKey(conn.id), emu.apiKey);
    const setting = JSON.stringify(vscode.workspace.getConfiguration('aoaiWorkbench').inspect('connections'));
    assert.ok(setting.includes(emu.url) && !setting.includes(emu.apiKey));
    // Make sure a failure path has been logged too before looking at the files.
    await exec('editConnection', { connectionId: conn.id, apiKey: 'wrong-key-for-this-test-0001' });
    await groupChildren(conn.id, 'deployments');
    await exec('editConnection', { connectionId: conn.id, apiKey: emu.apiKey });
    const files = settingsAndLogFiles();
    assert.ok(files.some((f) => /Azure OpenAI Workbench/.test(f) || readFileSync(f, 'utf8').includes('Added connection "Emulator A"')), 'the extension log is among the files read');
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      assert.ok(!text.includes(emu.apiKey), `${f} contains the API key`);
      assert.ok(!text.includes('wrong-key-for-this-test-0001'), `${f} contains a key`);
    }
  });

  it('shows an error row that names the problem for a wrong key, and retries from it', async () => {
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: 'not-the-key', label: 'Wrong key' });
    const [row] = (await groupChildren(info!.id, 'deployments')) as MessageNode[];
    assert.equal(row.kind, 'error');
    assert.match(row.detail ?? '', /Access denied \(401\).*Check the connection's key and endpoint/);
    const api = await workbench();
    const item = api.services.tree.getTreeItem(row);
    assert.equal(item.command?.command, 'aoaiWorkbench.refreshNode', 'clicking the row retries');
    await exec('editConnection', { connectionId: info!.id, apiKey: emu.apiKey });
    const fixed = await groupChildren(info!.id, 'deployments');
    assert.equal(fixed[0].type, 'deployment');
    await exec('removeConnection', { connectionId: info!.id });
    assert.equal(await api.services.store.apiKey(info!.id), undefined, 'removing a connection deletes its key');
  });

  it('shows an error row naming the host when the endpoint is unreachable', async () => {
    const dead = await startEmulator();
    const url = dead.url;
    await dead.close();
    const info = await exec<ConnectionInfo>('addConnection', { endpoint: url, apiKey: 'k-123456', label: 'Nothing there' });
    const [row] = (await groupChildren(info!.id, 'webhooks')) as MessageNode[];
    assert.equal(row.kind, 'error');
    assert.match(row.detail ?? '', new RegExp(`${new URL(url).host.replace(/\./g, '\\.')} refused the connection`));
    await exec('removeConnection', { connectionId: info!.id });
  });

  it('"Test connection" reports what works', async () => {
    const api = await workbench();
    const conn = api.services.store.list().find((c) => c.label === 'Emulator A')!;
    const results = await exec<CheckResult[]>('testConnection', { connectionId: conn.id });
    assert.deepEqual(results?.map((r) => [r.name, r.ok]), [['Deployments', true], ['Webhook API', true], ['Chat', true]]);
    assert.match(results![2].detail, /gpt-4o answered in \d+ ms/);
  });

  it('imports AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY from the environment', async () => {
    const endpoint = process.env.AZURE_OPENAI_ENDPOINT!;
    assert.ok(endpoint, 'the runner sets the variables');
    const info = await exec<ConnectionInfo>('importFromEnvironment');
    assert.ok(info);
    assert.equal(info.endpoint, endpoint.replace(/\/openai\/v1\/$/, ''));
    const deployments = await groupChildren(info.id, 'deployments');
    assert.ok(deployments.length >= 3 && deployments.every((d) => d.type === 'deployment'));
    assert.equal(await exec('importFromEnvironment'), undefined, 'a second import adds nothing');
    await exec('removeConnection', { connectionId: info.id });
  });

  it('"Start local emulator" runs one in the extension host and adds its connection; "Stop" removes it', async () => {
    const api = await workbench();
    const info = await exec<ConnectionInfo>('startLocalEmulator');
    assert.ok(info?.local);
    assert.match(info.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const deployments = await groupChildren(info.id, 'deployments');
    assert.ok(deployments.length >= 3);
    const chat = await exec<{ conversationId: string }>('openChat', { connectionId: info.id, deployment: 'gpt-4o-mini' });
    const panel = api.services.chat.panel(chat!.conversationId)!;
    await panel.receive({ type: 'send', text: 'hello from the host' });
    await panel.idle();
    assert.match(panel.conversation.turns.at(-1)!.content, /You said: hello from the host/);
    panel.panel.dispose();
    assert.equal(await exec('stopLocalEmulator'), true);
    await eventually(() => !api.services.store.list().some((c) => c.local));
    const res = await fetch(`${info.endpoint}/openai/v1/models`).catch((e: Error) => e);
    assert.ok(res instanceof Error, 'the emulator no longer listens');
  });

  it('another window\'s live emulator keeps its connection when this window stops its own or has none', async () => {
    const api = await workbench();
    // As another window leaves it in the shared user settings: a local connection to its running emulator.
    const other: ConnectionInfo = { id: newConnectionId(), label: 'Local emulator', endpoint: emu.url, auth: 'apiKey', local: true };
    await api.services.store.save(other, emu.apiKey);
    assert.equal(await exec('stopLocalEmulator'), false, 'nothing runs in this window');
    assert.ok(api.services.store.get(other.id), 'Stop in a window running nothing leaves it');
    const mine = await exec<ConnectionInfo>('startLocalEmulator');
    assert.equal(await exec('stopLocalEmulator'), true);
    assert.equal(api.services.store.get(mine!.id), undefined, 'this window\'s own connection goes');
    assert.ok(api.services.store.get(other.id), 'the other window\'s stays');
    await api.services.store.remove(other.id);
  });
});
