/**
 * Fine-tuning on the emulator through the official `openai` client: the job's statuses, events,
 * checkpoints and result file, validation of the training data, pause/resume/cancel, the
 * `fine_tuning.job.*` webhooks, and deploying the new model through Resource Manager.
 */
import assert from 'node:assert/strict';
import OpenAI, { APIError, BadRequestError, NotFoundError, toFile } from 'openai';
import type { FineTuningJob } from 'openai/resources/fine-tuning/jobs/jobs';
import { Webhook } from 'standardwebhooks';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { eventually, startReceiver } from '../support/receiver';
import { startTestIssuer, type TestIssuer } from '../support/testIssuer';

const example = (i: number) => JSON.stringify({ messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` }] });
const examples = (n: number) => Array.from({ length: n }, (_, i) => example(i));

describe('emulator: fine-tuning', function () {
  this.timeout(60_000);
  let issuer: TestIssuer;
  let emu: Emulator;
  let client: OpenAI;

  before(async () => {
    issuer = await startTestIssuer();
    emu = await startEmulator({ config: { jobs: { stepMs: 30 }, entra: { issuer: issuer.issuer, jwksUri: issuer.jwksUri, caFile: issuer.caFile } } });
    client = new OpenAI({ baseURL: `${emu.url}/openai/v1/`, apiKey: emu.apiKey, maxRetries: 0 });
  });
  after(async () => {
    await emu.close();
    await issuer.close();
  });

  const upload = async (lines: string[], purpose: 'fine-tune' | 'batch' = 'fine-tune') =>
    (await client.files.create({ file: await toFile(Buffer.from(`\uFEFF${lines.join('\n')}\n`), 'train.jsonl'), purpose })).id;
  const settle = (id: string, seen: string[] = [], c = client): Promise<FineTuningJob> =>
    eventually(async () => {
      const j = await c.fineTuning.jobs.retrieve(id);
      if (seen.at(-1) !== j.status) seen.push(j.status);
      return ['succeeded', 'failed', 'cancelled'].includes(j.status) ? j : undefined;
    }, 10_000);

  it('reports validation loss at each checkpoint when the job has a validation file', async () => {
    const job = await client.fineTuning.jobs.create({
      model: 'gpt-4.1-2025-04-14',
      training_file: await upload(examples(10)),
      validation_file: await upload(examples(10)),
      method: { type: 'supervised', supervised: { hyperparameters: { n_epochs: 1, batch_size: 10 } } },
    });
    assert.equal((await settle(job.id, [])).status, 'succeeded');
    const [checkpoint] = (await client.fineTuning.jobs.checkpoints.list(job.id)).data;
    assert.ok(checkpoint && typeof checkpoint.metrics.valid_loss === 'number' && checkpoint.metrics.valid_loss > checkpoint.metrics.train_loss!);
  });

  it('runs validating_files → queued → running → succeeded, names the model as Azure does, writes results, events and a checkpoint per epoch, and delivers fine_tuning.job.succeeded', async () => {
    const receiver = await startReceiver();
    const dash = new OpenAI({ baseURL: `${emu.url}/openai/v1/dashboard`, apiKey: emu.apiKey, maxRetries: 0 });
    const ep = await dash.webhooks.create({ name: 'ft', url: receiver.url, event_types: ['fine_tuning.job.succeeded'] });
    try {
      const training = await upload(examples(12));
      const created = await client.fineTuning.jobs.create({
        model: 'gpt-4.1-2025-04-14',
        training_file: training,
        suffix: 'demo',
        method: { type: 'supervised', supervised: { hyperparameters: { n_epochs: 2, batch_size: 4 } } },
      });
      assert.match(created.id, /^ftjob-[0-9a-f]{32}$/);
      assert.equal(created.status, 'validating_files');
      assert.equal(created.fine_tuned_model, null);
      const seen: string[] = [];
      const done = await settle(created.id, seen);
      const order = ['validating_files', 'queued', 'running', 'succeeded'];
      assert.ok(seen.every((s, i) => i === 0 || order.indexOf(s) > order.indexOf(seen[i - 1])), `statuses in order: ${seen.join(' → ')}`);
      assert.equal(done.status, 'succeeded');
      assert.equal(done.fine_tuned_model, `gpt-4.1-2025-04-14.ft-${created.id.slice(6)}-demo`);
      assert.ok((done.trained_tokens ?? 0) > 0);
      assert.ok(done.finished_at);
      assert.equal(done.hyperparameters.n_epochs, 2);
      const [resultId] = done.result_files;
      const csv = (await (await client.files.content(resultId)).text()).trim().split('\n');
      assert.equal(csv[0], 'step,train_loss,train_mean_token_accuracy,valid_loss,validation_mean_token_accuracy,full_valid_loss,full_valid_mean_token_accuracy');
      assert.equal(csv.length, 1 + 2 * 3, 'one row per step: 12 examples in batches of 4, two epochs');
      assert.equal((await client.files.retrieve(resultId)).purpose, 'fine-tune-results');

      const events = [];
      for await (const e of client.fineTuning.jobs.listEvents(created.id, { limit: 5 })) events.push(e);
      assert.match(events[0].message, /successfully completed/, 'newest first');
      const metrics = events.filter((e) => e.type === 'metrics');
      assert.equal(metrics.length, 6);
      const losses = metrics.map((e) => (e.data as { train_loss: number }).train_loss).reverse();
      assert.ok(losses.every((l, i) => i === 0 || l < losses[i - 1]), 'the loss falls step by step');
      const checkpoints = await client.fineTuning.jobs.checkpoints.list(created.id);
      assert.deepEqual(checkpoints.data.map((c) => c.step_number), [6, 3]);
      assert.equal(checkpoints.data[0].fine_tuned_model_checkpoint, `${done.fine_tuned_model}:ckpt-step-6`);
      assert.match(checkpoints.data[0].id, /^ftchkpt-/);
      assert.equal(checkpoints.data[0].metrics.train_loss, losses.at(-1));
      assert.equal(checkpoints.data[0].metrics.valid_loss, undefined, 'no validation file: no validation loss to draw');

      const [got] = await receiver.next(1);
      const event = new Webhook(ep.signing_secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: { id: string } };
      assert.deepEqual([event.type, event.data.id], ['fine_tuning.job.succeeded', created.id]);
    } finally {
      await dash.webhooks.delete(ep.id);
      await receiver.close();
    }
  });

  it('fails a job whose training data has a line that is not a chat example (naming the line), too few examples, or metadata emulate "fail"', async () => {
    const bad = [...examples(12)];
    bad[3] = JSON.stringify({ prompt: 'legacy', completion: 'format' });
    const badJob = await settle((await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: await upload(bad) })).id);
    assert.equal(badJob.status, 'failed');
    assert.equal(badJob.error?.code, 'invalid_training_file');
    assert.equal(badJob.error?.param, 'training_file');
    assert.match(badJob.error?.message ?? '', /line 4: it is not a chat example/);
    const noAnswer = [...examples(12)];
    noAnswer[9] = JSON.stringify({ messages: [{ role: 'user', content: 'no reply' }] });
    assert.match(
      (await settle((await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: await upload(noAnswer) })).id)).error?.message ?? '',
      /line 10: .*no assistant message/,
    );
    const few = await settle((await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: await upload(examples(3)) })).id);
    assert.match(few.error?.message ?? '', /3 examples; fine-tuning needs at least 10/);
    const emulated = await settle((await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: await upload(examples(10)), metadata: { emulate: 'fail' } })).id);
    assert.equal(emulated.status, 'failed');
    assert.equal(emulated.fine_tuned_model, null);
  });

  it('pauses a running job (it reports paused and does not move), resumes it to success; cancels another and delivers fine_tuning.job.cancelled', async () => {
    const slow = await startEmulator({ config: { jobs: { stepMs: 150 } } });
    const receiver = await startReceiver();
    try {
      const c = new OpenAI({ baseURL: `${slow.url}/openai/v1/`, apiKey: slow.apiKey, maxRetries: 0 });
      const dash = new OpenAI({ baseURL: `${slow.url}/openai/v1/dashboard`, apiKey: slow.apiKey, maxRetries: 0 });
      const ep = await dash.webhooks.create({ name: 'ft', url: receiver.url, event_types: ['fine_tuning.job.cancelled'] });
      const file = (await c.files.create({ file: await toFile(Buffer.from(examples(10).join('\n')), 't.jsonl'), purpose: 'fine-tune' })).id;
      const job = await c.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file, hyperparameters: { n_epochs: 3 } });
      await assert.rejects(c.fineTuning.jobs.pause(job.id), (e: unknown) => e instanceof APIError && e.status === 409 && /only a running job can be paused/.test(e.message));
      await eventually(async () => (await c.fineTuning.jobs.retrieve(job.id)).status === 'running' || undefined);
      assert.equal((await c.fineTuning.jobs.pause(job.id)).status, 'paused');
      const before = (await c.fineTuning.jobs.checkpoints.list(job.id)).data.length;
      await new Promise((r) => setTimeout(r, 600));
      assert.equal((await c.fineTuning.jobs.retrieve(job.id)).status, 'paused');
      assert.equal((await c.fineTuning.jobs.checkpoints.list(job.id)).data.length, before, 'no training while paused');
      assert.equal((await c.fineTuning.jobs.resume(job.id)).status, 'running');
      assert.equal((await settle(job.id, [], c)).status, 'succeeded');
      await assert.rejects(c.fineTuning.jobs.cancel(job.id), (e: unknown) => e instanceof APIError && e.status === 409);

      const other = await c.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file });
      assert.equal((await c.fineTuning.jobs.cancel(other.id)).status, 'cancelled');
      await new Promise((r) => setTimeout(r, 400));
      assert.equal((await c.fineTuning.jobs.retrieve(other.id)).status, 'cancelled', 'a cancelled job stays cancelled');
      const [got] = await receiver.next(1);
      const event = new Webhook(ep.signing_secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: { id: string } };
      assert.deepEqual([event.type, event.data.id], ['fine_tuning.job.cancelled', other.id]);
    } finally {
      await receiver.close();
      await slow.close();
    }
  });

  it('refuses a model that cannot be tuned, a method it does not take, a file of another purpose; lists jobs; an unknown job is a 404', async () => {
    const file = await upload(examples(10));
    await assert.rejects(
      client.fineTuning.jobs.create({ model: 'gpt-4o', training_file: file }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'model' && /gpt-4.1-2025-04-14/.test(e.message),
    );
    await assert.rejects(
      client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file, method: { type: 'dpo' } }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'method.type',
    );
    await assert.rejects(
      client.fineTuning.jobs.create({ model: 'gpt-4.1-2025-04-14', training_file: await upload(examples(10), 'batch') }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'training_file',
    );
    await assert.rejects(
      client.fineTuning.jobs.create({ model: 'gpt-4.1-2025-04-14', training_file: file, hyperparameters: { n_epochs: 0 } }),
      (e: unknown) => e instanceof BadRequestError && e.param === 'hyperparameters.n_epochs',
    );
    await assert.rejects(client.fineTuning.jobs.retrieve('ftjob-nope'), NotFoundError);
    const page = await client.fineTuning.jobs.list({ limit: 2 });
    assert.equal(page.data.length, 2);
    assert.equal(page.has_more, true);
  });

  it('deploys the fine-tuned model through Resource Manager (PUT, Accepted then Succeeded) and it answers chat; DELETE removes it', async () => {
    const token = await issuer.mint({ oid: 'deployer' }, { audience: 'https://management.azure.com', expiresInSeconds: 600 });
    const job = await settle((await client.fineTuning.jobs.create({ model: 'gpt-4.1-mini-2025-04-14', training_file: await upload(examples(10)), hyperparameters: { n_epochs: 1 } })).id);
    const account = '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/rg-emulator/providers/Microsoft.CognitiveServices/accounts/emulator-openai';
    const arm = (method: string, name: string, body?: unknown) =>
      fetch(`${emu.url}${account}/deployments/${name}?api-version=2024-10-01`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const put = await arm('PUT', 'my-tuned', { sku: { name: 'standard', capacity: 1 }, properties: { model: { format: 'OpenAI', name: job.fine_tuned_model, version: '1' } } });
    assert.equal(put.status, 201);
    const created = (await put.json()) as { name: string; properties: { provisioningState: string; model: { name: string } } };
    assert.equal(created.properties.provisioningState, 'Accepted');
    assert.equal(created.properties.model.name, job.fine_tuned_model);
    // Until it has Succeeded (one step), the deployment answers no chat. On a loaded machine the step
    // may already have passed by the time the request arrives: then it must say Succeeded.
    const early = await client.chat.completions.create({ model: 'my-tuned', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    if (early) assert.ok(early instanceof NotFoundError && early.code === 'DeploymentNotFound', String(early));
    else assert.equal(((await (await arm('GET', 'my-tuned')).json()) as { properties: { provisioningState: string } }).properties.provisioningState, 'Succeeded');
    await eventually(async () => ((await (await arm('GET', 'my-tuned')).json()) as { properties: { provisioningState: string } }).properties.provisioningState === 'Succeeded' || undefined);
    const answer = await client.chat.completions.create({ model: 'my-tuned', messages: [{ role: 'user', content: 'hello tuned' }] });
    assert.match(answer.choices[0].message.content ?? '', /You said: hello tuned/);
    const listed = (await (await fetch(`${emu.url}${account}/deployments?api-version=2024-10-01`, { headers: { authorization: `Bearer ${token}` } })).json()) as { value: Array<{ name: string }> };
    assert.ok(listed.value.some((d) => d.name === 'my-tuned'));

    const unknown = await arm('PUT', 'ghost', {
      sku: { name: 'standard', capacity: 1 },
      properties: { model: { format: 'OpenAI', name: 'gpt-4.1-mini-2025-04-14.ft-00000000000000000000000000000000', version: '1' } },
    });
    assert.deepEqual([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code], [400, 'DeploymentModelNotSupported']);
    assert.equal((await arm('DELETE', 'my-tuned')).status, 200);
    await assert.rejects(client.chat.completions.create({ model: 'my-tuned', messages: [{ role: 'user', content: 'hi' }] }), NotFoundError);
    assert.equal((await arm('DELETE', 'my-tuned')).status, 204);
    assert.equal((await arm('GET', 'my-tuned')).status, 404);
  });
});
