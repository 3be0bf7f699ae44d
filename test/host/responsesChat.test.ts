import assert from 'node:assert/strict';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { ChatTurn } from '../../src/chat/model';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { ChatPanel } from '../../src/vscode/chat/chatPanel';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('chat panel on the Responses API', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Responses emulator', {
      streamTokenDelayMs: 1,
      responseQueuedMs: 300,
      responseInProgressMs: 600,
      deployments: [
        { name: 'gpt-5-codex', model: 'gpt-5-codex', version: '2025-09-15', sku: 'GlobalStandard', capacity: 20, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        // The name hides the model: the deployments list tells the panel which model it is.
        { name: 'team-coder', model: 'gpt-5-codex', version: '2025-09-15', sku: 'GlobalStandard', capacity: 20, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
      ],
    }));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  async function chat(deployment: string, text: string): Promise<{ reply: ChatTurn; posted: HostMessage[]; conversationId: string; panel: ChatPanel }> {
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment });
    const api = await workbench();
    const panel = api.services.chat.panel(res!.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'send', text });
    await panel.idle();
    const reply = posted.filter((m): m is Extract<HostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished').map((m) => m.turn).at(-1)!;
    return { reply, posted, conversationId: res!.conversationId, panel };
  }

  it('a Responses-only deployment answers in the panel, with its reasoning summary and reasoning tokens', async () => {
    const { reply, posted, conversationId, panel } = await chat('gpt-5-codex', 'hello codex');
    assert.equal(reply.error, undefined, reply.error?.message);
    assert.equal(reply.api, 'responses');
    assert.match(reply.content, /You said: hello codex/);
    const thoughts = posted.filter((m): m is Extract<HostMessage, { type: 'reasoningDelta' }> => m.type === 'reasoningDelta');
    assert.ok(thoughts.length > 1, 'the reasoning summary streamed');
    assert.equal(thoughts.map((t) => t.text).join(''), reply.reasoningSummary);
    assert.equal(reply.usage?.completion_tokens_details?.reasoning_tokens, 192);
    const saved = await (await workbench()).services.chat.conversations.load(conversationId);
    assert.equal(saved?.turns.at(-1)?.reasoningSummary, reply.reasoningSummary, 'the summary is kept with the conversation');

    // The next message continues from the stored reply (previous_response_id): earlier turns are billed as input.
    await panel.receive({ type: 'send', text: 'and then?' });
    await panel.idle();
    const next = panel.conversation.turns.at(-1)!;
    assert.equal(next.error, undefined, next.error?.message);
    assert.match(next.content, /You said: and then\?/);
    const stored = (await (await fetch(`${emu.url}/openai/v1/responses/${next.responseId}`, { headers: { 'api-key': emu.apiKey } })).json()) as { previous_response_id?: string };
    assert.equal(stored.previous_response_id, reply.responseId);
    assert.ok(next.usage!.prompt_tokens > reply.usage!.prompt_tokens);
  });

  it('a deployment whose name hides a Responses-only model goes straight to the Responses API (the model comes from the deployments list)', async () => {
    const before = emu.stats.requests;
    const { reply } = await chat('team-coder', 'hi team');
    assert.equal(reply.error, undefined, reply.error?.message);
    assert.equal(reply.api, 'responses');
    assert.match(reply.content, /You said: hi team/);
    assert.equal(reply.notes, undefined, 'no refused Chat Completions request first');
    assert.ok(emu.stats.requests - before <= 2, 'at most the deployments list and the response');
  });

  async function openPanel(deployment: string): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment });
    const panel = (await workbench()).services.chat.panel(res!.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await panel.receive({ type: 'setParams', params: { background: true } });
    return { panel, posted };
  }

  it('a background reply shows its status while queued and in progress, then its answer; Stop cancels one', async () => {
    const { panel, posted } = await openPanel('gpt-5-codex');
    await panel.receive({ type: 'send', text: 'later please' });
    await panel.idle();
    const statuses = posted.filter((m): m is Extract<HostMessage, { type: 'backgroundStatus' }> => m.type === 'backgroundStatus').map((m) => m.status);
    assert.equal(statuses[0], 'queued');
    assert.ok(statuses.includes('in_progress') || statuses.includes('completed'));
    const reply = panel.conversation.turns.at(-1)!;
    assert.equal(reply.error, undefined, reply.error?.message);
    assert.equal(reply.backgroundStatus, 'completed');
    assert.match(reply.content, /You said: later please/);
    assert.match(reply.reasoningSummary ?? '', /The user asked/);

    const sending = panel.receive({ type: 'send', text: 'never mind' });
    await eventually(() => posted.some((m) => m.type === 'backgroundStatus' && m.turnId !== reply.id));
    await panel.receive({ type: 'stop' });
    await sending;
    await panel.idle();
    const cancelled = panel.conversation.turns.at(-1)!;
    assert.equal(cancelled.backgroundStatus, 'cancelled');
    assert.equal(cancelled.stopped, true);
  });

  it('a background reply goes on when its panel closes, and is picked up again by id when the conversation reopens', async () => {
    const { panel, posted } = await openPanel('gpt-5-codex');
    const id = panel.conversation.id;
    const sending = panel.receive({ type: 'send', text: 'while I am away' });
    await eventually(() => posted.some((m) => m.type === 'backgroundStatus'));
    panel.panel.dispose();
    await sending;
    const saved = await (await workbench()).services.chat.conversations.load(id);
    assert.equal(saved?.turns.at(-1)?.backgroundStatus, 'queued', 'saved while queued');
    await exec('openConversation', { conversationId: id });
    const reopened = (await workbench()).services.chat.panel(id)!;
    await reopened.receive({ type: 'ready' });
    await reopened.idle();
    const reply = reopened.conversation.turns.at(-1)!;
    assert.equal(reply.backgroundStatus, 'completed');
    assert.match(reply.content, /You said: while I am away/);
  });
});
