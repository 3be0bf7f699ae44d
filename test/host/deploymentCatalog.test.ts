/**
 * One deployment list for the sidebar, the chat panel's picker and VS Code's model picker: the
 * chats offer chat deployments only, and a Refresh in the sidebar reaches an open panel's picker
 * and VS Code's models without reopening anything.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { DeploymentOption } from '../../src/chat/model';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { Emulator } from '../../src/emulator/server';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { DeploymentNode } from '../../src/vscode/tree/nodes';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);
const limits = { version: '1', sku: 'Standard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 };

describe('deployment catalog: the sidebar and both chats read one list', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Catalog emulator', {
      deployments: [
        { name: 'gpt-4o', model: 'gpt-4o', ...limits },
        { name: 'embed', model: 'text-embedding-3-small', ...limits },
      ],
    }));
  });
  after(() => closeEmulatedService({ emu }));

  const names = (list: DeploymentOption[]) => list.map((d) => d.deployment).sort();

  it('the sidebar lists the embeddings deployment without Open Chat; the chat pickers leave it out', async () => {
    const api = await workbench();
    const rows = (await api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.deployments)) as DeploymentNode[];
    const items = new Map(rows.map((r) => [r.deployment.name, api.services.tree.getTreeItem(r)]));
    assert.deepEqual([...items.keys()], ['gpt-4o', 'embed']);
    assert.equal(items.get('gpt-4o')!.contextValue, 'deployment', 'Open Chat shows on a chat deployment');
    assert.equal(items.get('embed')!.contextValue, 'deployment.noChat', 'and not on an embeddings one');
    assert.match((items.get('embed')!.tooltip as vscode.MarkdownString).value, /Not a chat model/);
    assert.deepEqual(names(await api.services.chat.deployments()), ['gpt-4o'], 'Open Chat without a deployment offers chat deployments only');
    const models = await vscode.lm.selectChatModels({ vendor: 'azure-openai' });
    assert.deepEqual(models.map((m) => m.id).filter((id) => id.startsWith(`${conn.id}/`)), [`${conn.id}/gpt-4o`]);
  });

  it("a Refresh in the sidebar reaches an open panel's picker and VS Code's models", async () => {
    const api = await workbench();
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
    const panel = api.services.chat.panel(res!.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'ready' });
    const pickers = () => posted.filter((m): m is Extract<HostMessage, { type: 'deployments' }> => m.type === 'deployments');
    await eventually(() => pickers().length > 0);
    assert.deepEqual(names(pickers().at(-1)!.deployments), ['gpt-4o']);

    emu.config.deployments.push({ name: 'gpt-4o-mini', model: 'gpt-4o-mini', ...limits });
    // What the panel shows is the catalog's list until the sidebar refreshes it.
    assert.deepEqual(names(await api.services.chat.deployments()), ['gpt-4o']);
    await exec('refreshNode', api.services.tree.connectionNode(conn.id)!.deployments);
    const picker = await eventually(() => pickers().find((m) => m.deployments.some((d) => d.deployment === 'gpt-4o-mini')));
    assert.deepEqual(names(picker.deployments), ['gpt-4o', 'gpt-4o-mini']);
    const rows = await api.services.tree.settledChildren(api.services.tree.connectionNode(conn.id)!.deployments);
    assert.deepEqual(rows.map((r) => (r as DeploymentNode).deployment.name), ['gpt-4o', 'embed', 'gpt-4o-mini']);
    await eventually(async () => {
      const ids = (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).map((m) => m.id);
      return ids.includes(`${conn.id}/gpt-4o-mini`) || undefined;
    }, 15_000);
    panel.panel.dispose();
  });
});
