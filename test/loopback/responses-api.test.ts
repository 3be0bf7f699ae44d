/** The emulator's Responses API, driven by the official `openai` client: what an SDK user sees. */
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError, NotFoundError, RateLimitError } from 'openai';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { eventually, startReceiver } from '../support/receiver';

describe('Responses API in the emulator (official openai client)', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    emu = await startEmulator({ config: { responseQueuedMs: 30, responseInProgressMs: 30, delivery: { maxAttempts: 2, retryBaseMs: 50, timeoutMs: 2000 } } });
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  it('create: a string input gets a completed message with usage; instructions and metadata are echoed', async () => {
    const r = await client.responses.create({ model: 'gpt-4o', input: 'hello there', instructions: 'Be brief.', metadata: { ticket: 'T-1' } });
    assert.equal(r.status, 'completed');
    assert.match(r.output_text, /You said: hello there/);
    assert.equal(r.instructions, 'Be brief.');
    assert.deepEqual(r.metadata, { ticket: 'T-1' });
    assert.ok(r.usage && r.usage.input_tokens > 0 && r.usage.output_tokens > 0);
    assert.equal(r.usage.total_tokens, r.usage.input_tokens + r.usage.output_tokens);
    assert.equal(r.usage.output_tokens_details.reasoning_tokens, 0);
  });

  it("rate limits: the deployment's requests per minute hold for Responses too; a 429 says when to retry", async () => {
    const limited = await startEmulator({
      config: { deployments: [{ name: 'small', model: 'gpt-4o', version: '2024-08-06', sku: 'Standard', capacity: 1, requestsPerMinute: 2, tokensPerMinute: 100_000 }] },
    });
    const c = new OpenAI({ baseURL: `${limited.url}/openai/v1/`, apiKey: limited.apiKey, maxRetries: 0 });
    try {
      const first = await c.responses.create({ model: 'small', input: 'one' }).withResponse();
      assert.equal(first.response.headers.get('x-ratelimit-remaining-requests'), '1');
      await c.responses.create({ model: 'small', input: 'two', stream: true }).then(async (events) => {
        for await (const _ of events) void _;
      });
      await assert.rejects(c.responses.create({ model: 'small', input: 'three' }), (e: unknown) => {
        assert.ok(e instanceof RateLimitError, String(e));
        assert.match(e.message, /Responses_Create Operation .* exceeded call rate limit .* Please retry after \d+ seconds/);
        assert.ok(Number(e.headers?.get('retry-after')) >= 1);
        return true;
      });
    } finally {
      await limited.close();
    }
  });

  it('previous_response_id: the earlier turns count as input tokens; an unknown id is refused', async () => {
    const first = await client.responses.create({ model: 'gpt-4o', input: 'first turn' });
    const alone = await client.responses.create({ model: 'gpt-4o', input: 'second turn' });
    const chained = await client.responses.create({ model: 'gpt-4o', input: 'second turn', previous_response_id: first.id });
    assert.equal(chained.previous_response_id, first.id);
    assert.ok(chained.usage!.input_tokens >= alone.usage!.input_tokens + first.usage!.input_tokens + first.usage!.output_tokens - 3, 'earlier input and output are billed again');
    await assert.rejects(
      client.responses.create({ model: 'gpt-4o', input: 'x', previous_response_id: 'resp_missing' }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'previous_response_not_found' && e.param === 'previous_response_id',
    );
  });

  it('message list input with input_text and input_image parts; images cost tokens; a model without vision refuses them', async () => {
    const text = await client.responses.create({ model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_text', text: 'what is this?' }] }] });
    const withImage = await client.responses.create({
      model: 'gpt-4o',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'what is this?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' }] }],
    });
    assert.equal(withImage.usage!.input_tokens - text.usage!.input_tokens, 765);
    assert.match(withImage.output_text, /You said: what is this\?/);
    await assert.rejects(
      client.responses.create({ model: 'o3-mini', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.test/a.png', detail: 'auto' }] }] }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'input[0].content[0].type',
    );
  });

  it('max_output_tokens: the reply stops there and the response is incomplete with the reason', async () => {
    const r = await client.responses.create({ model: 'gpt-4o', input: '/long 200', max_output_tokens: 20 });
    assert.equal(r.status, 'incomplete');
    assert.equal(r.incomplete_details?.reason, 'max_output_tokens');
    assert.equal(r.usage!.output_tokens, 20);
    assert.ok(r.output_text.length > 0);
    await assert.rejects(client.responses.create({ model: 'gpt-4o', input: 'x', max_output_tokens: 5 }), (e: unknown) => e instanceof BadRequestError && e.param === 'max_output_tokens');
  });

  it('reasoning models: temperature and top_p are refused, reasoning effort and a summary are taken', async () => {
    for (const p of [{ temperature: 0.2 }, { top_p: 0.5 }]) {
      await assert.rejects(
        client.responses.create({ model: 'o3-mini', input: 'x', ...p }),
        (e: unknown) => e instanceof BadRequestError && e.code === 'unsupported_parameter' && e.param === Object.keys(p)[0],
      );
    }
    await assert.rejects(client.responses.create({ model: 'gpt-4o', input: 'x', reasoning: { effort: 'high' } }), (e: unknown) => e instanceof BadRequestError && e.param === 'reasoning.effort');
    const ok = await client.responses.create({ model: 'gpt-4o', input: 'x', temperature: 0.2, top_p: 0.5 });
    assert.equal(ok.temperature, 0.2);
    const low = await client.responses.create({ model: 'o3-mini', input: 'think', reasoning: { effort: 'low' } });
    const high = await client.responses.create({ model: 'o3-mini', input: 'think', reasoning: { effort: 'high', summary: 'auto' } });
    assert.ok(high.usage!.output_tokens_details.reasoning_tokens > low.usage!.output_tokens_details.reasoning_tokens);
    assert.ok(low.usage!.output_tokens_details.reasoning_tokens > 0);
    const item = high.output[0];
    assert.equal(item.type, 'reasoning');
    assert.match(item.type === 'reasoning' ? item.summary[0].text : '', /The user asked: "think"/);
    assert.equal(low.output[0].type === 'reasoning' && low.output[0].summary.length, 0, 'no summary unless asked for');
    const starved = await client.responses.create({ model: 'o3-mini', input: 'x', reasoning: { effort: 'high' }, max_output_tokens: 100 });
    assert.equal(starved.status, 'incomplete', 'reasoning spent the whole budget');
    assert.equal(starved.output_text, '');
  });

  it('function tools: asked for by name or required by tool_choice, the model calls them with the required arguments; then answers the result', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather in a city',
        strict: true,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
          required: ['city', 'unit'],
          additionalProperties: false,
        },
      },
      { type: 'function', name: 'get_time', description: null, strict: false, parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } },
    ];
    const plain = await client.responses.create({ model: 'gpt-4o', input: 'just talk', tools });
    assert.ok(plain.output.every((o) => o.type !== 'function_call'), 'no tool named, auto: text');
    const asked = await client.responses.create({ model: 'gpt-4o', input: 'call get_weather for Paris', tools });
    const call = asked.output.find((o) => o.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris', unit: 'c' });
    const forced = await client.responses.create({ model: 'gpt-4o', input: 'hello', tools, tool_choice: { type: 'function', name: 'get_time' } });
    const forcedCall = forced.output.find((o) => o.type === 'function_call');
    assert.equal(forcedCall?.type === 'function_call' && forcedCall.name, 'get_time');
    assert.ok('zone' in JSON.parse(forcedCall?.type === 'function_call' ? forcedCall.arguments : '{}'));
    const required = await client.responses.create({ model: 'gpt-4o', input: 'hello', tools, tool_choice: 'required' });
    assert.ok(required.output.some((o) => o.type === 'function_call'));
    const none = await client.responses.create({ model: 'gpt-4o', input: 'call get_weather', tools, tool_choice: 'none' });
    assert.ok(none.output.every((o) => o.type !== 'function_call'));
    const answer = await client.responses.create({ model: 'gpt-4o', previous_response_id: asked.id, tools, input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp":21}' }] });
    assert.match(answer.output_text, /get_weather returned: \{"temp":21\}/);
  });

  it('streams the documented event sequence with increasing sequence numbers', async () => {
    const stream = await client.responses.create({ model: 'gpt-4o', input: '/code python', stream: true });
    const types: string[] = [];
    const seqs: number[] = [];
    let text = '';
    let final: OpenAI.Responses.Response | undefined;
    for await (const ev of stream) {
      types.push(ev.type);
      seqs.push(ev.sequence_number);
      if (ev.type === 'response.output_text.delta') text += ev.delta;
      if (ev.type === 'response.completed') final = ev.response;
    }
    const compact = types.filter((t, i) => t !== types[i - 1]);
    assert.deepEqual(compact, [
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    assert.deepEqual(seqs, seqs.map((_, i) => i));
    assert.match(text, /```python\ndef fib/);
    assert.equal(final?.output_text ?? final?.output.map((o) => (o.type === 'message' ? o.content.map((c) => (c.type === 'output_text' ? c.text : '')).join('') : '')).join(''), text);
  });

  it('streams reasoning summaries and function call arguments, which responses.stream() accumulates', async () => {
    const stream = client.responses.stream({ model: 'gpt-5-codex', input: 'explain', reasoning: { effort: 'medium', summary: 'auto' } });
    let summary = '';
    stream.on('response.reasoning_summary_text.delta', (e) => (summary += e.delta));
    const final = await stream.finalResponse();
    assert.equal(final.output[0].type, 'reasoning');
    assert.equal(final.output[0].type === 'reasoning' && final.output[0].summary[0].text, summary);
    assert.equal(final.usage!.output_tokens_details.reasoning_tokens, 192);
    assert.match(final.output_text, /You said: explain/);

    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'lookup', strict: false, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }];
    const calls = client.responses.stream({ model: 'gpt-4o', input: 'please lookup emulators', tools });
    let args = '';
    calls.on('response.function_call_arguments.delta', (e) => (args += e.delta));
    const withCall = await calls.finalResponse();
    const call = withCall.output.find((o) => o.type === 'function_call');
    assert.equal(call?.type === 'function_call' && call.arguments, args);
    assert.deepEqual(JSON.parse(args), { q: 'emulators' });
  });

  it('a streamed response that runs out of max_output_tokens ends with response.incomplete', async () => {
    const stream = await client.responses.create({ model: 'gpt-4o', input: '/long 300', max_output_tokens: 16, stream: true });
    let last: string | undefined;
    let reason: string | undefined;
    for await (const ev of stream) {
      last = ev.type;
      if (ev.type === 'response.incomplete') reason = ev.response.incomplete_details?.reason;
    }
    assert.equal(last, 'response.incomplete');
    assert.equal(reason, 'max_output_tokens');
  });

  it('background: retrieve, input items, delete; a finished response cannot be cancelled, a foreground one never', async () => {
    const r = await client.responses.create({
      model: 'gpt-4o',
      input: [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' }],
      background: true,
    });
    assert.equal(r.status, 'queued');
    const done = await eventually(async () => {
      const got = await client.responses.retrieve(r.id);
      return got.status === 'completed' ? got : undefined;
    });
    assert.match(done.output_text, /You said: three/);
    const items = await client.responses.inputItems.list(r.id, { order: 'asc' });
    assert.deepEqual(items.data.map((i) => (i.type === 'message' ? i.role : i.type)), ['user', 'assistant', 'user']);
    const newestFirst = await client.responses.inputItems.list(r.id, { limit: 1 });
    assert.equal(newestFirst.data.length, 1);
    assert.equal(newestFirst.has_more, true);
    await assert.rejects(client.responses.cancel(r.id), (e: unknown) => e instanceof BadRequestError);
    const foreground = await client.responses.create({ model: 'gpt-4o', input: 'x' });
    await assert.rejects(client.responses.cancel(foreground.id), (e: unknown) => e instanceof BadRequestError);
    await client.responses.delete(r.id);
    await assert.rejects(client.responses.retrieve(r.id), (e: unknown) => e instanceof NotFoundError);
    const unstored = await client.responses.create({ model: 'gpt-4o', input: 'x', store: false });
    await assert.rejects(client.responses.retrieve(unstored.id), (e: unknown) => e instanceof NotFoundError);
  });

  it('a background stream can be resumed with starting_after, without repeating or losing events', async () => {
    const first = await client.responses.create({ model: 'gpt-4o', input: '/long 60', background: true, stream: true });
    const seen: number[] = [];
    let id = '';
    for await (const ev of first) {
      seen.push(ev.sequence_number);
      if (ev.type === 'response.created') id = ev.response.id;
      if (seen.length === 2) break; // the reader leaves: a background response goes on
    }
    assert.match(id, /^resp_/);
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: seen.at(-1)! });
    let last = '';
    let text = '';
    for await (const ev of resumed) {
      seen.push(ev.sequence_number);
      last = ev.type;
      if (ev.type === 'response.output_text.delta') text += ev.delta;
    }
    assert.equal(last, 'response.completed');
    assert.deepEqual(seen, seen.map((_, i) => i), 'every event exactly once, in order');
    const final = await client.responses.retrieve(id);
    assert.equal(final.status, 'completed');
    assert.equal(final.output_text, text);
  });

  it('cancel: a queued background response becomes cancelled, idempotently, and its webhook event fires', async () => {
    const receiver = await startReceiver();
    const dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, maxRetries: 0 });
    const ep = await dash.webhooks.create({ name: 'responses', url: receiver.url, event_types: ['response.cancelled', 'response.completed', 'response.failed', 'response.incomplete'] });
    try {
      const r = await client.responses.create({ model: 'gpt-4o', input: 'long job', background: true });
      assert.equal((await client.responses.cancel(r.id)).status, 'cancelled');
      assert.equal((await client.responses.cancel(r.id)).status, 'cancelled');
      const failed = await client.responses.create({ model: 'gpt-4o', input: '/fail', background: true });
      const incomplete = await client.responses.create({ model: 'gpt-4o', input: '/incomplete', background: true });
      const completed = await client.responses.create({ model: 'gpt-4o', input: 'fine', background: true });
      const got = await receiver.next(4);
      const events = got.map((g) => JSON.parse(g.body) as { type: string; data: { id: string } });
      const byId = new Map(events.map((e) => [e.data.id, e.type]));
      assert.deepEqual(
        [byId.get(r.id), byId.get(failed.id), byId.get(incomplete.id), byId.get(completed.id)],
        ['response.cancelled', 'response.failed', 'response.incomplete', 'response.completed'],
      );
      assert.equal((await client.responses.retrieve(failed.id)).error?.code, 'server_error');
    } finally {
      await dash.webhooks.delete(ep.id);
      await receiver.close();
    }
  });

  it('a Responses-only deployment refuses Chat Completions with the service\'s error, and answers on Responses', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-5-codex', messages: [{ role: 'user', content: 'hi' }] }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'OperationNotSupported' && /chatCompletion operation does not work with the specified model, gpt-5-codex/.test(e.message),
    );
    const r = await client.responses.create({ model: 'gpt-5-codex', input: 'hi' });
    assert.equal(r.status, 'completed');
  });
});
