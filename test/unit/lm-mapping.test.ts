import assert from 'node:assert/strict';
import { modelProfile } from '../../src/chat/modelProfile';
import { buildChatRequest, toChatMessages, UnsupportedInputError } from '../../src/chat/engine/chatRequest';
import { isChatDeployment, lmModelEntries } from '../../src/chat/lm/catalog';
import type { NeutralMessage } from '../../src/chat/engine/messages';
import { ModelOptionError, readModelOptions } from '../../src/chat/lm/modelOptions';
import { apiRoute } from '../../src/chat/engine/apiChoice';
import { imageTokens, TokenCounter } from '../../src/chat/lm/tokenCount';
import { ToolArgumentsError, ToolCallAccumulator } from '../../src/chat/engine/toolCalls';
import { ToolNames } from '../../src/chat/engine/toolNames';
import { adaptAfterRefusal } from '../../src/chat/paramAdaptation';
import type { ChatRequest, Deployment } from '../../src/service/types';

const PNG_1x1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
const gpt4o = modelProfile('gpt-4o');

describe('language model messages → Chat Completions', () => {
  it('maps system, user and assistant text, keeping a user name', () => {
    const out = toChatMessages(
      [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', name: 'ada', parts: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Hi.' }] },
      ],
      gpt4o,
      'chat',
    );
    assert.deepEqual(out, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello there', name: 'ada' },
      { role: 'assistant', content: 'Hi.' },
    ]);
  });

  it('puts tool calls on the assistant message and each result in a tool message right after it, before the user text', () => {
    const messages: NeutralMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo and Rome?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'toolCall', callId: 'call_1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'toolCall', callId: 'call_2', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'And be quick.' },
          { type: 'toolResult', callId: 'call_1', parts: [{ type: 'text', text: '4 °C' }] },
          { type: 'toolResult', callId: 'call_2', parts: [{ type: 'text', text: '18 ' }, { type: 'text', text: '°C' }] },
        ],
      },
    ];
    const out = toChatMessages(messages, gpt4o, 'chat');
    assert.deepEqual(out.slice(1), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '4 °C' },
      { role: 'tool', tool_call_id: 'call_2', content: '18 °C' },
      { role: 'user', content: 'And be quick.' },
    ]);
  });

  it('sends images as data URLs next to the text, and an image a tool returned in the user message after the tool result', () => {
    const out = toChatMessages(
      [
        { role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: PNG_1x1 }] },
        { role: 'assistant', parts: [{ type: 'toolCall', callId: 'c', name: 'screenshot', input: {} }] },
        { role: 'user', parts: [{ type: 'toolResult', callId: 'c', parts: [{ type: 'text', text: 'taken' }, { type: 'image', mimeType: 'image/png', data: PNG_1x1 }] }] },
      ],
      gpt4o,
      'chat',
    );
    const url = `data:image/png;base64,${Buffer.from(PNG_1x1).toString('base64')}`;
    assert.deepEqual(out[0], { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url } }] });
    assert.deepEqual(out[2], { role: 'tool', tool_call_id: 'c', content: 'taken' });
    assert.deepEqual(out[3], { role: 'user', content: [{ type: 'image_url', image_url: { url } }] });
  });

  it('refuses an image for a model that reads no images, naming the deployment and what to do', () => {
    const msg: NeutralMessage = { role: 'user', parts: [{ type: 'image', mimeType: 'image/png', data: PNG_1x1 }] };
    assert.throws(
      () => toChatMessages([msg], modelProfile('o3-mini'), 'mini'),
      (e: Error) => e instanceof UnsupportedInputError && /"mini" \(o3-mini\) does not take images.*pick a deployment/.test(e.message),
    );
  });
});

describe('language model request parameters', () => {
  const messages: NeutralMessage[] = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
  const build = (model: string, modelOptions: Record<string, unknown>, extra = {}) =>
    buildChatRequest({ deployment: 'd', profile: modelProfile(model), messages, options: readModelOptions(modelOptions), ...extra });

  it('gives a chat model temperature and max_tokens, and asks for usage in the stream', () => {
    const r = build('gpt-4o', { temperature: 0.2, maxTokens: 50, top_p: 0.9 });
    assert.equal(r.temperature, 0.2);
    assert.equal(r.top_p, 0.9);
    assert.equal(r.max_tokens, 50);
    assert.equal(r.max_completion_tokens, undefined);
    assert.deepEqual(r.stream_options, { include_usage: true });
    assert.equal(r.reasoning_effort, undefined, 'a chat model gets no reasoning effort');
  });

  it('gives a reasoning model max_completion_tokens and its effort, and no temperature it would refuse', () => {
    const r = build('o4-mini', { temperature: 0.2, max_tokens: 50, reasoningEffort: 'high' });
    assert.equal(r.max_completion_tokens, 50);
    assert.equal(r.max_tokens, undefined);
    assert.equal(r.temperature, undefined);
    assert.equal(r.reasoning_effort, 'high');
  });

  it('passes tools as functions (an empty schema when none) and a required tool mode', () => {
    const r = build('gpt-4o', {}, {
      tools: [{ name: 'now', description: 'The time' }, { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }],
      toolMode: 'required',
    });
    assert.deepEqual(r.tools, [
      { type: 'function', function: { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'add', description: 'Adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } } },
    ]);
    assert.equal(r.tool_choice, 'required');
    assert.equal(build('gpt-4o', {}).tools, undefined, 'no tools: no tools field');
  });

  it('refuses model options out of range with the option, its value and what it may be', () => {
    assert.throws(() => readModelOptions({ temperature: 3 }), (e: Error) => e instanceof ModelOptionError && /"temperature" is 3: it must be a number from 0 to 2/.test(e.message));
    assert.throws(() => readModelOptions({ maxTokens: 1.5 }), /"maxTokens" is 1.5: it must be a whole number/);
    assert.throws(() => readModelOptions({ reasoning_effort: 'max' }), /"reasoning_effort" is "max": it must be one of minimal, low, medium, high/);
    assert.deepEqual(readModelOptions({ unrelated: true, temperature: null }), {});
  });

  it('adapts to a refused parameter the way the panel does, once per parameter', () => {
    const r: ChatRequest = { deployment: 'd', messages: [], max_tokens: 10, temperature: 0.5 };
    assert.equal(adaptAfterRefusal(r, { status: 400, param: 'max_tokens' }), true);
    assert.equal(r.max_completion_tokens, 10);
    assert.equal(r.max_tokens, undefined);
    assert.equal(adaptAfterRefusal(r, { status: 400, param: 'temperature' }), true);
    assert.equal(r.temperature, undefined);
    assert.equal(adaptAfterRefusal(r, { status: 400, param: 'temperature' }), false, 'nothing left to drop');
    assert.equal(adaptAfterRefusal(r, { status: 429, param: 'max_completion_tokens' }), false, 'only a 400 is a refused parameter');
  });
});

describe('streamed tool calls', () => {
  it('joins pieces by index into whole calls with parsed arguments, in order', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 1, id: 'call_b', type: 'function', function: { name: 'add', arguments: '' } }]);
    acc.add([{ index: 0, id: 'call_a', type: 'function', function: { name: 'now', arguments: '' } }]);
    acc.add([{ index: 1, function: { arguments: '{"a":' } }]);
    acc.add([{ index: 1, function: { arguments: ' 2}' } }]);
    assert.deepEqual(acc.take(), [
      { callId: 'call_a', name: 'now', input: {} },
      { callId: 'call_b', name: 'add', input: { a: 2 } },
    ]);
    assert.deepEqual(acc.take(), [], 'it starts over');
  });

  it('says which tool got arguments that are not a JSON object', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'x', function: { name: 'add', arguments: '{"a": 1' } }]);
    assert.throws(() => acc.take(), (e: Error) => e instanceof ToolArgumentsError && /"add" with arguments that are not valid JSON/.test(e.message));
    acc.add([{ index: 0, id: 'x', function: { name: 'add', arguments: '[1]' } }]);
    assert.throws(() => acc.take(), /not a JSON object/);
  });
});

describe('tool names on the wire', () => {
  it('keeps valid names, and gives others a valid, unique stand-in that maps back', () => {
    const names = new ToolNames(['read_file', 'github.search issues', 'github_search_issues', 'x'.repeat(70), 'x'.repeat(71), '...']);
    assert.equal(names.wire('read_file'), 'read_file');
    assert.equal(names.wire('github.search issues'), 'github_search_issues_2', 'a stand-in never takes a valid tool name');
    assert.equal(names.wire('github_search_issues'), 'github_search_issues', 'a valid name stays its own, even listed after a name whose stand-in would be it');
    const long = [names.wire('x'.repeat(70)), names.wire('x'.repeat(71))];
    assert.ok(long.every((w) => /^[a-zA-Z0-9_-]{1,64}$/.test(w)) && long[0] !== long[1], long.join(' '));
    assert.equal(names.wire('...'), '___');
    for (const n of ['read_file', 'github.search issues', 'github_search_issues', 'x'.repeat(71), '...']) assert.equal(names.offered(names.wire(n)), n);
    assert.equal(names.offered('unknown'), undefined, 'a name the request never offered maps to no tool');
    names.wire('from_history');
    assert.equal(names.offered('from_history'), undefined, 'a name only met in earlier calls is not offered either');
  });

  it('uses the stand-ins in the tools and in earlier tool calls alike', () => {
    const r = buildChatRequest({
      deployment: 'd',
      profile: gpt4o,
      messages: [{ role: 'assistant', parts: [{ type: 'toolCall', callId: 'c', name: 'mcp.fs/read', input: {} }] }],
      tools: [{ name: 'mcp.fs/read', description: 'Reads' }],
      options: {},
    });
    assert.equal((r.tools as Array<{ function: { name: string } }>)[0].function.name, 'mcp_fs_read');
    assert.equal((r.messages[0] as { tool_calls: Array<{ function: { name: string } }> }).tool_calls[0].function.name, 'mcp_fs_read');
  });
});

describe('deployments offered to language model consumers', () => {
  const d = (name: string, model: string, extra: Partial<Deployment> = {}): Deployment => ({ name, model, source: 'arm', ...extra });
  const conn = { id: 'c1', label: 'Contoso prod', endpoint: 'https://contoso.openai.azure.com' };

  it('lists chat models only, each named with its resource, with limits and capabilities from the profile', () => {
    const entries = lmModelEntries(conn, [
      d('chat', 'gpt-4o', { modelVersion: '2024-11-20', sku: 'GlobalStandard', rateLimits: { tokensPerMinute: 150000 } }),
      d('emb', 'text-embedding-3-large'),
      d('img', 'dall-e-3'),
      d('voice', 'gpt-4o-realtime-preview'),
      d('mini', 'o3-mini'),
      d('broken', 'gpt-4o', { provisioningState: 'Failed' }),
    ]);
    assert.deepEqual(entries.map((e) => e.deployment), ['chat', 'mini']);
    const [chat, mini] = entries;
    assert.equal(chat.id, 'c1/chat');
    assert.equal(chat.name, 'chat (Contoso prod)');
    assert.equal(chat.detail, 'Contoso prod · contoso.openai.azure.com');
    assert.equal(chat.family, 'gpt-4o');
    assert.equal(chat.version, '2024-11-20');
    assert.equal(chat.maxInputTokens, 128_000);
    assert.equal(chat.maxOutputTokens, 16_384);
    assert.deepEqual(chat.capabilities, { toolCalling: 128, imageInput: true }, 'VS Code trims its tools to the service\'s 128');
    assert.match(chat.tooltip, /gpt-4o 2024-11-20 on contoso\.openai\.azure\.com · GlobalStandard, 150,000 tokens\/min/);
    assert.deepEqual(mini.capabilities, { toolCalling: 128, imageInput: false });
  });

  it('offers models served only on the Responses API, spoken to there; the others on their preferred API', () => {
    assert.equal(apiRoute(modelProfile('gpt-5-codex')), 'responses');
    assert.equal(isChatDeployment(d('codex', 'gpt-5-codex')), true);
    assert.equal(apiRoute(modelProfile('gpt-4o')), 'chat');
    assert.equal(apiRoute(modelProfile('gpt-5-codex'), ['chat']), undefined, 'an API the provider does not speak is no route');
  });
});

describe('token counts for the provider', () => {
  it('counts each text once, then answers repeats from its cache, within its bound', () => {
    let calls = 0;
    const counter = new TokenCounter((t) => {
      calls++;
      return t.split(' ').length;
    }, 2);
    assert.equal(counter.text('a b c'), 3);
    assert.equal(counter.text('a b c'), 3);
    assert.equal(calls, 1);
    counter.text('x');
    counter.text('y'); // pushes out 'a b c'
    counter.text('a b c');
    assert.equal(calls, 4);
    assert.equal(counter.text(''), 0);
  });

  it('adds the per-message overhead, the name, tool calls and results', () => {
    const counter = new TokenCounter((t) => t.length);
    assert.equal(counter.message({ role: 'user', parts: [{ type: 'text', text: 'abcd' }] }), 3 + 4);
    assert.equal(counter.message({ role: 'user', name: 'n', parts: [] }), 3 + 1);
    assert.equal(counter.message({ role: 'assistant', parts: [{ type: 'toolCall', callId: 'c', name: 'add', input: { a: 1 } }] }), 3 + 3 + 3 + '{"a":1}'.length);
    assert.equal(counter.message({ role: 'user', parts: [{ type: 'toolResult', callId: 'c', parts: [{ type: 'text', text: 'ok' }] }] }), 3 + 3 + 2);
  });

  it('estimates images from their size as the service bills them', () => {
    assert.equal(imageTokens({ data: PNG_1x1 }), 85 + 170, 'a tiny image is one tile');
    assert.equal(imageTokens({ data: new Uint8Array([1, 2, 3]) }), 85 + 170 * 4, 'unknown size: 1024×1024 → 768×768, four tiles');
  });
});
