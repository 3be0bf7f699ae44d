import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { runLmChat, ReplyFilteredError, type LmChatInput } from '../support/lmRun';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import type { CompletedToolCall } from '../../src/chat/engine/toolCalls';
import type { Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { refuseParameter, recordingServer as scripted } from '../support/bodyRecorder';
import { eventually } from '../support/receiver';
import { closeAll, deployment, emulatorClient } from '../support/emulatorClient';

const user = (text: string): NeutralMessage[] => [{ role: 'user', parts: [{ type: 'text', text }] }];

function collect(): { text: string[]; calls: CompletedToolCall[]; order: string[]; hooks: Pick<LmChatInput, 'onText' | 'onToolCall'> } {
  const out = { text: [] as string[], calls: [] as CompletedToolCall[], order: [] as string[] };
  return {
    ...out,
    hooks: {
      onText: (t) => (out.text.push(t), out.order.push('text')),
      onToolCall: (c) => (out.calls.push(c), out.order.push(`call:${c.name}`)),
    },
  };
}

describe('language model requests against the emulator', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  before(async () => ({ emu, client } = await emulatorClient({
    config: {
      streamTokenDelayMs: 1,
      rateLimitWindowSeconds: 30,
      deployments: [
        deployment('chat', 'gpt-4o', { version: '2024-11-20' }),
        deployment('reasoner', 'o3-mini'),
        deployment('one-a-minute', 'gpt-4o', { requestsPerMinute: 1 }),
      ],
    },
  })));
  after(() => closeAll(client, emu));

  const run = (deployment: string, messages: NeutralMessage[], extra: Partial<LmChatInput> = {}) => {
    const c = collect();
    const done = runLmChat({ client, deployment, messages, signal: new AbortController().signal, ...c.hooks, ...extra });
    return { c, done };
  };

  it('streams the reply in pieces with the usage and the model that answered', async () => {
    const { c, done } = run('chat', user('hello provider'), { model: 'gpt-4o' });
    const r = await done;
    assert.ok(c.text.length > 3, 'several pieces');
    assert.match(c.text.join(''), /You said: hello provider/);
    assert.equal(r.model, 'gpt-4o-2024-11-20');
    assert.equal(r.finishReason, 'stop');
    assert.ok(r.usage && r.usage.prompt_tokens > 0 && r.usage.completion_tokens > 0);
    assert.equal(r.stopped, false);
  });

  it('sends a reasoning model max_completion_tokens at once when the model is known, and adapts to each refusal when it is not', async () => {
    const before = emu.stats.requests;
    // The limit holds the model's thinking too (192 tokens at medium effort): 200 leaves a few for the answer.
    await run('reasoner', user('/long 200'), { model: 'o3-mini', modelOptions: { maxTokens: 200 } }).done;
    assert.equal(emu.stats.requests - before, 1, 'one request');
    const mid = emu.stats.requests;
    const { c, done } = run('reasoner', user('/long 200'), { modelOptions: { maxTokens: 200, temperature: 0.3 } });
    const r = await done;
    assert.equal(r.finishReason, 'length', 'the limit was applied');
    assert.ok(c.text.length > 0);
    assert.equal(emu.stats.requests - mid, 3, 'refused max_tokens, then temperature, then answered');
  });

  it('cancelling ends the stream at once; the emulator sees the client go', async () => {
    const abort = new AbortController();
    const aborted = emu.stats.streamsAborted;
    const c = collect();
    const done = runLmChat({ client, deployment: 'chat', messages: user('/long 5000'), signal: abort.signal, ...c.hooks });
    await eventually(() => c.text.length >= 5);
    abort.abort();
    const r = await done;
    assert.equal(r.stopped, true);
    const got = c.text.length;
    await eventually(() => emu.stats.streamsAborted > aborted);
    assert.equal(c.text.length, got, 'nothing more arrived after the cancel');
    assert.ok(!c.text.join('').includes('[DONE]'));
  });

  it('turns refusals into messages that say what happened and what to do', async () => {
    await assert.rejects(run('missing', user('hi')).done, /The deployment "missing" does not exist on 127\.0\.0\.1:\d+\. Check the name/);
    await assert.rejects(run('chat', user('/filter')).done, /Blocked by the content filter: hate \(high severity\) in the prompt, violence \(medium severity\) in the prompt\. Rephrase/);
    await run('one-a-minute', user('hi')).done;
    await assert.rejects(run('one-a-minute', user('hi')).done, /Rate limit reached on 127\.0\.0\.1:\d+\. Retry in \d+ seconds?\./);
  });

  it('a reply the content filter stops part way keeps what arrived and then says so', async () => {
    const { c, done } = run('chat', user('/filter-stream tell me'));
    await assert.rejects(done, (e: Error) => e instanceof ReplyFilteredError && /stopped the reply of "chat" part way: violence \(medium severity\) in the reply\. Ask again/.test(e.message));
    assert.ok(c.text.length > 0, 'the text before the filter was reported');
  });
});

const frame = (choices: unknown[], usage: unknown = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-2024-11-20', choices, usage })}\n\n`;
const delta = (d: unknown, finish: string | null = null) => frame([{ index: 0, delta: d, finish_reason: finish }]);

describe('language model tool calls over a real stream (scripted loopback server)', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  it('sends the tools and the tool round trip, and reports text, then each whole call with its arguments', async () => {
    const s = await scripted((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta({ role: 'assistant', content: 'Checking.' }));
      res.write(delta({ tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'weather', arguments: '' } }] }));
      res.write(delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }));
      res.write(delta({ tool_calls: [{ index: 1, id: 'call_t', type: 'function', function: { name: 'time', arguments: '{}' } }] }));
      res.write(delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }));
      res.write(delta({}, 'tool_calls'));
      res.write(frame([], { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 }));
      res.end('data: [DONE]\n\n');
    });
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'test-key' } });
    const c = collect();
    const history: NeutralMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', parts: [{ type: 'toolCall', callId: 'call_0', name: 'weather', input: { city: 'Rome' } }] },
      { role: 'user', parts: [{ type: 'toolResult', callId: 'call_0', parts: [{ type: 'text', text: '18 °C' }] }] },
    ];
    const r = await runLmChat({
      client,
      deployment: 'chat',
      model: 'gpt-4o',
      messages: history,
      tools: [
        { name: 'weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { name: 'time', description: 'Now' },
      ],
      toolMode: 'required',
      signal: new AbortController().signal,
      ...c.hooks,
    });
    await client.close();
    assert.deepEqual(c.order, ['text', 'call:weather', 'call:time']);
    assert.deepEqual(c.calls, [
      { callId: 'call_w', name: 'weather', input: { city: 'Oslo' } },
      { callId: 'call_t', name: 'time', input: {} },
    ]);
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(r.usage?.total_tokens, 42);
    const [body] = s.bodies;
    assert.equal(body.model, 'chat');
    assert.equal(body.stream, true);
    assert.equal(body.tool_choice, 'required');
    assert.deepEqual((body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name), ['weather', 'time']);
    assert.deepEqual(body.messages, [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: '18 °C' },
    ]);
  });

  it('a tool whose name the service would refuse travels under a stand-in and comes back under its own name', async () => {
    const s = await scripted((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta({ tool_calls: [{ index: 0, id: 'call_r', type: 'function', function: { name: 'mcp_fs_read', arguments: '{"path":"a.txt"}' } }] }));
      res.end(delta({}, 'tool_calls') + 'data: [DONE]\n\n');
    });
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'test-key' } });
    const c = collect();
    await runLmChat({ client, deployment: 'chat', messages: user('read a.txt'), tools: [{ name: 'mcp.fs/read', description: 'Reads a file' }], signal: new AbortController().signal, ...c.hooks });
    await client.close();
    assert.equal((s.bodies[0].tools as Array<{ function: { name: string } }>)[0].function.name, 'mcp_fs_read');
    assert.deepEqual(c.calls, [{ callId: 'call_r', name: 'mcp.fs/read', input: { path: 'a.txt' } }]);
  });

  it('never sends the request again once a chunk has arrived, even if the stream then breaks', async () => {
    const s = await scripted((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta({ role: 'assistant', content: 'Half' }));
      setTimeout(() => res.destroy(), 20);
    });
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'test-key' } });
    const c = collect();
    await assert.rejects(runLmChat({ client, deployment: 'chat', messages: user('hi'), signal: new AbortController().signal, ...c.hooks }), /broke off|was cut|connection/i);
    await client.close();
    assert.deepEqual(c.text, ['Half']);
    assert.equal(s.bodies.length, 1, 'one request only');
  });

  it('after a refused parameter (400 before any byte of a reply) sends once more without it', async () => {
    const s = await scripted((body, res, n) => {
      if (n === 1) return refuseParameter(res, 'temperature');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(delta({ content: `temperature ${body.temperature === undefined ? 'dropped' : 'kept'}` }, 'stop') + 'data: [DONE]\n\n');
    });
    servers.push(s.server);
    const client = new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'test-key' } });
    const c = collect();
    await runLmChat({ client, deployment: 'custom-name', messages: user('hi'), modelOptions: { temperature: 0.7 }, signal: new AbortController().signal, ...c.hooks });
    await client.close();
    assert.equal(s.bodies.length, 2);
    assert.equal(s.bodies[0].temperature, 0.7);
    assert.deepEqual(c.text, ['temperature dropped']);
  });
});
