/**
 * A batch's trace against the emulator's batches: created as the Create Batch command creates one
 * (upload, create), seen through polls until it ends; the trace ends with the batch, its statuses
 * in order, its counts and result files on the root; a failed batch's trace is marked failed.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../src/emulator/server';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { Batch } from '../../src/service/jobTypes';
import { BATCH, BatchTrace } from '../../src/trace/batchTrace';
import type { Trace } from '../../src/trace/types';
import { closeAll, emulatorClient } from '../support/emulatorClient';

const line = (id: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }] } });

describe('traces: a batch from its creation to its end (emulator)', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;
  before(async () => {
    ({ emu, client } = await emulatorClient({ config: { jobs: { stepMs: 30 } } }));
    dir = await mkdtemp(join(tmpdir(), 'trace-batch-'));
  });
  after(async () => {
    await closeAll(client, emu);
    await rm(dir, { recursive: true, force: true });
  });

  /** Creates a batch, timing each step into its trace, then polls (bounded) until the trace ends. */
  async function traced(metadata?: Record<string, string>): Promise<{ batch: Batch; trace: Trace; looks: number }> {
    const path = join(dir, `in-${Date.now()}.jsonl`);
    await writeFile(path, `${line('a', 'hello')}\n${line('b', 'world')}\n`);
    const bt = new BatchTrace();
    const file = await bt.timed('upload input', () => client.jobs.files.upload(path, { purpose: 'batch' }));
    let batch = await bt.timed('create batch', () => client.jobs.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', metadata }));
    // The command knows the batch's id only once it is created: the trace takes it then.
    assert.equal(bt.saw(batch), undefined, 'a batch not yet named is not this one');
    bt.created(batch.id);
    let trace = bt.saw(batch);
    let looks = 0;
    for (; !trace && looks < 400; looks++) {
      await new Promise((r) => setTimeout(r, 10));
      batch = await client.jobs.batches.retrieve(batch.id);
      trace = bt.saw(batch);
    }
    assert.ok(trace, `the batch ended within ${looks} looks (last seen ${batch.status})`);
    assert.equal(bt.saw(batch), undefined, 'a trace ends once');
    return { batch, trace, looks };
  }

  it('spans the upload, the creation and each status the batch was seen in, ending with its counts and files', async () => {
    const { batch, trace } = await traced();
    assert.equal(batch.status, 'completed');
    assert.equal(trace.kind, 'batch');
    assert.equal(trace.title, batch.id);
    const [root, ...spans] = trace.spans;
    const names = spans.map((s) => s.name);
    assert.deepEqual(names.slice(0, 2), ['upload input', 'create batch']);
    assert.equal(names.at(-1), 'batch completed');
    assert.ok(names.includes('batch in_progress'), names.join(', '));
    const statuses = names.slice(2, -1);
    assert.equal(new Set(statuses).size, statuses.length, 'a status once, however many polls saw it');
    const a = root.attributes;
    assert.deepEqual([a[BATCH.id], a[BATCH.status], a[BATCH.total], a[BATCH.completed], a[BATCH.outputFile]], [batch.id, 'completed', 2, 2, batch.output_file_id]);
    assert.equal(root.error, undefined);
    for (let i = 3; i < spans.length; i++) assert.ok(spans[i].start >= spans[i - 1].start, 'in the order they started');
    assert.ok(trace.end >= spans.at(-1)!.end && trace.start <= spans[0].start);
  });

  it('a step that fails is marked with its reason, and the trace of a batch never created ends with it', async () => {
    const bt = new BatchTrace();
    await assert.rejects(bt.timed('create batch', () => client.jobs.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions' })), /file-nope/);
    const trace = bt.failed(new Error('not created'));
    assert.match(trace.spans[1].error ?? '', /file-nope/);
    assert.equal(trace.spans[0].error, 'not created');
    assert.equal(trace.title, '');
  });

  it("marks a failed batch's trace as failed, saying so on its root and its last span", async () => {
    const { batch, trace } = await traced({ emulate: 'fail' });
    assert.equal(batch.status, 'failed');
    assert.equal(trace.spans[0].error, 'the batch failed');
    assert.equal(trace.spans.at(-1)!.error, 'the batch failed');
    assert.equal(trace.spans[0].attributes['error.type'], 'failed');
  });
});
