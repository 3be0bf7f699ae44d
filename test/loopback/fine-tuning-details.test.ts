/** A fine-tuning job's page data, read from the emulator: every event across pages, only the new ones on a refresh, and the loss per step. */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../src/emulator/server';
import { lossCurve, MAX_EVENTS, readJobDetails, type FineTuningReader } from '../../src/jobs/fineTuningDetails';
import { jobView } from '../../src/vscode/jobs/fineTuningView';
import type { AzureOpenAIClient } from '../../src/service/client';
import type { FineTuningJob } from '../../src/service/jobTypes';
import { isJobView, parseFineTuningHostMessage } from '../../src/webview/fineTuning/protocol';
import { closeAll, emulatorClient } from '../support/emulatorClient';

const example = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` }] });

/** The client's fine-tuning API, counting the event pages it is asked for. */
function counting(api: FineTuningReader): FineTuningReader & { eventPages: number } {
  const c = {
    eventPages: 0,
    retrieve: (id: string) => api.retrieve(id),
    checkpoints: (id: string, p?: { after?: string; limit?: number }) => api.checkpoints(id, p),
    events: (id: string, p?: { after?: string; limit?: number }) => {
      c.eventPages++;
      return api.events(id, p);
    },
  };
  return c;
}

describe('fine-tuning job details from the emulator', () => {
  let emu: Emulator;
  let client: AzureOpenAIClient;
  let dir: string;

  before(async () => {
    ({ emu, client } = await emulatorClient({ config: { jobs: { stepMs: 10 } } }));
    dir = await mkdtemp(join(tmpdir(), 'ft-details-'));
  });
  after(async () => {
    await closeAll(client, emu);
    await rm(dir, { recursive: true, force: true });
  });

  async function startJob(epochs: number, examples = 12): Promise<FineTuningJob> {
    await writeFile(join(dir, 'train.jsonl'), Array.from({ length: examples }, (_, i) => example(i)).join('\n'));
    const file = await client.jobs.files.upload(join(dir, 'train.jsonl'), { purpose: 'fine-tune' });
    // The training data doubles as validation data: each checkpoint then carries a validation loss.
    return client.jobs.fineTuning.create({ model: 'gpt-4.1-mini-2025-04-14', training_file: file.id, validation_file: file.id, hyperparameters: { n_epochs: epochs } });
  }

  async function finished(job: FineTuningJob): Promise<FineTuningJob> {
    for (let i = 0; i < 500; i++) {
      const j = await client.jobs.fineTuning.retrieve(job.id);
      if (j.status === 'succeeded' || j.status === 'failed') return j;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the job never finished');
  }

  it('reads every event across pages, then only the new pages, and draws the loss of every step', async () => {
    // 12 examples, batch size 1, 10 epochs: 120 steps, so more events than one page of 100.
    const job = await finished(await startJob(10));
    assert.equal(job.status, 'succeeded');
    const api = counting(client.jobs.fineTuning);
    const first = await readJobDetails(api, job.id);
    assert.ok(api.eventPages >= 2, `read ${api.eventPages} page(s)`);
    assert.equal(new Set(first.events.map((e) => e.id)).size, first.events.length, 'no event twice');
    assert.ok(first.events[0]!.created_at >= first.events.at(-1)!.created_at, 'newest first');
    assert.equal(first.checkpoints.length, 10);
    assert.equal(first.eventsCapped, false);

    const points = lossCurve(first.events, first.checkpoints);
    assert.deepEqual(points.map((p) => p.step), Array.from({ length: 120 }, (_, i) => i + 1));
    assert.ok(points.every((p) => typeof p.train === 'number'));
    assert.ok(points[0]!.train! > points[119]!.train!, 'the loss falls');
    // Validation loss comes from the checkpoints, at the end of each epoch.
    assert.deepEqual(points.filter((p) => p.valid !== undefined).map((p) => p.step), [12, 24, 36, 48, 60, 72, 84, 96, 108, 120]);

    // A refresh with nothing new reads one page and keeps every event.
    api.eventPages = 0;
    const again = await readJobDetails(api, job.id, first.events);
    assert.equal(api.eventPages, 1);
    assert.deepEqual(again.events.map((e) => e.id), first.events.map((e) => e.id));

    const view = jobView(first, 'Emulator');
    assert.ok(isJobView(view), 'the page takes what the host sends');
    assert.equal(view.final, true);
    assert.match(view.fineTunedModel ?? '', /^gpt-4\.1-mini-2025-04-14\.ft-/);
    assert.ok(view.trainedTokens! > 0);
    assert.deepEqual(view.hyperparameters.find((h) => h.name === 'n_epochs'), { name: 'n_epochs', value: '10' });
    assert.equal(view.points.length, 120);
    assert.ok(parseFineTuningHostMessage({ type: 'job', job: view }));
  });

  it('reads the checkpoints page after page, at most five pages, and drops events of an earlier read the service no longer has', async () => {
    const job = await finished(await startJob(10));
    // The service's pages of one checkpoint each: the read follows them, up to its bound of five pages.
    const api = client.jobs.fineTuning;
    const small = (size: number): FineTuningReader => ({
      retrieve: (id) => api.retrieve(id),
      events: (id, p) => api.events(id, p),
      checkpoints: (id, p) => api.checkpoints(id, { ...p, limit: Math.min(p?.limit ?? size, size) }),
    });
    const whole = await readJobDetails(api, job.id);
    assert.equal(whole.checkpoints.length, 10);
    const byFour = await readJobDetails(small(4), job.id);
    assert.deepEqual(byFour.checkpoints.map((c) => c.id), whole.checkpoints.map((c) => c.id), 'three pages, each once');
    const byOne = await readJobDetails(small(1), job.id);
    assert.deepEqual(byOne.checkpoints.map((c) => c.id), whole.checkpoints.slice(0, 5).map((c) => c.id), 'five pages: the newest five');
    // An earlier read's events the service never sent (another job's, or gone): the read starts over.
    const stale = { ...whole.events[0]!, id: 'ftevent-gone' };
    const fresh = await readJobDetails(api, job.id, [stale]);
    assert.deepEqual(fresh.events.map((e) => e.id), whole.events.map((e) => e.id));
  });

  it('a refresh while the job runs adds the new events before those it had, as a full read has them', async () => {
    const started = await startJob(30);
    let during = await readJobDetails(client.jobs.fineTuning, started.id);
    for (let i = 0; i < 200 && !lossCurve(during.events, []).length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      during = await readJobDetails(client.jobs.fineTuning, started.id, during.events);
    }
    assert.ok(lossCurve(during.events, []).length > 0, 'read while training');
    await finished(started);
    const refreshed = await readJobDetails(client.jobs.fineTuning, started.id, during.events);
    const whole = await readJobDetails(client.jobs.fineTuning, started.id);
    assert.ok(whole.events.length > during.events.length);
    assert.deepEqual(refreshed.events.map((e) => e.id), whole.events.map((e) => e.id));
  });

  it('keeps at most MAX_EVENTS events, the newest, and says older ones were left out', async () => {
    // 110 examples, 50 epochs: 5,500 steps, each with a metrics event.
    const job = await finished(await startJob(50, 110));
    const api = counting(client.jobs.fineTuning);
    const read = await readJobDetails(api, job.id);
    assert.equal(read.events.length, MAX_EVENTS);
    assert.equal(read.eventsCapped, true);
    assert.match(read.events[0]!.message, /successfully completed/);
    assert.equal(api.eventPages, MAX_EVENTS / 100, 'no page read beyond the bound');
    // A refresh that has all it keeps (the newest event is new): nothing of this read was left out.
    const whole = await readJobDetails(client.jobs.fineTuning, job.id, read.events.slice(1));
    assert.deepEqual([whole.events.length, whole.eventsCapped], [MAX_EVENTS, false]);
    // A refresh with more than it keeps: the newest MAX_EVENTS, and it says older ones were left out.
    const older = [1, 2].map((i) => ({ ...read.events.at(-1)!, id: `ftevent-older-${i}` }));
    const over = await readJobDetails(client.jobs.fineTuning, job.id, [...read.events.slice(1), ...older]);
    assert.deepEqual([over.events.length, over.eventsCapped, over.events[0]!.id], [MAX_EVENTS, true, read.events[0]!.id]);
  });

  it('a failed job says why, and has no loss', async () => {
    await writeFile(join(dir, 'train.jsonl'), Array.from({ length: 12 }, (_, i) => example(i)).join('\n'));
    const file = await client.jobs.files.upload(join(dir, 'train.jsonl'), { purpose: 'fine-tune' });
    const created = await client.jobs.fineTuning.create({ model: 'gpt-4.1-mini-2025-04-14', training_file: file.id, metadata: { emulate: 'fail' } });
    let view;
    for (let i = 0; i < 200 && !view?.final; i++) {
      view = jobView(await readJobDetails(client.jobs.fineTuning, created.id), 'Emulator');
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(view?.status, 'failed');
    assert.match(view?.error ?? '', /emulate/);
    assert.deepEqual(view?.points, []);
    assert.ok(view?.events.some((e) => e.level === 'error'));
  });
});
