/** Chat Completions tool calling and image input in the emulator, through the official `openai` client. */
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { startEmulator, type Emulator } from '../../src/emulator/server';

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 }, metric: { type: 'boolean' } }, required: ['city', 'days'] },
    },
  },
  { type: 'function', function: { name: 'list_files', parameters: { type: 'object', properties: { dir: { type: 'string' } }, required: [] } } },
];

describe('Chat Completions tools and images in the emulator (official openai client)', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    emu = await startEmulator();
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  it('calls a tool named in the prompt with the required arguments, then answers the tool reply', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'use get_weather for Oslo' }];
    const res = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    const choice = res.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    const call = choice.message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Oslo', days: 1 });

    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 12 C' });
    const after = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    assert.equal(after.choices[0].finish_reason, 'stop');
    assert.equal(after.choices[0].message.content, 'The function get_weather returned: sunny, 12 C');
  });

  it('tool_choice: none keeps to text, required and a named function force a call', async () => {
    const ask = (tool_choice: OpenAI.Chat.ChatCompletionToolChoiceOption, content = 'hello') =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], tools, tool_choice });
    assert.equal((await ask('none', 'get_weather please')).choices[0].message.tool_calls, undefined);
    assert.equal((await ask('auto')).choices[0].finish_reason, 'stop');
    assert.equal((await ask('required')).choices[0].finish_reason, 'tool_calls');
    const named = (await ask({ type: 'function', function: { name: 'list_files' } })).choices[0].message.tool_calls?.[0];
    assert.equal(named?.type === 'function' && named.function.name, 'list_files');
    assert.equal(named?.type === 'function' && named.function.arguments, '{}');
    await assert.rejects(ask({ type: 'function', function: { name: 'nope' } }), (e: unknown) => e instanceof BadRequestError && e.param === 'tool_choice');
  });

  it('streams a tool call as deltas that the client\'s stream helper assembles', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'get_weather in Rome' }],
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let args = '';
    let name = '';
    let finish: string | null = null;
    let usage;
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta;
      name += d?.tool_calls?.[0]?.function?.name ?? '';
      args += d?.tool_calls?.[0]?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(name, 'get_weather');
    assert.deepEqual(JSON.parse(args), { city: 'Rome', days: 1 });
    assert.equal(finish, 'tool_calls');
    assert.ok(usage && usage.completion_tokens > 0);
    const helper = await client.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'get_weather in Rome' }], tools }).finalChatCompletion();
    assert.equal(helper.choices[0].message.tool_calls?.[0].type === 'function' && helper.choices[0].message.tool_calls[0].function.arguments, args);
  });

  it('a tool reply must answer an earlier tool call', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_x', content: 'y' }] }),
      (e: unknown) => e instanceof BadRequestError && /must be a response to a preceeding message with 'tool_calls'/.test(e.message),
    );
  });

  it('image_url parts are counted in prompt tokens; a model without vision refuses them with the service\'s error', async () => {
    const text = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }] }] });
    const image = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } }] }],
    });
    assert.equal(image.usage!.prompt_tokens - text.usage!.prompt_tokens, 85);
    assert.match(image.choices[0].message.content ?? '', /You said: describe/);
    await assert.rejects(
      client.chat.completions.create({
        model: 'o3-mini',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } }] }],
      }),
      (e: unknown) =>
        e instanceof BadRequestError &&
        (e.error as { message?: string }).message === 'Invalid content type. image_url is only supported by certain models.' &&
        e.param === 'messages.[0].content.[1].type',
    );
  });
});
