/**
 * Batches on the emulator through the official `openai` client: lines answered by the live routes'
 * code, statuses and counts, output and error files, cancel, the emulated outcomes and `batch.*` webhooks.
 */
import assert from 'node:assert/strict';
import OpenAI, { APIError, BadRequestError, NotFoundError, toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_CONFIG } from '../../src/emulator/config';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { eventually, startReceiver } from '../support/receiver';

const chatLine = (id: string, content: unknown, extra: Record<string, unknown> = {}, model = 'gpt-4o-mini-batch') =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content }], ...extra } });
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

interface OutLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: Record<string, unknown> & { error?: { code: string } } } | null;
  error: { code: string; message: string } | null;
}

describe('emulator: batches', () => {
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    const deployments = [...DEFAULT_CONFIG.deployments, { name: 'o3-batch', model: 'o3-mini', version: '2025-01-31', sku: 'GlobalBatch', capacity: 10, requestsPerMinute: 1, tokensPerMinute: 10 }];
    emu = await startEmulator({ config: { deployments, jobs: { stepMs: 40 }, delivery: { maxAttempts: 1, retryBaseMs: 10, timeoutMs: 2000 } } });
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(() => emu.close());

  const upload = async (lines: string[]) => (await client.files.create({ file: await toFile(Buffer.from(lines.join('\n') + '\n'), 'in.jsonl'), purpose: 'batch' })).id;
  const lines = async (fileId: string | null | undefined): Promise<OutLine[]> => {
    assert.ok(fileId, 'the batch has the file');
    const text = await (await client.files.content(fileId)).text();
    return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as OutLine);
  };
  /** Polls the batch (bounded) until it is final, recording every status seen on the way. */
  const settle = async (id: string, seen: string[] = []): Promise<Batch> =>
    eventually(async () => {
      const b = await client.batches.retrieve(id);
      if (seen.at(-1) !== b.status) seen.push(b.status);
      return ['completed', 'failed', 'expired', 'cancelled'].includes(b.status) ? b : undefined;
    }, 10_000);

  it('answers chat lines as the live route does (tools, images, content filter), moves through every status and delivers batch.completed', async () => {
    const receiver = await startReceiver();
    const dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, maxRetries: 0 });
    const ep = await dash.webhooks.create({ name: 'batches', url: receiver.url, event_types: ['batch.completed'] });
    try {
      const input = await upload([
        chatLine('plain', 'hello batch'),
        chatLine('tool', 'Use get_weather for Oslo', { tools: [weather] }),
        chatLine('image', [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG } }]),
        chatLine('filtered', '/filter'),
        chatLine('bad-param', 'x', { temperature: 7 }),
      ]);
      const created = await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { purpose: 'test' } });
      assert.match(created.id, /^batch_[0-9a-f-]{36}$/);
      assert.equal(created.status, 'validating');
      assert.equal(created.expires_at, created.created_at + 86_400);
      const seen: string[] = [];
      const done = await settle(created.id, seen);
      assert.equal(done.status, 'completed');
      const order = ['validating', 'in_progress', 'finalizing', 'completed'];
      assert.ok(seen.every((s, i) => i === 0 || order.indexOf(s) > order.indexOf(seen[i - 1])), `statuses in order: ${seen.join(' → ')}`);
      assert.ok(seen.includes('in_progress') || seen.includes('finalizing'), `intermediate statuses were visible: ${seen.join(' → ')}`);
      assert.deepEqual(done.request_counts, { total: 5, completed: 3, failed: 2 });
      for (const k of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) assert.ok((done[k] ?? 0) >= done.created_at, `${k} is set`);
      assert.equal(done.metadata?.purpose, 'test');

      const out = await lines(done.output_file_id);
      const byId = new Map(out.map((l) => [l.custom_id, l]));
      assert.deepEqual([...byId.keys()].sort(), ['image', 'plain', 'tool']);
      type Reply = { message: { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string };
      const body = (id: string) => byId.get(id)!.response!.body as { object: string; choices: Array<Reply> };
      assert.equal(body('plain').object, 'chat.completion');
      assert.match(body('plain').choices[0].message.content ?? '', /You said: hello batch/);
      assert.equal(body('tool').choices[0].finish_reason, 'tool_calls');
      assert.equal(body('tool').choices[0].message.tool_calls?.[0].function.name, 'get_weather');
      assert.match(body('image').choices[0].message.content ?? '', /You said: What is this\?/);
      const tokens = (id: string) => (byId.get(id)!.response!.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
      assert.ok(tokens('image') - tokens('plain') >= 85, 'the image is counted in the prompt, as on the live route');
      for (const l of out) {
        assert.match(l.id, /^batch_req_/);
        assert.equal(l.response?.status_code, 200);
        assert.ok(l.response?.request_id);
      }
      const errors = await lines(done.error_file_id);
      const filtered = errors.find((l) => l.custom_id === 'filtered')!;
      assert.equal(filtered.response?.status_code, 400);
      assert.equal(filtered.response?.body.error?.code, 'content_filter');
      assert.equal(errors.find((l) => l.custom_id === 'bad-param')?.response?.body.error?.code, 'invalid_value');

      const [got] = await receiver.next(1);
      const event = new Webhook(ep.signing_secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: { id: string } };
      assert.equal(event.type, 'batch.completed');
      assert.deepEqual(event.data, { id: created.id });
    } finally {
      await dash.webhooks.delete(ep.id);
      await receiver.close();
    }
  });

  it('answers /responses lines with the Responses code (reasoning included), endpoint given the Azure way without /v1', async () => {
    const input = await upload([JSON.stringify({ custom_id: 'r1', method: 'POST', url: '/v1/responses', body: { model: 'o3-batch', input: 'think', reasoning: { effort: 'high' } } })]);
    const created = await client.batches.create({ input_file_id: input, endpoint: '/responses' as '/v1/responses', completion_window: '24h' });
    const done = await settle(created.id);
    assert.equal(done.status, 'completed', 'the deployment\'s tiny rate limits do not apply to batches');
    const [line] = await lines(done.output_file_id);
    const r = line.response!.body as { object: string; status: string; usage: { output_tokens_details: { reasoning_tokens: number } } };
    assert.equal(r.object, 'response');
    assert.equal(r.status, 'completed');
    assert.equal(r.usage.output_tokens_details.reasoning_tokens, 640);
    assert.equal(await (await client.files.content(done.error_file_id!)).text(), '', 'a completed batch still has a (0-byte) error file');
  });

  it('fails validation with the service\'s codes, each naming its line', async () => {
    const cases: Array<[string[], string, number | null]> = [
      [[chatLine('a', 'x'), '{not json'], 'invalid_json_line', 2],
      [[chatLine('a', 'x'), chatLine('a', 'y')], 'duplicate_custom_id', 2],
      [[chatLine('a', 'x'), JSON.stringify({ custom_id: 'b', method: 'POST', url: '/v1/responses', body: { model: 'gpt-4o-mini-batch', input: 'x' } })], 'url_mismatch', 2],
      [[chatLine('a', 'x', {}, 'gpt-4o')], 'model_not_found', 1],
      [[chatLine('a', 'x', {}, 'nope')], 'model_not_found', 1],
      [[chatLine('a', 'x'), chatLine('b', 'x', {}, 'o3-batch')], 'model_mismatch', 2],
    ];
    for (const [input, code, line] of cases) {
      const b = await client.batches.create({ input_file_id: await upload(input), endpoint: '/v1/chat/completions', completion_window: '24h' });
      const done = await settle(b.id);
      assert.equal(done.status, 'failed', code);
      const err = done.errors?.data?.[0];
      assert.equal(err?.code, code);
      assert.equal(err?.line, line);
      assert.match(err?.message ?? '', new RegExp(`^Line ${line}\\b`));
      assert.ok(done.failed_at);
      assert.equal(done.output_file_id, null);
    }
  });

  it('cancel goes cancelling → cancelled and keeps the lines that had finished', async () => {
    const slow = await startEmulator({ config: { jobs: { stepMs: 400 } } });
    try {
      const c = new OpenAI({ baseURL: `${slow.url}/openai/v1/`, apiKey: slow.apiKey, maxRetries: 0 });
      const file = await c.files.create({ file: await toFile(Buffer.from(Array.from({ length: 20 }, (_, i) => chatLine(`l${i}`, `line ${i}`)).join('\n')), 'in.jsonl'), purpose: 'batch' });
      const b = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      await eventually(async () => ((await c.batches.retrieve(b.id)).request_counts?.completed ?? 0) >= 2 || undefined);
      const cancelling = await c.batches.cancel(b.id);
      assert.equal(cancelling.status, 'cancelling');
      assert.ok(cancelling.cancelling_at);
      const done = await eventually(async () => {
        const x = await c.batches.retrieve(b.id);
        return x.status === 'cancelled' ? x : undefined;
      }, 5000);
      const kept = (await (await c.files.content(done.output_file_id!)).text()).split('\n').filter(Boolean);
      assert.ok(kept.length >= 2 && kept.length < 20, `kept ${kept.length} finished lines`);
      assert.equal(kept.length, done.request_counts?.completed);
      const early = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      assert.equal((await c.batches.cancel(early.id)).status, 'cancelling', 'a validating batch can be cancelled too');
      const failing = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { emulate: 'fail' } });
      await eventually(async () => (await c.batches.retrieve(failing.id)).status === 'failed' || undefined);
      await assert.rejects(c.batches.cancel(failing.id), (e: unknown) => e instanceof APIError && e.status === 409 && /Cannot cancel a batch with status 'failed'/.test(e.message));
      await eventually(async () => (await c.batches.retrieve(early.id)).status === 'cancelled' || undefined);
    } finally {
      await slow.close();
    }
  });

  it('metadata emulate "fail" ends failed with errors, "expire" ends expired with partial results; each delivers its event', async () => {
    const receiver = await startReceiver();
    const dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, maxRetries: 0 });
    const ep = await dash.webhooks.create({ name: 'outcomes', url: receiver.url, event_types: ['batch.failed', 'batch.expired'] });
    try {
      const input = await upload(Array.from({ length: 4 }, (_, i) => chatLine(`e${i}`, `n${i}`)));
      const failed = await settle((await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { emulate: 'fail' } })).id);
      assert.equal(failed.status, 'failed');
      assert.ok(failed.errors?.data?.length);
      const expired = await settle((await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { emulate: 'expire' } })).id);
      assert.equal(expired.status, 'expired');
      assert.ok(expired.expired_at);
      assert.equal((await lines(expired.output_file_id)).length, 2);
      const rest = await lines(expired.error_file_id);
      assert.deepEqual(rest.map((l) => [l.custom_id, l.error?.code]), [['e2', 'batch_expired'], ['e3', 'batch_expired']]);
      const got = await receiver.next(2);
      const events = got.map(
        (g) => new Webhook(ep.signing_secret).verify(g.body, g.headers as Record<string, string>) as { type: string; data: { id: string } },
      );
      assert.deepEqual(events.map((e) => [e.type, e.data.id]).sort(), [['batch.expired', expired.id], ['batch.failed', failed.id]].sort());
    } finally {
      await dash.webhooks.delete(ep.id);
      await receiver.close();
    }
  });

  it('refuses a bad create with 400 and an unknown batch with 404; lists a page at a time', async () => {
    const fine = await client.files.create({ file: await toFile(Buffer.from('{}'), 'ft.jsonl'), purpose: 'fine-tune' });
    await assert.rejects(
      client.batches.create({ input_file_id: fine.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'input_file_id',
    );
    await assert.rejects(
      client.batches.create({ input_file_id: fine.id, endpoint: '/v1/embeddings', completion_window: '24h' }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'endpoint',
    );
    await assert.rejects(client.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions', completion_window: '24h' }), NotFoundError);
    await assert.rejects(client.batches.retrieve('batch_nope'), (e: unknown) => e instanceof NotFoundError && /Batch with id 'batch_nope' was not found/.test(e.message));
    const ids: string[] = [];
    for await (const b of client.batches.list({ limit: 2 })) ids.push(b.id);
    assert.ok(ids.length >= 3, `${ids.length} batches listed across pages`);
    assert.equal(new Set(ids).size, ids.length, 'none twice');
    assert.equal((await client.batches.list({ limit: 2 })).data.length, 2);
  });
});
