/** Batches, fine-tuning jobs, incoming calls and Resource Manager deployments through our client, against the emulator. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArmClient } from '../../src/service/arm';
import { AzureOpenAIClient } from '../../src/service/client';
import { ServiceError } from '../../src/service/errors';
import type { Batch, FineTuningJob } from '../../src/service/jobTypes';
import { BatchResults, downloadResults } from '../../src/jobs/batchResults';
import { checkBatchInput, deploymentInfo } from '../../src/jobs/batchInput';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { startTestIssuer } from '../support/testIssuer';

const ACCOUNT = '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/rg-emulator/providers/Microsoft.CognitiveServices/accounts/emulator-openai';

/** Polls until `done` (bounded: 200 looks). */
async function until<T>(read: () => Promise<T>, done: (x: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const x = await read();
    if (done(x)) return x;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('never settled');
}

const batchLine = (id: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }] } });
const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` }] });

describe('jobs client: batches, fine-tuning, calls, deployments', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let arm: ArmClient;
  let dir: string;
  let issuerClose: () => Promise<void>;

  before(async () => {
    const issuer = await startTestIssuer();
    issuerClose = () => issuer.close();
    emu = await startEmulator({
      config: { jobs: { stepMs: 20 }, calls: { ringMs: 60_000 }, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile } },
    });
    client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey } });
    const token = await issuer.mint({ oid: 'me' }, { audience: 'https://management.azure.com', expiresInSeconds: 600 });
    arm = new ArmClient({ endpoint: emu.url, auth: { kind: 'bearer', plane: 'management', getToken: async () => token } });
    dir = await mkdtemp(join(tmpdir(), 'jobs-client-'));
  });
  after(async () => {
    await client.close();
    await arm.close();
    await emu.close();
    await issuerClose();
    await rm(dir, { recursive: true, force: true });
  });

  async function upload(name: string, text: string, purpose: 'batch' | 'fine-tune') {
    await writeFile(join(dir, name), text);
    return client.jobs.files.upload(join(dir, name), { purpose });
  }

  it('runs a batch to completed: counts, timestamps and an output file with one answer per line', async () => {
    const input = await upload('in.jsonl', `${batchLine('a', 'hello')}\n${batchLine('b', 'world')}\n`, 'batch');
    const created = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', metadata: { by: 'test' } });
    assert.match(created.id, /^batch_/);
    assert.equal(created.input_file_id, input.id);
    assert.deepEqual(created.metadata, { by: 'test' });
    const done = await until(() => client.jobs.batches.retrieve(created.id), (b) => b.status === 'completed');
    assert.deepEqual(done.request_counts, { total: 2, completed: 2, failed: 0 });
    assert.ok(done.completed_at! >= done.created_at);
    assert.ok(done.output_file_id);
    await client.jobs.files.download(done.output_file_id, join(dir, 'out.jsonl'));
    const lines = (await readFile(join(dir, 'out.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number } });
    assert.deepEqual(lines.map((l) => [l.custom_id, l.response.status_code]).sort(), [['a', 200], ['b', 200]]);
  });

  it('a batch checked locally, run, and its results downloaded once into storage and read as a table with the failed line', async () => {
    const text =
      `${batchLine('good', 'hi')}\n` +
      `${JSON.stringify({ custom_id: 'streamed', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', stream: true, messages: [] } })}\n`;
    await writeFile(join(dir, 'mixed.jsonl'), text);
    const deployments = (await client.listDeployments()).map(deploymentInfo);
    const check = await checkBatchInput(join(dir, 'mixed.jsonl'), { endpoint: '/v1/chat/completions', deployments });
    assert.deepEqual([check.problemCount, check.deployment], [0, 'gpt-4o-mini-batch']);
    const armDeployments = (await arm.listDeployments(ACCOUNT)).map(deploymentInfo);
    assert.equal((await checkBatchInput(join(dir, 'mixed.jsonl'), { endpoint: '/v1/chat/completions', deployments: armDeployments })).problemCount, 0, 'Resource Manager names its SKU GlobalBatch');
    const live = armDeployments.map((d) => (d.name === 'gpt-4o-mini-batch' ? { ...d, sku: 'Standard' } : d));
    assert.equal((await checkBatchInput(join(dir, 'mixed.jsonl'), { endpoint: '/v1/chat/completions', deployments: live })).problemCount, 1);
    const input = await client.jobs.files.upload(join(dir, 'mixed.jsonl'), { purpose: 'batch' });
    const created = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions' });
    const done = await until(() => client.jobs.batches.retrieve(created.id), (b) => b.status === 'completed');
    assert.deepEqual(done.request_counts, { total: 2, completed: 1, failed: 1 });
    const storage = join(dir, 'storage');
    const progress: number[] = [];
    const files = await downloadResults(client.jobs.files, done, storage, { onProgress: (n) => progress.push(n) });
    const sizes = (await client.jobs.files.retrieve(done.output_file_id!)).bytes! + (await client.jobs.files.retrieve(done.error_file_id!)).bytes!;
    assert.equal(progress.at(-1), sizes, 'progress counts both files');
    assert.deepEqual([...progress].sort((a, b) => a - b), progress);
    assert.deepEqual(files, { output: join(storage, done.id, 'output.jsonl'), error: join(storage, done.id, 'error.jsonl') });
    const rows = await BatchResults.open(files).page(0, 10);
    assert.deepEqual(rows.map((r) => [r.customId, r.source, r.ok, r.statusCode]), [['good', 'output', true, 200], ['streamed', 'error', false, 400]]);
    assert.ok(rows[0]!.reply.length > 0);
    assert.match(rows[1]!.error, /streamed answer/);
    // Downloaded once: the service's copy is no longer needed.
    await client.jobs.files.delete(done.output_file_id!);
    assert.deepEqual(await downloadResults(client.jobs.files, done, storage), files);
    await assert.rejects(downloadResults(client.jobs.files, { ...done, id: '../x' }, storage), /is not an id this workbench can store/);
    await assert.rejects(downloadResults(client.jobs.files, { ...done, id: 'batch_1/../../outside' }, storage), /"batch_1\/\.\.\/\.\.\/outside" is not an id/);
    const longId = `${'b'.repeat(150)}/`;
    await assert.rejects(downloadResults(client.jobs.files, { ...done, id: longId }, storage), (e: Error) => e.message === `"${'b'.repeat(100)}" is not an id this workbench can store a file by.`);
  });

  it('lists batches newest first a page at a time, cancels one and keeps it cancelled; a failed batch says why', async () => {
    const input = await upload('in2.jsonl', `${batchLine('x', 'one')}\n`, 'batch');
    const one = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions' });
    const two = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/chat/completions', metadata: { emulate: 'fail' } });
    const page = await client.jobs.batches.list({ limit: 1 });
    assert.deepEqual(page.data.map((b) => b.id), [two.id]);
    assert.equal(page.hasMore, true);
    const next = await client.jobs.batches.list({ limit: 1, after: page.next });
    assert.deepEqual(next.data.map((b) => b.id), [one.id]);
    const failed = await until(() => client.jobs.batches.retrieve(two.id), (b) => b.status === 'failed');
    assert.ok(failed.errors?.data.length, 'a failed batch carries its errors');
    const three = await client.jobs.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions' });
    const cancelling = await client.jobs.batches.cancel(three.id);
    assert.ok(['cancelling', 'cancelled'].includes(cancelling.status));
    const cancelled: Batch = await until(() => client.jobs.batches.retrieve(three.id), (b) => b.status === 'cancelled');
    assert.ok(cancelled.cancelled_at);
    await assert.rejects(client.jobs.batches.retrieve('batch_missing'), (e: ServiceError) => e.status === 404);
    await assert.rejects(client.jobs.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions' }), (e: ServiceError) => e.status === 404 && /file-nope/.test(e.message));
  });

  it('fine-tunes a model to succeeded, with events and checkpoints, then deploys it through Resource Manager and chats with it', async () => {
    const training = await upload('train.jsonl', Array.from({ length: 12 }, (_, i) => example(i)).join('\n'), 'fine-tune');
    const job = await client.jobs.fineTuning.create({ model: 'gpt-4.1-mini-2025-04-14', training_file: training.id, suffix: 'demo', hyperparameters: { n_epochs: 2 } });
    assert.match(job.id, /^ftjob-/);
    const done: FineTuningJob = await until(() => client.jobs.fineTuning.retrieve(job.id), (j) => ['succeeded', 'failed'].includes(j.status));
    assert.equal(done.status, 'succeeded');
    assert.match(done.fine_tuned_model ?? '', /^gpt-4\.1-mini-2025-04-14\.ft-/);
    assert.ok((await client.jobs.fineTuning.events(job.id)).data.length > 0);
    assert.ok((await client.jobs.fineTuning.checkpoints(job.id)).data.every((c) => c.fine_tuning_job_id === job.id));
    assert.ok((await client.jobs.fineTuning.list()).data.some((j) => j.id === job.id));
    await assert.rejects(client.jobs.fineTuning.pause(job.id), (e: ServiceError) => e.status !== undefined && e.status >= 400 && e.status < 500);

    const states: string[] = [];
    const dep = await arm.deployments.put(ACCOUNT, 'my-tuned', { model: done.fine_tuned_model!, sku: 'standard', capacity: 1 }, { pollMs: 10, onProgress: (s) => states.push(s) });
    assert.equal(dep.name, 'my-tuned');
    assert.equal(dep.model, done.fine_tuned_model);
    assert.equal(states.at(-1), 'Succeeded');
    assert.ok(states.length >= 2, 'the Accepted state is seen before it succeeds');
    assert.ok((await arm.listDeployments(ACCOUNT)).some((d) => d.name === 'my-tuned'));
    const reply = await client.createChatCompletion({ deployment: 'my-tuned', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(reply.choices[0]?.message.content);
    await arm.deployments.delete(ACCOUNT, 'my-tuned', { pollMs: 10 });
    assert.equal(await arm.deployments.get(ACCOUNT, 'my-tuned'), undefined);
    await assert.rejects(arm.deployments.put(ACCOUNT, 'x', { model: 'gpt-4o', sku: 'standard', capacity: 1 }), /cannot name a deployment/);
    await assert.rejects(arm.deployments.put(ACCOUNT, 'bad-ft', { model: 'gpt-4o.ft-0000', sku: 'standard', capacity: 1 }), (e: ServiceError) => e.status === 400);
  });

  it('cancels a running fine-tuning job; a job whose data is not chat examples fails naming the line', async () => {
    const training = await upload('train2.jsonl', Array.from({ length: 12 }, (_, i) => example(i)).join('\n'), 'fine-tune');
    const job = await client.jobs.fineTuning.create({ model: 'gpt-4o-mini-2024-07-18', training_file: training.id });
    const cancelled = await client.jobs.fineTuning.cancel(job.id);
    assert.equal((await until(() => client.jobs.fineTuning.retrieve(cancelled.id), (j) => j.status === 'cancelled')).status, 'cancelled');
    const bad = await upload('bad.jsonl', [...Array.from({ length: 11 }, (_, i) => example(i)), '{"prompt":"x"}'].join('\n'), 'fine-tune');
    const failing = await client.jobs.fineTuning.create({ model: 'gpt-4o-mini-2024-07-18', training_file: bad.id });
    const failed = await until(() => client.jobs.fineTuning.retrieve(failing.id), (j) => j.status === 'failed');
    assert.match(failed.error?.message ?? '', /12/);
  });

  it('answers incoming calls: accept then hang up, reject, transfer; an ended call is refused', async () => {
    const ring = async () =>
      ((await (
        await fetch(`${emu.url}/emulator/calls`, {
          method: 'POST',
          headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
          body: '{"from":"sip:+15550123@x"}',
        })
      ).json()) as { call_id: string }).call_id;
    type Listed = { data: Array<{ call_id: string; state: string; status_code?: number; target_uri?: string }> };
    const states = async () => ((await (await fetch(`${emu.url}/emulator/calls`, { headers: { 'api-key': emu.apiKey } })).json()) as Listed).data;
    const a = await ring();
    await client.jobs.calls.accept(a, { model: 'gpt-realtime', instructions: 'Be brief.' });
    await client.jobs.calls.hangup(a);
    const b = await ring();
    await client.jobs.calls.reject(b, 486);
    const c = await ring();
    await client.jobs.calls.refer(c, 'tel:+15550199');
    const byId = new Map((await states()).map((s) => [s.call_id, s.state]));
    assert.deepEqual([byId.get(a), byId.get(b), byId.get(c)], ['ended', 'rejected', 'referred']);
    const listed = await states();
    assert.equal(listed.find((x) => x.call_id === b)?.status_code, 486);
    assert.equal(listed.find((x) => x.call_id === c)?.target_uri, 'tel:+15550199');
    const d = await ring();
    await client.jobs.calls.reject(d);
    assert.equal((await states()).find((x) => x.call_id === d)?.status_code, 603, 'decline by default');
    await assert.rejects(client.jobs.calls.hangup(a), (e: ServiceError) => e.status === 404);
    await assert.rejects(client.jobs.calls.accept(await ring(), { model: 'gpt-4o', instructions: '' }), (e: ServiceError) => e.status === 400 && /not a realtime model/.test(e.message));
    assert.throws(() => client.jobs.calls.refer(c, 'http://evil'), /tel:\+15551234567 or sip:/);
  });
});
