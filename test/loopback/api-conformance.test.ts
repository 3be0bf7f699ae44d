/**
 * The conformance check, part one: chat completions and the Responses API on the v1 route, and the
 * model list, against OpenAI's API description (openai/openai-openapi). Each check sends what a
 * user's client sends to the real emulator on loopback and validates the status, the content type
 * and the body, or every streamed event, against the operation's response schema. The extracts
 * are written by scripts/api-descriptions.mjs; see test/fixtures/api-descriptions/README.md.
 */
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { conformsAzureChatStream, conformsEmpty, conformsJson, conformsSchema, conformsStream, missingDescriptions } from '../support/apiConformance';
import { json, longPrompt, sender, type Send } from '../support/conformanceHttp';
import { eventually } from '../support/receiver';

const CHAT = 'POST /chat/completions';
const weather = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const user = (content: unknown) => [{ role: 'user', content }];
type Chat = { model: string; choices: Array<{ finish_reason: string; message: { tool_calls?: unknown[] } }>; usage: Record<string, Record<string, number>> };

describe('API conformance: chat, responses and models (OpenAI description)', function () {
  let emu: Emulator;
  let send: Send;

  before(async function () {
    const missing = missingDescriptions(['openai', 'azure-2024-10-21']);
    if (missing.length) {
      console.warn(`  api descriptions missing (${missing.join(', ')}): see test/fixtures/api-descriptions/README.md`);
      this.skip();
    }
    emu = await startEmulator({ config: { responseQueuedMs: 300, responseInProgressMs: 20 } });
    send = sender(emu);
  });
  after(() => emu?.close());

  const chat = (body: Record<string, unknown>) => send('POST', '/openai/v1/chat/completions', { model: 'gpt-4o', ...body });
  const respond = (body: Record<string, unknown>) => send('POST', '/openai/v1/responses', { model: 'gpt-4o', ...body });

  it('chat completion: a plain reply', async () => {
    conformsJson('openai', CHAT, await chat({ messages: user('hello') }));
  });

  it('chat completion: every streamed chunk, the usage chunk last', async () => {
    const chunks = conformsAzureChatStream('openai', CHAT, await chat({ messages: user('/markdown'), stream: true, stream_options: { include_usage: true } }));
    assert.ok((chunks.at(-1) as { usage?: unknown }).usage, 'the last chunk carries the usage');
  });

  it('chat completion: a tool call', async () => {
    const a = await chat({ messages: user('Use get_weather for Oslo'), tools: [weather] });
    conformsJson('openai', CHAT, a);
    assert.equal(json<Chat>(a).choices[0].finish_reason, 'tool_calls');
  });

  it('chat completion: a tool call streamed as deltas', async () => {
    const chunks = conformsAzureChatStream('openai', CHAT, await chat({ messages: user('Use get_weather for Oslo'), tools: [weather], stream: true }));
    assert.ok(chunks.some((c) => JSON.stringify(c).includes('"tool_calls"')), 'the tool call is streamed');
  });

  it('chat completion: image input', async () => {
    conformsJson('openai', CHAT, await chat({ messages: user([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG } }]) }));
  });

  it('chat completion: a reasoning model with reasoning_effort', async () => {
    conformsJson('openai', CHAT, await chat({ model: 'o3-mini', messages: user('think'), reasoning_effort: 'low', max_completion_tokens: 500 }));
  });

  it('chat completion: a repeated long prompt reports cached tokens', async () => {
    const messages = user(longPrompt(1500));
    await chat({ messages });
    const a = await chat({ messages });
    conformsJson('openai', CHAT, a);
    assert.ok(json<Chat>(a).usage.prompt_tokens_details.cached_tokens >= 1024);
  });

  it('chat completion: the model router names the model that answered', async () => {
    const a = await chat({ model: 'model-router', messages: user('route me') });
    conformsJson('openai', CHAT, a);
    assert.match(json<Chat>(a).model, /^gpt-4\.1-(nano|mini)-2025-04-14$/);
  });

  it('chat completion: the model router streamed, every chunk naming the model that answered', async () => {
    const chunks = conformsAzureChatStream('openai', CHAT, await chat({ model: 'model-router', messages: user('route me'), stream: true }));
    const models = new Set(chunks.slice(1).map((c) => c.model));
    assert.equal(models.size, 1);
    assert.match(String([...models][0]), /^gpt-4\.1-(nano|mini)-2025-04-14$/);
  });

  it('chat completion: a reply annotated by the content filter (/annotate)', async () => {
    conformsJson('openai', CHAT, await chat({ messages: user('/annotate') }));
  });

  it('chat completion: a stream the content filter ends (/filter-stream)', async () => {
    const chunks = conformsAzureChatStream('openai', CHAT, await chat({ messages: user('/filter-stream'), stream: true }));
    assert.ok(JSON.stringify(chunks).includes('"finish_reason":"content_filter"'));
  });

  it('models: the list', async () => {
    conformsJson('openai', 'GET /models', await send('GET', '/openai/v1/models'));
  });

  it('responses: a plain reply', async () => {
    conformsJson('openai', 'POST /responses', await respond({ input: 'hello', metadata: { k: 'v' } }));
  });

  it('responses: every streamed event, in the event named by its type', async () => {
    const events = conformsStream('openai', 'POST /responses', await respond({ input: '/markdown', stream: true }));
    assert.equal(events.at(-1)?.type, 'response.completed');
  });

  it('responses: a function call, streamed and not', async () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: weather.function.parameters }];
    conformsJson('openai', 'POST /responses', await respond({ input: 'Use get_weather for Oslo', tools }));
    const events = conformsStream('openai', 'POST /responses', await respond({ input: 'Use get_weather for Oslo', tools, stream: true }));
    assert.ok(events.some((e) => e.type === 'response.function_call_arguments.done'));
  });

  it('responses: reasoning with a summary, streamed and not', async () => {
    const body = { model: 'o3-mini', input: 'think hard', reasoning: { effort: 'medium', summary: 'auto' } };
    conformsJson('openai', 'POST /responses', await respond(body));
    const events = conformsStream('openai', 'POST /responses', await respond({ ...body, stream: true }));
    assert.ok(events.some((e) => String(e.type).startsWith('response.reasoning_summary')));
  });

  it('responses: image input and a repeated long prompt with cached tokens', async () => {
    conformsJson('openai', 'POST /responses', await respond({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'What?' }, { type: 'input_image', image_url: PNG }] }] }));
    const input = longPrompt(1500);
    await respond({ input });
    const a = await respond({ input });
    conformsJson('openai', 'POST /responses', a);
    assert.ok(json<{ usage: { input_tokens_details: { cached_tokens: number } } }>(a).usage.input_tokens_details.cached_tokens >= 1024);
  });

  it('responses: the model router names the model that answered', async () => {
    const a = await respond({ model: 'model-router', input: 'route me' });
    conformsJson('openai', 'POST /responses', a);
    assert.match(String(json(a).model), /^gpt-4\.1-(nano|mini)-2025-04-14$/);
  });

  it('responses: a second turn through previous_response_id', async () => {
    const first = json<{ id: string }>(await respond({ input: 'my name is Ada' }));
    const a = await respond({ input: 'what is my name?', previous_response_id: first.id });
    conformsJson('openai', 'POST /responses', a);
    assert.equal(json(a).previous_response_id, first.id);
  });

  it('responses: max_output_tokens or the content filter ends it incomplete', async () => {
    const a = await respond({ input: '/long 400', max_output_tokens: 16 });
    conformsJson('openai', 'POST /responses', a);
    assert.equal(json(a).status, 'incomplete');
    const filtered = await respond({ input: '/filter protected_material_code' });
    conformsJson('openai', 'POST /responses', filtered);
    assert.deepEqual(json<{ incomplete_details: unknown }>(filtered).incomplete_details, { reason: 'content_filter' });
  });

  it('responses: in the background, retrieved queued and completed, and its input items', async () => {
    const created = await respond({ input: 'background please', background: true });
    conformsJson('openai', 'POST /responses', created);
    const id = json<{ id: string }>(created).id;
    const done = await eventually(async () => {
      const a = await send('GET', `/openai/v1/responses/${id}`);
      return json(a).status === 'completed' ? a : undefined;
    });
    conformsJson('openai', 'GET /responses/{id}', done);
    conformsJson('openai', 'GET /responses/{id}/input_items', await send('GET', `/openai/v1/responses/${id}/input_items`));
  });

  it('responses: a background stream resumed after an event', async () => {
    const created = json<{ id: string }>(await respond({ input: '/markdown', background: true, stream: false }));
    await eventually(async () => (json((await send('GET', `/openai/v1/responses/${created.id}`))).status === 'completed' ? true : undefined));
    const resumed = await send('GET', `/openai/v1/responses/${created.id}?stream=true&starting_after=2`);
    // GET /responses/{id} describes no stream: its events are the stream events of POST /responses.
    const events = conformsStream('openai', 'GET /responses/{id}', resumed, 'ResponseStreamEvent');
    assert.ok(events.every((e) => (e.sequence_number as number) > 2));
  });

  // The response is queued for 300 ms (responseQueuedMs): the cancel reaches it before it runs.
  it('responses: cancel a background response, then delete it', async () => {
    const created = json<{ id: string }>(await respond({ input: '/long 2000', background: true }));
    const cancelled = await send('POST', `/openai/v1/responses/${created.id}/cancel`);
    conformsJson('openai', 'POST /responses/{id}/cancel', cancelled);
    assert.equal(json(cancelled).status, 'cancelled');
    const deleted = await send('DELETE', `/openai/v1/responses/${created.id}`);
    assert.equal(deleted.status, 200);
    conformsEmpty('openai', 'DELETE /responses/{id}', deleted);
  });

  it('responses: a cancel of an unknown response answers 404 with the described error', async () => {
    const a = await send('POST', '/openai/v1/responses/resp_unknown/cancel');
    assert.equal(a.status, 404);
    conformsJson('openai', 'POST /responses/{id}/cancel', a);
    conformsSchema('openai', 'ErrorResponse', json(a));
  });
});
