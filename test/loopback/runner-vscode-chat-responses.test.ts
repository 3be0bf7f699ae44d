/**
 * The language model provider's Responses route, against the emulator over real HTTP: a
 * Responses-only deployment answers, a deployment the service refuses on Chat Completions is
 * answered through Responses and remembered, tools and images travel as Responses items, and
 * the route keeps the provider's rules (cancel at once, never resend after the first byte,
 * refusals as messages, options adapted to the model).
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { ApiMemory } from '../../src/chat/apiMemory';
import { runLmChat, type LmChatInput } from '../support/lmRun';
import type { NeutralMessage, OfferedTool } from '../../src/chat/engine/messages';
import type { CompletedToolCall } from '../../src/chat/engine/toolCalls';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import { refuseParameter, recordingServer } from '../support/bodyRecorder';
import { eventually } from '../support/receiver';

const user = (text: string): NeutralMessage[] => [{ role: 'user', parts: [{ type: 'text', text }] }];
const PNG_1x1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
const weather: OfferedTool = { name: 'get_weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('language model requests on the Responses API (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  const deployment = (name: string, model: string, requestsPerMinute = 1000) => ({ name, model, version: '2025-09-15', sku: 'GlobalStandard', capacity: 1, requestsPerMinute, tokensPerMinute: 1e7 });
  before(async () => {
    emu = await startEmulator({
      config: {
        streamTokenDelayMs: 1,
        rateLimitWindowSeconds: 30,
        deployments: [deployment('gpt-5-codex', 'gpt-5-codex'), deployment('team-coder', 'gpt-5-codex'), deployment('vision', 'gpt-4o')],
      },
    });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  const run = (name: string, messages: NeutralMessage[], extra: Partial<LmChatInput> = {}) => {
    const text: string[] = [];
    const calls: CompletedToolCall[] = [];
    const done = runLmChat({
      client,
      deployment: name,
      messages,
      apiMemory: new ApiMemory(),
      signal: new AbortController().signal,
      onText: (t) => text.push(t),
      onToolCall: (c) => calls.push(c),
      ...extra,
    });
    return { text, calls, done };
  };

  it('a Responses-only deployment answers in pieces, with usage and the model that answered, in one request', async () => {
    const before = emu.stats.requests;
    const { text, done } = run('gpt-5-codex', user('hello codex'), { model: 'gpt-5-codex' });
    const r = await done;
    assert.ok(text.length > 3, 'several pieces');
    assert.match(text.join(''), /You said: hello codex/);
    assert.equal(r.api, 'responses');
    assert.equal(r.model, 'gpt-5-codex-2025-09-15');
    assert.equal(r.finishReason, 'stop');
    assert.ok(r.usage && r.usage.prompt_tokens > 0 && r.usage.completion_tokens > 0, JSON.stringify(r.usage));
    assert.equal(emu.stats.requests - before, 1, 'straight to the Responses API');
  });

  it('a deployment refused on Chat Completions (model unknown by name) is answered through Responses, and remembered', async () => {
    const memory = new ApiMemory();
    const before = emu.stats.requests;
    const first = run('team-coder', user('first try'), { apiMemory: memory });
    assert.equal((await first.done).api, 'responses');
    assert.match(first.text.join(''), /You said: first try/);
    assert.equal(emu.stats.requests - before, 2, 'refused on Chat Completions, then answered');
    assert.equal(memory.get(client.endpoint, 'team-coder'), 'responses');
    const mid = emu.stats.requests;
    const second = run('team-coder', user('second try'), { apiMemory: memory });
    assert.match((await second.done, second.text.join('')), /You said: second try/);
    assert.equal(emu.stats.requests - mid, 1, 'the next request goes to Responses at once');
  });

  it('a tool round trip: the model asks for the tool, gets its result back as items, and answers', async () => {
    const ask = run('gpt-5-codex', user('Use get_weather for Oslo'), { model: 'gpt-5-codex', tools: [weather] });
    const r = await ask.done;
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(ask.calls.length, 1);
    const [call] = ask.calls;
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(call.input, { city: 'Oslo' });
    assert.match(call.callId, /^call_/);
    const history: NeutralMessage[] = [
      ...user('Use get_weather for Oslo'),
      { role: 'assistant', parts: [{ type: 'toolCall', callId: call.callId, name: call.name, input: call.input }] },
      { role: 'user', parts: [{ type: 'toolResult', callId: call.callId, parts: [{ type: 'text', text: '4 °C and snow' }] }] },
    ];
    const answer = run('gpt-5-codex', history, { model: 'gpt-5-codex', tools: [weather] });
    await answer.done;
    assert.match(answer.text.join(''), /The function get_weather returned: 4 °C and snow/);
    assert.equal(answer.calls.length, 0);
  });

  it('a tool whose name the service would refuse is called under a stand-in and reported under its own name', async () => {
    const tool: OfferedTool = { ...weather, name: 'mcp.weather/get' };
    const { calls, done } = run('gpt-5-codex', user('call mcp_weather_get on Rome'), { model: 'gpt-5-codex', tools: [tool], toolMode: 'required' });
    await done;
    assert.deepEqual(calls.map((c) => c.name), ['mcp.weather/get']);
  });

  it('an image reaches the model as an input_image and is billed in the prompt', async () => {
    const plain = await run('gpt-5-codex', user('What is this?'), { model: 'gpt-5-codex' }).done;
    const withImage = await run(
      'gpt-5-codex',
      [{ role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: PNG_1x1 }] }],
      { model: 'gpt-5-codex' },
    ).done;
    assert.ok(plain.usage && withImage.usage);
    assert.ok(withImage.usage.prompt_tokens - plain.usage.prompt_tokens >= 85, `${plain.usage.prompt_tokens} → ${withImage.usage.prompt_tokens}`);
  });

  it('model options are adapted to the model: a reasoning model gets its effort and no temperature, in one request', async () => {
    const before = emu.stats.requests;
    const low = await run('gpt-5-codex', user('think'), { model: 'gpt-5-codex', modelOptions: { temperature: 0.4, reasoningEffort: 'low' } }).done;
    const high = await run('gpt-5-codex', user('think'), { model: 'gpt-5-codex', modelOptions: { temperature: 0.4, reasoningEffort: 'high' } }).done;
    assert.equal(emu.stats.requests - before, 2, 'nothing refused');
    const reasoning = (r: typeof low) => r.usage?.completion_tokens_details?.reasoning_tokens ?? 0;
    assert.ok(reasoning(high) > reasoning(low) && reasoning(low) > 0, `${reasoning(low)} < ${reasoning(high)}`);
    const cut = await run('gpt-5-codex', user('/long 500'), { model: 'gpt-5-codex', modelOptions: { maxTokens: 100, reasoningEffort: 'minimal' } }).done;
    assert.equal(cut.finishReason, 'length', 'the token limit was applied');
  });

  it('cancelling ends the stream at once; the emulator sees the client go', async () => {
    const abort = new AbortController();
    const aborted = emu.stats.streamsAborted;
    const { text, done } = run('gpt-5-codex', user('/long 5000'), { model: 'gpt-5-codex', signal: abort.signal, modelOptions: { reasoningEffort: 'minimal' } });
    await eventually(() => text.length >= 5);
    abort.abort();
    const r = await done;
    assert.equal(r.stopped, true);
    const got = text.length;
    await eventually(() => emu.stats.streamsAborted > aborted);
    assert.equal(text.length, got, 'nothing more arrived after the cancel');
  });

  it('refusals read as what happened and what to do', async () => {
    await assert.rejects(run('missing-codex', user('hi'), { model: 'gpt-5-codex' }).done, /The deployment "missing-codex" does not exist on 127\.0\.0\.1:\d+\. Check the name/);
    await assert.rejects(run('gpt-5-codex', user('/filter'), { model: 'gpt-5-codex' }).done, /Blocked by the content filter: hate \(high severity\) in the prompt.*Rephrase/);
    await assert.rejects(run('gpt-5-codex', user('/fail'), { model: 'gpt-5-codex' }).done, /broke off \(server_error\)\. Try again/);
  });
});

describe('the Responses route over a scripted loopback server', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  async function scripted(reply: Parameters<typeof recordingServer>[0]) {
    const s = await recordingServer(reply);
    servers.push(s.server);
    return { bodies: s.bodies, client: new AzureOpenAIClient({ endpoint: s.url, auth: { kind: 'apiKey', apiKey: 'k' } }) };
  }
  const event = (e: Record<string, unknown>) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
  const responsesMemory = (client: AzureOpenAIClient, name: string) => {
    const m = new ApiMemory();
    m.remember(client.endpoint, name, 'responses');
    return m;
  };

  it('never sends the request again once an event has arrived, even if the stream then breaks', async () => {
    const s = await scripted((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress' } }));
      res.write(event({ type: 'response.output_text.delta', sequence_number: 1, delta: 'Half' }));
      setTimeout(() => res.destroy(), 20);
    });
    const text: string[] = [];
    const done = runLmChat({
      client: s.client,
      deployment: 'codex',
      model: 'gpt-5-codex',
      messages: user('hi'),
      apiMemory: new ApiMemory(),
      signal: new AbortController().signal,
      onText: (t) => text.push(t),
      onToolCall: () => {},
    });
    await assert.rejects(done, /broke off|was cut|connection|ended before/i);
    await s.client.close();
    assert.deepEqual(text, ['Half']);
    assert.equal(s.bodies.length, 1, 'one request only');
  });

  it('after a refused parameter (400 before any event) sends once more without it', async () => {
    const s = await scripted((body, res, n) => {
      if (n === 1) return refuseParameter(res, 'temperature');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ type: 'response.output_text.delta', sequence_number: 0, delta: `temperature ${body.temperature === undefined ? 'dropped' : 'kept'}` }));
      res.end(event({ type: 'response.completed', sequence_number: 1, response: { id: 'r', status: 'completed', usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } }));
    });
    const text: string[] = [];
    const r = await runLmChat({
      client: s.client,
      deployment: 'custom-name',
      messages: user('hi'),
      modelOptions: { temperature: 0.7 },
      apiMemory: responsesMemory(s.client, 'custom-name'),
      signal: new AbortController().signal,
      onText: (t) => text.push(t),
      onToolCall: () => {},
    });
    await s.client.close();
    assert.equal(s.bodies.length, 2);
    assert.equal(s.bodies[0].temperature, 0.7);
    assert.deepEqual(text, ['temperature dropped']);
    assert.equal(r.usage?.total_tokens, 5);
  });

  it('a reply the content filter stops part way keeps what arrived and then says so', async () => {
    const s = await scripted((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ type: 'response.output_text.delta', sequence_number: 0, delta: 'Once upon' }));
      res.end(event({ type: 'response.incomplete', sequence_number: 1, response: { id: 'r', status: 'incomplete', incomplete_details: { reason: 'content_filter' } } }));
    });
    const text: string[] = [];
    const done = runLmChat({
      client: s.client,
      deployment: 'codex',
      model: 'gpt-5-codex',
      messages: user('story'),
      apiMemory: new ApiMemory(),
      signal: new AbortController().signal,
      onText: (t) => text.push(t),
      onToolCall: () => {},
    });
    await assert.rejects(done, /content filter stopped the reply of "codex" part way\. Rephrase/);
    await s.client.close();
    assert.deepEqual(text, ['Once upon']);
  });
});
