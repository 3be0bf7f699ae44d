/**
 * The conformance check, part four: chat completions on the v1 route (/openai/v1/chat/completions)
 * against Azure's v1 description (specification/ai/data-plane/OpenAI.v1), where Azure adds its
 * content filter annotations and error body to OpenAI's shapes. Part one checks the same route
 * against OpenAI's description.
 */
import assert from 'node:assert/strict';
import { PROMPT_FILTER_CATEGORIES, REPLY_FILTER_CATEGORIES } from '../../src/emulator/filterResults';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { conformsAzureChatStream, conformsJson, conformsSchema, finishingChoice, missingDescriptions } from '../support/apiConformance';
import { json, sender, type Send } from '../support/conformanceHttp';

const AZ = 'azure-v1';
const OP = 'POST /chat/completions';
const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const user = (content: string) => [{ role: 'user', content }];
type Reply = { prompt_filter_results: unknown[]; choices: Array<{ finish_reason: string; content_filter_results: unknown }> };

describe('API conformance: the v1 chat route (Azure v1 description)', function () {
  let emu: Emulator;
  let send: Send;

  before(async function () {
    const missing = missingDescriptions([AZ, 'azure-2024-10-21']);
    if (missing.length) {
      console.warn(`  api descriptions missing (${missing.join(', ')}): see test/fixtures/api-descriptions/README.md`);
      this.skip();
    }
    emu = await startEmulator({});
    send = sender(emu);
  });
  after(() => emu?.close());

  const chat = (body: Record<string, unknown>, headers?: Record<string, string>) => send('POST', '/openai/v1/chat/completions', { model: 'gpt-4o', ...body }, headers);
  /**
   * Each prompt's results against AzureContentFilterResultForPrompt, the item {prompt_index,
   * content_filter_results}: the response schema wraps that item once more in
   * content_filter_results, which no answer of the service does, so it would check nothing.
   */
  const promptResults = (body: Reply) => body.prompt_filter_results.forEach((item) => conformsSchema(AZ, 'AzureContentFilterResultForPrompt', item));

  it('v1 chat: a plain reply and its prompt and choice filter results', async () => {
    const a = await chat({ messages: user('hello') });
    conformsJson(AZ, OP, a);
    promptResults(json<Reply>(a));
    conformsSchema(AZ, 'AzureContentFilterResultForChoice', json<Reply>(a).choices[0].content_filter_results);
  });

  it('v1 chat: every streamed chunk, the prompt-results frame first', async () => {
    const chunks = conformsAzureChatStream(AZ, OP, await chat({ messages: user('/markdown'), stream: true, stream_options: { include_usage: true } }));
    promptResults(chunks[0] as Reply);
  });

  it('v1 chat: a tool call, plain and streamed', async () => {
    const a = await chat({ messages: user('Use get_weather for Oslo'), tools: [weather] });
    conformsJson(AZ, OP, a);
    assert.equal(json<Reply>(a).choices[0].finish_reason, 'tool_calls');
    conformsAzureChatStream(AZ, OP, await chat({ messages: user('Use get_weather for Oslo'), tools: [weather], stream: true }));
  });

  it('v1 chat: /annotate and /filter-stream carry the choice results Azure describes', async () => {
    const a = await chat({ messages: user('/annotate') });
    conformsJson(AZ, OP, a);
    conformsSchema(AZ, 'AzureContentFilterResultForChoice', json<Reply>(a).choices[0].content_filter_results);
    const chunks = conformsAzureChatStream(AZ, OP, await chat({ messages: user('/filter-stream'), stream: true }));
    const last = finishingChoice(chunks);
    assert.equal(last?.finish_reason, 'content_filter');
    conformsSchema(AZ, 'AzureContentFilterResultForChoice', last?.content_filter_results);
    // Protected material is a reply verdict: detected with its citation, or the reply ended (200, never the prompt's 400).
    const code = await chat({ messages: user('/annotate protected_material_code') });
    conformsJson(AZ, OP, code);
    conformsSchema(AZ, 'AzureContentFilterResultForChoice', json<Reply>(code).choices[0].content_filter_results);
    for (const category of REPLY_FILTER_CATEGORIES) {
      const ended = await chat({ messages: user(`/filter ${category}`) });
      assert.equal(ended.status, 200, `/filter ${category}`);
      conformsJson(AZ, OP, ended);
      conformsSchema(AZ, 'AzureContentFilterResultForChoice', json<Reply>(ended).choices[0].content_filter_results);
      const tail = finishingChoice(conformsAzureChatStream(AZ, OP, await chat({ messages: user(`/filter ${category}`), stream: true })));
      assert.equal(tail?.finish_reason, 'content_filter');
      conformsSchema(AZ, 'AzureContentFilterResultForChoice', tail?.content_filter_results);
    }
  });

  it('v1 chat: /filter and each category answer 400 in the described error', async () => {
    for (const category of [undefined, ...PROMPT_FILTER_CATEGORIES]) {
      const a = await chat({ messages: user(category ? `/filter ${category}` : '/filter') });
      assert.equal(a.status, 400, `/filter ${category ?? ''}`);
      conformsJson(AZ, OP, a);
    }
  });

  it('v1 chat: a parameter the model refuses and a deployment that serves no chat answer 400 in the described error', async () => {
    const refused = await chat({ model: 'o3-mini', messages: user('x'), max_tokens: 10 });
    assert.equal(refused.status, 400);
    conformsJson(AZ, OP, refused);
    const noChat = await chat({ model: 'gpt-5-codex', messages: user('x') });
    assert.equal(noChat.status, 400);
    conformsJson(AZ, OP, noChat);
  });

  it('v1 chat: 401 (wrong key) and 404 (unknown deployment) in the described error', async () => {
    const wrongKey = await chat({ messages: user('x') }, { 'api-key': 'not-the-key' });
    assert.equal(wrongKey.status, 401);
    conformsJson(AZ, OP, wrongKey);
    const unknown = await chat({ model: 'nope', messages: user('x') });
    assert.equal(unknown.status, 404);
    conformsJson(AZ, OP, unknown);
  });
});
