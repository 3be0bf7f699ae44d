/**
 * Traces in the editor: a turn of VS Code's chat with a tool call (through vscode.lm, the tool
 * run by the caller, as VS Code runs tools) is kept with the tool's span, and Show Trace opens its
 * timeline page; Show Trace on a chat panel's reply, a Compare column and a batch's row opens theirs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { Batch } from '../../src/service/jobTypes';
import type { Trace } from '../../src/trace/types';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { ComparePanel } from '../../src/vscode/compare/comparePanel';
import type { BatchNode, JobGroupNode } from '../../src/vscode/tree/jobNodes';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { CompareHostMessage } from '../../src/webview/compare/protocol';
import { closeEmulatedService, emulatedService, eventually, execAsOurs, workbench } from './support';

const weather = { name: 'get_weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const RESULT = '4 °C and snow';

/** The traces kept on disk (written a moment after each ends). */
async function keptTraces(): Promise<Trace[]> {
  const api = await workbench();
  const text = await readFile(join(api.services.context.globalStorageUri.fsPath, 'traces.jsonl'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Trace);
}

/** The timeline page's tab, once open. */
const traceTab = (title: string) =>
  eventually(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === title && t.input instanceof vscode.TabInputWebview), 15_000, `the tab "${title}"`);

describe('traces in the editor', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let conn: ConnectionInfo;
  // A background response completes 1.8 s after it is made: between the follower's polls at 1.5 s and 3.5 s, so its delivery ends the wait.
  const config = { streamTokenDelayMs: 1, jobs: { stepMs: 50 }, responseQueuedMs: 600, responseInProgressMs: 1200 };
  before(async () => ({ emu, conn } = await emulatedService('Trace emulator', config)));
  after(() => closeEmulatedService({ emu }));
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('a turn with a tool call shows its trace: the tool run is a span of the request that brought its result, and Show Trace opens it', async () => {
    const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).find((m) => m.id === `${conn.id}/gpt-4o`), 15_000, 'the gpt-4o model');
    const ask = vscode.LanguageModelChatMessage.User('Use get_weather for Oslo');
    const calls: vscode.LanguageModelToolCallPart[] = [];
    const first = await model.sendRequest([ask], { tools: [weather] });
    for await (const part of first.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    assert.equal(calls.length, 1, 'the model asked for the tool');
    const result = new vscode.LanguageModelToolResultPart(calls[0].callId, [new vscode.LanguageModelTextPart(RESULT)]);
    const history = [ask, vscode.LanguageModelChatMessage.Assistant(calls), vscode.LanguageModelChatMessage.User([result])];
    const answer = await model.sendRequest(history, { tools: [weather] });
    for await (const _ of answer.stream) void _;

    // Other suites' tool round trips are kept too: this one is the trace with this call's span.
    const ours = (t: Trace) => t.spans.find((s) => s.name === 'execute_tool get_weather' && s.attributes['gen_ai.tool.call.id'] === calls[0].callId);
    const trace = await eventually(async () => (await keptTraces()).find(ours), 15_000, 'the trace with the tool span');
    const tool = ours(trace)!;
    assert.equal(tool.attributes['aoai_workbench.tool.result_bytes'], Buffer.byteLength(RESULT));
    assert.ok(!JSON.stringify(trace).includes(RESULT), 'the result itself is not kept (content capture is off)');
    const request = trace.spans.find((s) => s.name === 'chat gpt-4o')!;
    assert.ok(tool.start <= tool.end && tool.end <= request.start + 5 && trace.start <= tool.start, 'the tool ran before the request that brought its result');
    await execAsOurs('showTrace', trace.traceId);
    await traceTab('Trace: gpt-4o');
  });

  it("Show Trace on a chat panel's reply opens that reply's trace", async () => {
    const opened = await execAsOurs<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
    const panel = (await workbench()).services.chat.panel(opened!.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'send', text: 'trace me' });
    await panel.idle();
    const reply = panel.conversation.turns.at(-1)!;
    assert.match(reply.traceId ?? '', /^[0-9a-f]{32}$/, 'the reply names its trace');
    assert.ok(posted.some((m) => m.type === 'turnFinished' && m.turn.traceId === reply.traceId), 'the page is told (its Show Trace button)');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await panel.receive({ type: 'showTrace', turnId: reply.id });
    await traceTab('Trace: gpt-4o');
    const kept = await eventually(async () => (await keptTraces()).find((t) => t.traceId === reply.traceId), 15_000, "the reply's trace on disk");
    assert.deepEqual(kept.spans.map((s) => s.name), ['turn gpt-4o', 'chat gpt-4o']);
  });

  it("Show Trace on a Compare column opens that column's trace", async () => {
    const deployments = ['gpt-4o', 'gpt-4o-mini'].map((deployment) => ({ connectionId: conn.id, deployment }));
    const { panel } = (await vscode.commands.executeCommand<{ panel: ComparePanel }>('aoaiWorkbench.compareDeployments', { deployments }))!;
    const posted: CompareHostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'send', text: 'compare me', settings: { systemPrompt: 'Be brief.' }, runs: 1 });
    await panel.idle();
    const column = posted.flatMap((m) => (m.type === 'column' ? [m.column] : [])).find((c) => c.id === `${conn.id}/gpt-4o-mini`)!;
    assert.match(column.traceId ?? '', /^[0-9a-f]{32}$/, 'the column names its trace');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await panel.receive({ type: 'showTrace', id: column.id });
    await traceTab('Trace: gpt-4o-mini');
    const kept = await eventually(async () => (await keptTraces()).find((t) => t.traceId === column.traceId), 15_000, "the column's trace on disk");
    assert.equal(kept.kind, 'compare');
  });

  it("Show Trace on a batch's row opens its trace once it ended: check, upload, creation, its statuses", async () => {
    const api = await workbench();
    const dir = mkdtempSync(join(tmpdir(), 'host-trace-batch-'));
    const path = join(dir, 'questions.jsonl');
    const line = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content: id }] } });
    writeFileSync(path, `${line('a')}\n${line('b')}\n`);
    const batch = (await execAsOurs<Batch>('createBatch', { connectionId: conn.id, file: path, endpoint: '/v1/chat/completions' }))!;
    const kept = await eventually(async () => (await keptTraces()).find((t) => t.kind === 'batch' && t.title === batch.id), 60_000, 'the batch to end and its trace to be kept');
    assert.deepEqual(kept.spans.slice(1, 4).map((s) => s.name), ['check input', 'upload input', 'create batch']);
    assert.equal(kept.spans.at(-1)!.name, 'batch completed');
    const group = api.services.tree.getChildren(api.services.tree.connectionNode(conn.id)!).find((n) => n.type === 'jobGroup' && (n as JobGroupNode).kind === 'batches')!;
    const row = await eventually(() => (api.services.tree.getChildren(group) as BatchNode[]).find((n) => n.type === 'batch' && n.batch.id === batch.id));
    await vscode.commands.executeCommand('aoaiWorkbench.showTrace', row);
    await traceTab(`Trace: ${batch.id}`);
  });

  it("a background reply's trace holds the delivery that ended its wait; Show Trace from that delivery opens it", async () => {
    const api = await workbench();
    await execAsOurs('startListening', { connectionId: conn.id, endpoint: { mode: 'create', name: 'traced', eventTypes: ['response.completed'] } });
    try {
      const opened = await execAsOurs<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment: 'gpt-4o' });
      const panel = api.services.chat.panel(opened!.conversationId)!;
      await panel.receive({ type: 'setParams', params: { background: true } });
      await panel.receive({ type: 'send', text: 'wake me when done' });
      await panel.idle();
      const reply = panel.conversation.turns.at(-1)!;
      assert.equal(reply.backgroundStatus, 'completed', reply.error?.message);
      const delivery = await eventually(() => api.services.events.list().find((r) => r.eventType === 'response.completed' && r.body.includes(reply.responseId!)), 15_000, 'the delivery');
      // No app set: nothing to wait for, the trace is kept at once (a forward's answer is waited for up to 15 s).
      const kept = await eventually(async () => (await keptTraces()).find((t) => t.traceId === reply.traceId), 8_000, "the reply's trace on disk");
      assert.equal(kept.kind, 'background');
      const woke = kept.spans.find((s) => s.name === 'webhook response.completed');
      assert.ok(woke, `the delivery that ended the wait is a span: ${kept.spans.map((s) => s.name).join(', ')}`);
      assert.deepEqual([woke.kind, woke.attributes['aoai_workbench.delivery.id']], ['server', delivery.id]);
      assert.equal(kept.spans[0].attributes['aoai_workbench.response.ended_by'], 'webhook');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // The inspector's Show Trace (and the Events row's) hands the command the delivery.
      await execAsOurs('showTrace', { deliveryId: delivery.id });
      await traceTab('Trace: gpt-4o');
    } finally {
      await execAsOurs('stopListening', { deleteEndpoint: true });
    }
  });
});
