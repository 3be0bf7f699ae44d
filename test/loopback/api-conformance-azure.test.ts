/**
 * The conformance check, part three: the deployment route (/openai/deployments/{name}/chat/completions)
 * against Azure's 2024-10-21 inference description, with the content filter's shapes on demand
 * (the emulator's documented triggers: /filter, /filter CATEGORY, /filter-stream, /annotate) and
 * the service's error answers. Part one (api-conformance.test.ts) checks the v1 route against OpenAI's.
 */
import assert from 'node:assert/strict';
import { PROMPT_FILTER_CATEGORIES, REPLY_FILTER_CATEGORIES } from '../../src/emulator/filterResults';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { conformsAzureChatStream, conformsJson, conformsSchema, finishingChoice, missingDescriptions } from '../support/apiConformance';
import { json, longPrompt, sender, type Send } from '../support/conformanceHttp';
import { deployment } from '../support/emulatorClient';

const AZ = 'azure-2024-10-21';
const OP = 'POST /deployments/{id}/chat/completions';
const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const user = (content: string) => [{ role: 'user', content }];
type Filtered = { error: { code: string; innererror: { code: string; content_filter_result: Record<string, { filtered: boolean }> } } };

describe('API conformance: the deployment route, content filter and errors (Azure 2024-10-21 description)', function () {
  let emu: Emulator;
  let send: Send;

  before(async function () {
    const missing = missingDescriptions([AZ]);
    if (missing.length) {
      console.warn(`  api descriptions missing (${missing.join(', ')}): see test/fixtures/api-descriptions/README.md`);
      this.skip();
    }
    const deployments = [
      ...['gpt-4o', 'o3-mini', 'gpt-5-codex', 'model-router'].map((m) => deployment(m, m)),
      deployment('tight', 'gpt-4o-mini', { requestsPerMinute: 1, tokensPerMinute: 1000 }),
    ];
    emu = await startEmulator({ config: { deployments } });
    send = sender(emu);
  });
  after(() => emu?.close());

  const chat = (body: Record<string, unknown>, name = 'gpt-4o', headers?: Record<string, string>) =>
    send('POST', `/openai/deployments/${name}/chat/completions?api-version=2024-10-21`, body, headers);

  it('deployment route: a plain reply with its prompt and choice filter results', async () => {
    const a = await chat({ messages: user('hello') });
    conformsJson(AZ, OP, a);
    const body = json<{ prompt_filter_results: unknown; choices: Array<{ content_filter_results: unknown }> }>(a);
    conformsSchema(AZ, 'promptFilterResults', body.prompt_filter_results);
    conformsSchema(AZ, 'contentFilterChoiceResults', body.choices[0].content_filter_results);
  });

  it('deployment route: every streamed chunk (the prompt-results frame first), with usage', async () => {
    // 2024-10-21 describes the chunks' schema but not text/event-stream: each event is checked against the chunk schema.
    const a = await chat({ messages: user('/markdown'), stream: true, stream_options: { include_usage: true } });
    const chunks = conformsAzureChatStream(AZ, OP, a, 'createChatCompletionStreamResponse');
    assert.ok((chunks.at(-1) as { usage?: unknown }).usage);
  });

  it('deployment route: a tool call, plain and streamed', async () => {
    const a = await chat({ messages: user('Use get_weather for Oslo'), tools: [weather] });
    conformsJson(AZ, OP, a);
    assert.equal(json<{ choices: Array<{ finish_reason: string }> }>(a).choices[0].finish_reason, 'tool_calls');
    conformsAzureChatStream(AZ, OP, await chat({ messages: user('Use get_weather for Oslo'), tools: [weather], stream: true }), 'createChatCompletionStreamResponse');
  });

  it('deployment route: the model router and a repeated long prompt with cached tokens', async () => {
    const routed = await chat({ messages: user('route me') }, 'model-router');
    conformsJson(AZ, OP, routed);
    assert.match(json<{ model: string }>(routed).model, /^gpt-4\.1-(nano|mini)-2025-04-14$/);
    const messages = user(longPrompt(1500));
    await chat({ messages });
    const cached = await chat({ messages });
    conformsJson(AZ, OP, cached);
    assert.ok(json<{ usage: { prompt_tokens_details: { cached_tokens: number } } }>(cached).usage.prompt_tokens_details.cached_tokens >= 1024);
  });

  it('content filter: /annotate marks protected material detected, not filtered', async () => {
    const a = await chat({ messages: user('/annotate') });
    conformsJson(AZ, OP, a);
    type Annotated = { choices: Array<{ content_filter_results: { protected_material_text: { detected: boolean; filtered: boolean } } }> };
    const results = json<Annotated>(a).choices[0].content_filter_results;
    conformsSchema(AZ, 'contentFilterChoiceResults', results);
    assert.deepEqual(results.protected_material_text, { filtered: false, detected: true });
    const code = await chat({ messages: user('/annotate protected_material_code') });
    conformsJson(AZ, OP, code);
    const codeResults = json<{ choices: Array<{ content_filter_results: Record<string, unknown> }> }>(code).choices[0].content_filter_results;
    conformsSchema(AZ, 'contentFilterChoiceResults', codeResults);
    assert.deepEqual(Object.keys(codeResults.protected_material_code as object), ['filtered', 'detected', 'citation']);
  });

  // Protected material is found in the completion: a 200 that ends with finish_reason content_filter, never the prompt's 400.
  for (const category of REPLY_FILTER_CATEGORIES) {
    it(`content filter: /filter ${category} ends the reply (plain and streamed) with the choice results described`, async () => {
      const a = await chat({ messages: user(`/filter ${category}`) });
      assert.equal(a.status, 200);
      conformsJson(AZ, OP, a);
      const choice = json<{ choices: Array<{ finish_reason: string; content_filter_results: Record<string, { filtered: boolean }> }> }>(a).choices[0];
      assert.equal(choice.finish_reason, 'content_filter');
      conformsSchema(AZ, 'contentFilterChoiceResults', choice.content_filter_results);
      assert.equal(choice.content_filter_results[category].filtered, true);
      const last = finishingChoice(conformsAzureChatStream(AZ, OP, await chat({ messages: user(`/filter ${category}`), stream: true }), 'createChatCompletionStreamResponse'));
      assert.equal(last?.finish_reason, 'content_filter');
      conformsSchema(AZ, 'contentFilterChoiceResults', last?.content_filter_results);
    });
  }

  it('content filter: /filter-stream ends the stream with finish_reason content_filter and the results', async () => {
    const chunks = conformsAzureChatStream(AZ, OP, await chat({ messages: user('/filter-stream'), stream: true }), 'createChatCompletionStreamResponse');
    const last = finishingChoice(chunks);
    assert.equal(last?.finish_reason, 'content_filter');
    conformsSchema(AZ, 'contentFilterChoiceResults', last?.content_filter_results);
  });

  for (const category of [undefined, ...PROMPT_FILTER_CATEGORIES]) {
    it(`content filter: /filter${category ? ` ${category}` : ''} answers 400 content_filter in the described error`, async () => {
      const a = await chat({ messages: user(category ? `/filter ${category}` : '/filter') });
      assert.equal(a.status, 400);
      conformsJson(AZ, OP, a);
      const { error } = json<Filtered>(a);
      assert.equal(error.code, 'content_filter');
      // The description names these inner_error.content_filter_results; the service sends innererror.content_filter_result: the shape is the same.
      assert.equal(error.innererror.code, 'ResponsibleAIPolicyViolation');
      conformsSchema(AZ, 'contentFilterPromptResults', error.innererror.content_filter_result);
      const tripped = Object.keys(error.innererror.content_filter_result).filter((k) => error.innererror.content_filter_result[k].filtered);
      assert.deepEqual(tripped.sort(), category ? [category] : ['hate', 'violence']);
    });
  }

  it('errors: a parameter the model refuses and a deployment that serves no chat answer 400 in the described error', async () => {
    const refused = await chat({ messages: user('x'), max_tokens: 10 }, 'o3-mini');
    assert.equal(refused.status, 400);
    conformsJson(AZ, OP, refused);
    const noChat = await chat({ messages: user('x') }, 'gpt-5-codex');
    assert.equal(noChat.status, 400);
    conformsJson(AZ, OP, noChat);
  });

  it('errors: 401 (wrong key), 404 (unknown deployment), 400 (no api-version) and 429 (over the rate) in the described error', async () => {
    const wrongKey = await chat({ messages: user('x') }, 'gpt-4o', { 'api-key': 'not-the-key' });
    assert.equal(wrongKey.status, 401);
    conformsJson(AZ, OP, wrongKey);
    const unknown = await chat({ messages: user('x') }, 'nope');
    assert.equal(unknown.status, 404);
    conformsJson(AZ, OP, unknown);
    assert.equal(json<{ error: { code: string } }>(unknown).error.code, 'DeploymentNotFound');
    const noVersion = await send('POST', '/openai/deployments/gpt-4o/chat/completions', { messages: user('x') });
    assert.equal(noVersion.status, 400);
    conformsJson(AZ, OP, noVersion);
    await chat({ messages: user('one') }, 'tight');
    const limited = await chat({ messages: user('two') }, 'tight');
    assert.equal(limited.status, 429);
    conformsJson(AZ, OP, limited);
  });
});
