/**
 * A batch's result lines as usage records, from files written here: how each line's outcome and
 * API are told, what is summed, which deployment and model name the records, and their order.
 * (The emulator's real batches: test/loopback/batch-usage.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchUsageRecords, claimOnce, lineOutcome, type BatchForUsage } from '../../src/usage/batchUsage';

const CONN = { connectionId: 'c1', connectionLabel: 'Contoso' };
const T = 1_790_000_040; // seconds, on a minute
const chat = (over: Record<string, unknown> = {}, usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5 }) => ({
  custom_id: 'x',
  response: { status_code: 200, body: { object: 'chat.completion', model: 'gpt-4o-mini-2024-07-18', created: T, usage, ...over } },
  error: null,
});

describe('batch usage: the lines of a batch\'s results', () => {
  let dir: string;
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batch-lines-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function records(lines: unknown[], batch: Partial<BatchForUsage> = {}, deployment?: string) {
    const path = join(dir, `f${n++}.jsonl`);
    await writeFile(path, lines.map((l) => JSON.stringify(l)).join('\n'));
    return batchUsageRecords({ output: path }, { id: 'batch_1', ...batch }, { ...CONN, deployment, now: () => 1_800_000_000_000 });
  }

  it('tells each line\'s outcome by its status and error code', () => {
    assert.deepEqual(lineOutcome(200, undefined), { kind: 'ok' });
    assert.deepEqual(lineOutcome(299, undefined), { kind: 'ok' });
    assert.deepEqual(lineOutcome(300, undefined), { kind: 'error', status: 300 });
    assert.deepEqual(lineOutcome(199, undefined), { kind: 'error', status: 199 });
    assert.deepEqual(lineOutcome(200, 'server_error'), { kind: 'error', status: 200 });
    assert.deepEqual(lineOutcome(429, undefined), { kind: 'rate_limited' });
    assert.deepEqual(lineOutcome(400, 'content_filter'), { kind: 'content_filter' });
    assert.deepEqual(lineOutcome(400, 'ResponsibleAIPolicyViolation'), { kind: 'content_filter' });
    assert.deepEqual(lineOutcome(undefined, 'server_error'), { kind: 'error', status: undefined });
    assert.deepEqual(lineOutcome(undefined, undefined), { kind: 'error', status: undefined });
  });

  it('sums every token kind of the lines of one minute, model and outcome into one record', async () => {
    const details = { prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 16 } };
    const usage = { prompt_tokens: 100, completion_tokens: 40, ...details };
    const [r, ...rest] = await records([chat({}, usage), chat({ created: T + 59 }, usage), chat({}, usage)]);
    assert.equal(rest.length, 0);
    assert.deepEqual([r.requests, r.tokens], [3, { prompt: 300, cached: 192, completion: 120, reasoning: 48 }]);
    assert.deepEqual([r.at, r.api, r.route, r.source, r.model], [T * 1000, 'chat', 'v1', 'batch', 'gpt-4o-mini-2024-07-18']);
  });

  it('tells the API by the body, else by the batch\'s endpoint', async () => {
    const responses = { custom_id: 'r', response: { status_code: 200, body: { object: 'response', created_at: T, usage: { input_tokens: 7, output_tokens: 3 } } }, error: null };
    const failed = { custom_id: 'f', response: { status_code: 400, body: { error: { code: 'invalid_request', message: 'no' } } }, error: null };
    const byBody = await records([responses, chat()], { endpoint: '/v1/responses' });
    assert.deepEqual(byBody.map((r) => [r.api, r.tokens.prompt]).sort(), [['chat', 10], ['responses', 7]]);
    assert.deepEqual((await records([failed], { endpoint: '/v1/responses' })).map((r) => r.api), ['responses']);
    assert.deepEqual((await records([failed], { endpoint: '/v1/chat/completions' })).map((r) => r.api), ['chat']);
    assert.deepEqual((await records([failed], {})).map((r) => r.api), ['chat']);
    assert.deepEqual((await records([responses], { endpoint: '/v1/chat/completions' })).map((r) => r.api), ['responses'], 'the body says it first');
  });

  it('names the batch\'s deployment; without it the caller\'s, then the model; failures take the model of the others', async () => {
    const failed = { custom_id: 'f', response: { status_code: 429, body: { error: { code: '429' } } }, error: null };
    const named = await records([chat(), failed], { model: 'batch-dep' });
    assert.deepEqual(named.map((r) => [r.deployment, r.model, r.outcome.kind]), [['batch-dep', 'gpt-4o-mini-2024-07-18', 'ok'], ['batch-dep', 'gpt-4o-mini-2024-07-18', 'rate_limited']]);
    assert.deepEqual((await records([chat()], {}, 'from-catalog')).map((r) => r.deployment), ['from-catalog']);
    assert.deepEqual((await records([chat()])).map((r) => r.deployment), ['gpt-4o-mini-2024-07-18']);
    const twoModels = await records([chat(), chat({ model: 'gpt-4o' }), failed]);
    assert.equal(twoModels.find((r) => r.outcome.kind === 'rate_limited')!.model, undefined, 'two models: the failure\'s is not known');
    assert.equal(twoModels.find((r) => r.outcome.kind === 'rate_limited')!.deployment, '?');
  });

  it('counts no line whose response is not an object and that never ran', async () => {
    const notRun = { custom_id: 'n', response: 'gone', error: { code: 'batch_expired' } };
    assert.deepEqual(await records([notRun, chat()]).then((rs) => rs.map((r) => r.requests ?? 1)), [1]);
  });

  it('puts a line without its own time at the batch\'s end, and the records in time order', async () => {
    const failed = { custom_id: 'f', response: null, error: { code: 'server_error' } };
    const times = { completed_at: T + 120, in_progress_at: T - 600, created_at: T - 900 };
    const rs = await records([chat({ created: T + 600 }), failed, chat({ created: T })], times);
    assert.deepEqual(rs.map((r) => (r.at - T * 1000) / 60_000), [0, 2, 10]);
    assert.deepEqual((await records([failed], { in_progress_at: T, created_at: T - 900 })).map((r) => r.at), [T * 1000]);
    assert.deepEqual((await records([failed], { completed_at: 0, created_at: T })).map((r) => r.at), [T * 1000], 'a zero time is no time');
    assert.deepEqual((await records([failed])).map((r) => r.at), [1_800_000_000_000], 'nothing known: now');
  });

  it("counts a line whose body does not say its object with the batch's API lines of its minute", async () => {
    const plain = { custom_id: 'p', response: { status_code: 200, body: { model: 'gpt-4o-mini-2024-07-18', created: T, usage: { prompt_tokens: 1, completion_tokens: 1 } } }, error: null };
    for (const endpoint of [undefined, '/v1/chat/completions']) {
      const rs = await records([chat(), plain], { endpoint });
      assert.deepEqual(rs.map((r) => [r.api, r.requests, r.tokens.prompt]), [['chat', 2, 11]], `endpoint ${endpoint}`);
    }
  });

  it('counts a line that failed with no response, error or body as an error', async () => {
    const bare = [{ custom_id: 'a', response: null, error: null }, { custom_id: 'b', response: { status_code: 500 }, error: null }];
    const rs = await records(bare, { completed_at: T });
    assert.deepEqual(rs.map((r) => [r.outcome, r.requests ?? 1]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
      [{ kind: 'error', status: 500 }, 1],
      [{ kind: 'error', status: undefined }, 1],
    ]);
  });

  it("takes a name or a time only when it is one: an empty or numeric model, a time as text or out of range", async () => {
    assert.deepEqual((await records([chat()], { model: '' }, 'from-catalog')).map((r) => r.deployment), ['from-catalog'], 'an empty batch model');
    assert.deepEqual((await records([chat()], { model: 42 as unknown as string }, 'from-catalog')).map((r) => r.deployment), ['from-catalog'], 'a numeric batch model');
    // A time the service sent as text, or too large to be one, is no time: the line counts when the batch ended.
    const asText = await records([chat({ created: String(T + 600) })], { completed_at: T + 120 });
    assert.deepEqual(asText.map((r) => r.at), [(T + 120) * 1000]);
    const path = join(dir, `f${n++}.jsonl`);
    await writeFile(path, '{"custom_id":"x","response":{"status_code":200,"body":{"object":"chat.completion","model":"m","created":1e400}},"error":null}\n');
    const huge = await batchUsageRecords({ output: path }, { id: 'b', completed_at: T }, CONN);
    assert.deepEqual(huge.map((r) => r.at), [T * 1000]);
  });
});

describe('batch usage: claiming a batch once', () => {
  it('names the key it refuses, cut short', async () => {
    const key = `../${'k'.repeat(300)}`;
    const err = await claimOnce(tmpdir(), key).then(() => undefined, (e: Error) => e);
    assert.ok(err);
    assert.equal(err.message, `"${key.slice(0, 100)}" is not an id this workbench can store a file by.`);
  });

  it('says a failure to write the marker rather than taking it as claimed', async function () {
    if (process.platform !== 'linux') this.skip();
    // /proc/self takes no new files: the write fails, and nothing is recorded or skipped silently.
    await assert.rejects(claimOnce('/proc/self', 'batch_x'), { code: 'ENOENT' });
  });
});

