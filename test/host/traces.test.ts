/**
 * Traces in the editor: a turn of VS Code's chat with a tool call (through vscode.lm, the tool
 * run by the caller, as VS Code runs tools) is kept with the tool's span, and Show Trace opens its
 * timeline page; Show Trace on a chat panel's reply opens that reply's trace.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../src/emulator/server';
import type { Trace } from '../../src/trace/types';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { HostMessage } from '../../src/webview/chat/protocol';
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
  before(async () => ({ emu, conn } = await emulatedService('Trace emulator', { streamTokenDelayMs: 1 })));
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

    const trace = await eventually(async () => (await keptTraces()).find((t) => t.spans.some((s) => s.name === 'execute_tool get_weather')), 15_000, 'the trace with the tool span');
    const tool = trace.spans.find((s) => s.name === 'execute_tool get_weather')!;
    assert.equal(tool.attributes['gen_ai.tool.call.id'], calls[0].callId);
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
});
