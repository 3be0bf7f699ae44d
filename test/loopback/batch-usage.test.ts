/**
 * A batch's usage, recorded when its results arrive: a real batch run by the emulator through to
 * its output and error files, read into usage records (tokens of both APIs, the line's model and
 * outcome, no times), summed at the batch price, and claimed once however often it is opened.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadResults } from '../../src/jobs/batchResults';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { AzureOpenAIClient } from '../../src/service/client';
import type { Batch } from '../../src/service/jobTypes';
import { batchUsageRecords, claimOnce } from '../../src/usage/batchUsage';
import { DEFAULT_PRICES, costOf, priceFor } from '../../src/usage/prices';
import { UsageLog } from '../../src/usage/usageLog';

async function until<T>(read: () => Promise<T>, done: (x: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const x = await read();
    if (done(x)) return x;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('never settled');
}

const chatLine = (id: string, content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }], ...extra } });
const responsesLine = (id: string, input: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/responses', body: { model: 'gpt-4o-mini-batch', input } });
const CONN = { connectionId: 'emu', connectionLabel: 'Local emulator' };

interface OutLine {
  response: { status_code: number; body: { model?: string; usage?: Record<string, number> } } | null;
}

describe('batch usage, recorded when the results arrive', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;

  before(async () => {
    emu = await startEmulator({ config: { jobs: { stepMs: 20 } } });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    dir = await mkdtemp(join(tmpdir(), 'batch-usage-'));
  });
  after(async () => {
    await client.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function runBatch(name: string, lines: string[], endpoint: '/v1/chat/completions' | '/v1/responses'): Promise<{ batch: Batch; files: { output?: string; error?: string } }> {
    await writeFile(join(dir, name), `${lines.join('\n')}\n`);
    const input = await client.jobs.files.upload(join(dir, name), { purpose: 'batch' });
    const created = await client.jobs.batches.create({ input_file_id: input.id, endpoint });
    const batch = await until(() => client.jobs.batches.retrieve(created.id), (b) => b.status === 'completed');
    return { batch, files: await downloadResults(client.jobs.files, batch, join(dir, 'storage')) };
  }

  const outputLines = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as OutLine);

  it('counts every line once with its tokens, model and outcome, on the batch\'s deployment, with no times', async () => {
    const lines = [chatLine('a', 'hello there'), chatLine('b', 'a longer question about batches'), chatLine('c', '/filter this'), chatLine('d', 'hi', { stream: true })];
    const { batch, files } = await runBatch('chat.jsonl', lines, '/v1/chat/completions');
    assert.deepEqual(batch.request_counts, { total: 4, completed: 2, failed: 2 });
    const records = await batchUsageRecords(files, batch, CONN);
    const out = await outputLines(files.output!);
    const ok = records.filter((r) => r.outcome.kind === 'ok');
    assert.equal(ok.length, 1, 'two answers of the same minute and model: one record');
    assert.equal(ok[0].requests, 2);
    assert.equal(ok[0].tokens.prompt, out.reduce((n, l) => n + l.response!.body.usage!.prompt_tokens, 0));
    assert.equal(ok[0].tokens.completion, out.reduce((n, l) => n + l.response!.body.usage!.completion_tokens, 0));
    assert.ok(ok[0].tokens.prompt > 0 && ok[0].tokens.completion > 0);
    assert.deepEqual([ok[0].deployment, ok[0].model, ok[0].source, ok[0].api, ok[0].connectionLabel], ['gpt-4o-mini-batch', out[0].response!.body.model, 'batch', 'chat', 'Local emulator']);
    const failed = records.filter((r) => r.outcome.kind !== 'ok').map((r) => [r.outcome, r.requests ?? 1, r.model]);
    assert.deepEqual(failed.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
      [{ kind: 'content_filter' }, 1, ok[0].model],
      [{ kind: 'error', status: 400 }, 1, ok[0].model],
    ]);
    for (const r of records) assert.deepEqual([r.firstTokenMs, r.totalMs], [undefined, undefined], 'the service does not say how long a line took');
    assert.ok(records.every((r) => r.at % 60_000 === 0 && Math.abs(r.at - Date.now()) < 10 * 60_000), 'recorded at the minute the lines ran');
  });

  it('reads the Responses API\'s usage of a /v1/responses batch', async () => {
    const { batch, files } = await runBatch('responses.jsonl', [responsesLine('r1', 'hello'), responsesLine('r2', 'tell me about webhooks')], '/v1/responses');
    const [r, ...rest] = await batchUsageRecords(files, batch, CONN);
    assert.equal(rest.length, 0);
    const out = await outputLines(files.output!);
    const sum = (k: string) => out.reduce((n, l) => n + l.response!.body.usage![k], 0);
    assert.deepEqual([r.api, r.requests, r.tokens.prompt, r.tokens.completion], ['responses', 2, sum('input_tokens'), sum('output_tokens')]);
    assert.ok(r.tokens.prompt > 0);
  });

  it('goes into the usage log as source batch, priced at the batch discount, its times unknown rather than 0', async () => {
    const { batch, files } = await runBatch('priced.jsonl', [chatLine('p1', 'price me'), chatLine('p2', 'and me')], '/v1/chat/completions');
    const records = await batchUsageRecords(files, batch, CONN);
    const log = await UsageLog.open(join(dir, 'usage.jsonl'));
    for (const r of records) log.append(r);
    await log.flush();
    const stored = await readFile(log.path, 'utf8');
    assert.doesNotMatch(stored, /"totalMs"|"firstTokenMs"/);
    const summary = await log.summarize({ filter: { sources: ['batch'] } });
    const d = summary.deployments.find((x) => x.deployment === 'gpt-4o-mini-batch')!;
    const w = d.windows.today;
    assert.equal(w.requests, 2);
    assert.equal(w.totalMs, undefined, 'no time measured: no percentile');
    const full = costOf(priceFor(DEFAULT_PRICES, records[0].model)!, records[0].tokens);
    assert.ok(full > 0);
    assert.ok(Math.abs(w.cost! - full / 2) < 1e-12, `${w.cost} is half of ${full}`);
    assert.equal((await log.summarize({ filter: { sources: ['panel'] } })).deployments.length, 0);
  });

  it('claims a batch once for every window and reload', async () => {
    const markers = join(dir, 'usage-batches');
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimOnce(markers, 'batch_0b1f')));
    assert.equal(claims.filter(Boolean).length, 1, 'two windows at once: one records');
    assert.equal(await claimOnce(markers, 'batch_0b1f'), false, 'opened again later: nothing recorded');
    assert.equal(await claimOnce(markers, 'batch_other'), true);
    await assert.rejects(claimOnce(markers, '../escape'), /is not an id this workbench can store/);
    await assert.rejects(claimOnce(markers, 'batch_1/../../escape'), /is not an id this workbench can store/);
  });

  it('leaves out lines that never ran (expired) and lines that are not JSON', async () => {
    const path = join(dir, 'expired-error.jsonl');
    await writeFile(path, [
      JSON.stringify({ custom_id: 'x', response: null, error: { code: 'batch_expired', message: 'not run' } }),
      '{torn',
      JSON.stringify({ custom_id: 'y', response: null, error: { code: 'server_error', message: 'failed' } }),
    ].join('\n'));
    const records = await batchUsageRecords({ error: path }, { id: 'batch_x', model: 'dep', completed_at: 1_790_000_000 }, CONN);
    assert.deepEqual(records.map((r) => [r.deployment, r.outcome, r.requests ?? 1, r.at]), [['dep', { kind: 'error', status: undefined }, 1, 1_790_000_000_000 - (1_790_000_000_000 % 60_000)]]);
  });
});
