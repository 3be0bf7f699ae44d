/**
 * The Webhook Events view with more deliveries than it draws at once: the newest at the top, the
 * rest in one "Older deliveries" row drawn only when opened (VS Code keeps every row it is given,
 * and redraws them on each change), and tooltips made only when asked for.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import { TOP_ROWS, type EventNode, type OlderEventsNode } from '../../src/vscode/webhooks/eventsTree';
import { closeEmulatedService, emitServiceEvent, emulatedService, eventually, workbench } from './support';

const EXTRA = 20;

describe('webhooks: the Events view with many deliveries', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;
  let client: AzureOpenAIClient;

  before(async () => {
    ({ emu, conn, client } = await emulatedService('Many events'));
    const ok = await execAsOurs('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'many', eventTypes: ['response.completed'] } });
    assert.ok(ok, 'the listener started');
  });
  after(async () => {
    await closeEmulatedService({ emu, client });
  });

  it(`draws the newest ${TOP_ROWS} and keeps the rest in an Older deliveries row that opens to them, oldest last`, async function () {
    this.timeout(120_000);
    const api = await workbench();
    for (let i = 0; i < TOP_ROWS + EXTRA; i++) await emitServiceEvent(emu, 'response.completed', { id: `resp_many_${i}` });
    await eventually(() => api.services.events.list().length === TOP_ROWS + EXTRA || undefined);
    const top = api.eventsTree.getChildren();
    assert.equal(top.length, TOP_ROWS + 1);
    const older = top.at(-1) as OlderEventsNode;
    assert.equal(older.type, 'older');
    const olderItem = api.eventsTree.getTreeItem(older);
    assert.equal(olderItem.label, 'Older deliveries');
    assert.equal(olderItem.description, String(EXTRA));
    assert.equal(olderItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'drawn only when opened');
    const bodyId = (n: EventNode) => (JSON.parse(n.record.body) as { data: { id: string } }).data.id;
    assert.equal(bodyId(top[0] as EventNode), `resp_many_${TOP_ROWS + EXTRA - 1}`, 'newest first');
    const inside = api.eventsTree.getChildren(older) as EventNode[];
    assert.equal(inside.length, EXTRA);
    assert.equal(bodyId(inside.at(-1)!), 'resp_many_0', 'the oldest last');
    assert.equal(api.eventsTree.getParent(inside[0]!), older);

    // A row carries no tooltip until the pointer rests on it; then it is made, escaped and inert.
    const item = api.eventsTree.getTreeItem(inside[0]!);
    assert.equal(item.tooltip, undefined);
    const tooltip = api.eventsTree.resolveTreeItem(item, inside[0]!).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /response\\\.completed/);
    assert.ok(!tooltip.isTrusted && !tooltip.supportHtml);

    // An older row can still be revealed and selected (the inspector follows the selection).
    await vscode.commands.executeCommand('aoaiWorkbench.events.focus');
    await eventually(() => api.services.inspector.eventsView.visible);
    // Again until VS Code has drawn the newest rows: it reveals only rows it has been given.
    await eventually(async () => {
      await api.services.inspector.eventsView.reveal(inside[0]!, { select: true, focus: true });
      return api.services.inspector.eventsView.selection[0] === inside[0] || undefined;
    }, 10_000);
  });
});
