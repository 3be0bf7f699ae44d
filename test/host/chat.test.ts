import assert from 'node:assert/strict';
import { execAsOurs } from './support';
import type { Emulator } from '../../src/emulator/server';
import type { ChatTurn } from '../../src/chat/model';
import type { HostMessage } from '../../src/webview/chat/protocol';
import type { ConnectionInfo } from '../../src/vscode/connections/connectionStore';
import type { ChatPanel } from '../../src/vscode/chat/chatPanel';
import { closeEmulatedService, emulatedService, eventually, workbench } from './support';

const exec = <T>(cmd: string, ...args: unknown[]) => execAsOurs<T>(cmd, ...args);

describe('chat panel', () => {
  let emu: Emulator;
  let conn: ConnectionInfo;

  before(async () => {
    ({ emu, conn } = await emulatedService('Chat emulator', {
      streamTokenDelayMs: 2,
      rateLimitWindowSeconds: 2,
      deployments: [
        { name: 'gpt-4o', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 50, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        { name: 'one-per-window', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1, tokensPerMinute: 1e7 },
      ],
    }));
  });
  after(async () => {
    await closeEmulatedService({ emu });
  });

  async function open(deployment = 'gpt-4o'): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const res = await exec<{ conversationId: string }>('openChat', { connectionId: conn.id, deployment });
    assert.ok(res?.conversationId);
    const api = await workbench();
    const panel = api.services.chat.panel(res.conversationId)!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    return { panel, posted };
  }

  const finished = (posted: HostMessage[]) => posted.filter((m): m is Extract<HostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished').map((m) => m.turn);

  it('sends, streams deltas, and saves the reply with usage and latency', async () => {
    const { panel, posted } = await open();
    await panel.receive({ type: 'send', text: 'hello panel' });
    await panel.idle();
    const deltas = posted.filter((m) => m.type === 'delta');
    assert.ok(deltas.length > 10, 'the reply arrived in pieces');
    const [reply] = finished(posted);
    assert.match(reply.content, /You said: hello panel/);
    assert.equal(deltas.map((d) => (d as { text: string }).text).join(''), reply.content);
    assert.ok(reply.usage && reply.usage.total_tokens > 0 && reply.latencyMs! >= 0);
    assert.equal(reply.model, 'gpt-4o-2024-11-20');
    const api = await workbench();
    const saved = await api.services.chat.conversations.load(panel.conversation.id);
    assert.deepEqual(saved?.turns.map((t) => t.role), ['user', 'assistant']);
    assert.equal(saved?.title, 'hello panel');
  });

  it('drops messages that do not follow the protocol', async () => {
    const { panel, posted } = await open();
    for (const bad of [{ type: 'send', text: 42 }, { type: 'eval', code: '1' }, 'send', null, { type: 'setParams', params: { temperature: 99 } }]) await panel.receive(bad);
    await panel.idle();
    assert.equal(posted.length, 0);
    assert.equal(panel.conversation.turns.length, 0);
  });

  it('Stop ends the reply at once and keeps what arrived', async () => {
    const { panel, posted } = await open();
    const sending = panel.receive({ type: 'send', text: '/long 5000' });
    await eventually(() => posted.filter((m) => m.type === 'delta').length >= 5);
    await panel.receive({ type: 'stop' });
    await sending;
    await panel.idle();
    const [reply] = finished(posted);
    assert.equal(reply.stopped, true);
    assert.ok(reply.content.length > 0 && reply.content.length < 5000 * 3);
    await eventually(() => emu.stats.streamsAborted >= 1);
  });

  it('Regenerate replaces the last reply; Edit resends the last message in its place', async () => {
    const { panel } = await open();
    await panel.receive({ type: 'send', text: 'first' });
    await panel.idle();
    await panel.receive({ type: 'regenerate' });
    await panel.idle();
    assert.deepEqual(panel.conversation.turns.map((t) => t.role), ['user', 'assistant']);
    await panel.receive({ type: 'editFrom', turnId: panel.conversation.turns[0].id, text: 'edited' });
    await panel.idle();
    assert.deepEqual(panel.conversation.turns.map((t) => t.content.split('\n')[0]), ['edited', 'You said: edited']);
  });

  it('applies parameters: max tokens cuts the reply, the deployment route works', async () => {
    const { panel } = await open();
    await panel.receive({ type: 'setParams', params: { maxTokens: 5, route: 'deployment', apiVersion: '2024-10-21', systemPrompt: 'Terse.' } });
    await panel.receive({ type: 'send', text: '/long 100' });
    await panel.idle();
    const reply = panel.conversation.turns.at(-1)!;
    assert.equal(reply.finishReason, 'length');
    assert.equal(reply.usage?.completion_tokens, 5);
  });

  it('shows errors inline and never loses the user\'s message: 404, content filter, 401', async () => {
    const { panel } = await open('missing-deployment');
    await panel.receive({ type: 'send', text: 'are you there?' });
    await panel.idle();
    let [user, reply] = panel.conversation.turns;
    assert.equal(user.content, 'are you there?');
    assert.match(reply.error?.message ?? '', /deployment "missing-deployment" does not exist/);

    await panel.receive({ type: 'setDeployment', connectionId: conn.id, deployment: 'gpt-4o' });
    await panel.receive({ type: 'send', text: '/filter' });
    await panel.idle();
    reply = panel.conversation.turns.at(-1)!;
    assert.match(reply.error?.message ?? '', /Blocked by the content filter: hate \(high severity\) in the prompt, violence \(medium severity\) in the prompt\..*raiPolicyName/);

    const wrong = (await exec<ConnectionInfo>('addConnection', { endpoint: emu.url, apiKey: 'not-the-key-000', label: 'Wrong key' }))!;
    await panel.receive({ type: 'setDeployment', connectionId: wrong.id, deployment: 'gpt-4o' });
    await panel.receive({ type: 'send', text: 'with the wrong key' });
    await panel.idle();
    [user, reply] = panel.conversation.turns.slice(-2);
    assert.equal(user.content, 'with the wrong key');
    assert.match(reply.error?.message ?? '', /Access denied \(401\)/);
    assert.ok(!reply.error!.message.includes('not-the-key-000'));
    // Retry once the connection is right: the same message gets its answer.
    await panel.receive({ type: 'setDeployment', connectionId: conn.id, deployment: 'gpt-4o' });
    await panel.receive({ type: 'regenerate' });
    await panel.idle();
    assert.match(panel.conversation.turns.at(-1)!.content, /You said: with the wrong key/);
    await exec('removeConnection', { connectionId: wrong.id });
  });

  it('counts down through a rate limit, then answers', async () => {
    const { panel, posted } = await open('one-per-window');
    await panel.receive({ type: 'send', text: 'one' });
    await panel.idle();
    await panel.receive({ type: 'send', text: 'two' });
    await panel.idle();
    assert.ok(posted.some((m) => m.type === 'retryCountdown' && m.seconds >= 1));
    assert.match(panel.conversation.turns.at(-1)!.content, /You said: two/);
  });

  it('a reply cut off by a reload keeps what arrived, says it was cut off, and Regenerate replaces it', async () => {
    const api = await workbench();
    const { panel } = await open();
    // A reply that cannot end before the test has seen its draft (1500 tokens at 100 ms: minutes,
    // stopped below), however slow the machine: at 2 ms it once finished before a draft was read.
    emu.config.streamTokenDelayMs = 100;
    const sending = panel.receive({ type: 'send', text: '/long 1500' }).finally(() => (emu.config.streamTokenDelayMs = 2));
    // Saved as it streams: the file holds part of the reply while it still arrives.
    const midway = await eventually(
      async () => {
        const saved = await api.services.chat.conversations.load(panel.conversation.id);
        const last = saved?.turns.at(-1);
        return last?.role === 'assistant' && last.streaming && last.content.length > 0 ? saved : undefined;
      },
      undefined,
      'the conversation file to hold part of the reply, marked streaming',
    );
    // What a window reloaded (or an extension host restarted) now finds: that file, opened again.
    const id = `${midway!.id}-after-reload`;
    await api.services.chat.conversations.save({ ...midway!, id });
    await panel.receive({ type: 'stop' });
    await sending;
    assert.deepEqual(await exec('openConversation', { conversationId: id }), { conversationId: id });
    const reopened = api.services.chat.panel(id)!;
    const cut = reopened.conversation.turns.at(-1)!;
    assert.deepEqual([cut.interrupted, cut.streaming, cut.content], [true, undefined, midway!.turns.at(-1)!.content]);
    await eventually(async () => (await api.services.chat.conversations.load(id))?.turns.at(-1)?.interrupted, undefined, 'the reopened file to mark the reply interrupted');
    const posted: HostMessage[] = [];
    reopened.onDidPost((m) => posted.push(m));
    await reopened.receive({ type: 'regenerate' });
    await reopened.idle();
    const again = reopened.conversation.turns;
    assert.deepEqual(again.map((t) => t.role), ['user', 'assistant']);
    assert.equal(again[1].interrupted, undefined);
    assert.ok(again[1].content.length > cut.content.length, 'a whole reply in place of the cut one');
    assert.equal(finished(posted).length, 1);
    reopened.panel.dispose();
    await exec('deleteConversation', { conversationId: id });
  });

  it('comes back after the panel is closed, with its history; exports Markdown', async () => {
    const { panel } = await open();
    await panel.receive({ type: 'send', text: 'remember me' });
    await panel.idle();
    const id = panel.conversation.id;
    panel.panel.dispose();
    const api = await workbench();
    assert.equal(api.services.chat.panel(id), undefined);
    assert.deepEqual(await exec('openConversation', { conversationId: id }), { conversationId: id });
    const reopened = api.services.chat.panel(id)!;
    assert.deepEqual(reopened.conversation.turns.map((t: ChatTurn) => t.content.split('\n')[0]), ['remember me', 'You said: remember me']);
    const md = await exec<string>('exportConversation', { conversationId: id, format: 'markdown' });
    assert.match(md ?? '', /## You\n\nremember me/);
    assert.equal(await exec('deleteConversation', { conversationId: id }), true);
    assert.equal(await api.services.chat.conversations.load(id), undefined);
  });
});
