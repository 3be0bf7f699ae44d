/**
 * The conformance check, part two: files, batches, fine-tuning jobs, incoming calls' controls and
 * the webhook deliveries they cause, against OpenAI's API description (openai/openai-openapi).
 * Each answer's status, content type and body, and each delivery's body, are validated against the
 * operation's (or the webhook's) schema. See api-conformance.test.ts for part one.
 */
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { conformsEmpty, conformsJson, conformsWebhook, missingDescriptions } from '../support/apiConformance';
import { json, sender, type Send } from '../support/conformanceHttp';
import { eventually, startReceiver } from '../support/receiver';

const chatLine = (id: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini-batch', messages: [{ role: 'user', content }] } });
const example = (i: number) =>
  JSON.stringify({ messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` }] });
const FINAL_BATCH = ['completed', 'failed', 'expired', 'cancelled'];
const FINAL_JOB = ['succeeded', 'failed', 'cancelled'];

describe('API conformance: files, batches, fine-tuning, calls and webhooks (OpenAI description)', function () {
  let emu: Emulator;
  let send: Send;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async function () {
    const missing = missingDescriptions(['openai']);
    if (missing.length) {
      console.warn(`  api descriptions missing (${missing.join(', ')}): see test/fixtures/api-descriptions/README.md`);
      this.skip();
    }
    emu = await startEmulator({ config: { jobs: { stepMs: 20 }, calls: { ringMs: 5000 }, delivery: { maxAttempts: 1, retryBaseMs: 10, timeoutMs: 2000 } } });
    send = sender(emu);
    receiver = await startReceiver();
    const events = [
      ...['batch.completed', 'batch.failed', 'batch.cancelled', 'batch.expired', 'fine_tuning.job.succeeded', 'fine_tuning.job.failed', 'fine_tuning.job.cancelled'],
      ...['response.completed', 'response.failed', 'response.incomplete', 'response.cancelled', 'realtime.call.incoming'],
    ];
    const ep = await send('POST', '/openai/v1/dashboard/webhook_endpoints', { name: 'conformance', url: receiver.url, event_types: events });
    assert.equal(ep.status, 200, ep.text);
  });
  after(async () => {
    await receiver?.close();
    await emu?.close();
  });

  const upload = async (lines: string[], purpose: string) => {
    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', new Blob([`${lines.join('\n')}\n`]), purpose === 'batch' ? 'in.jsonl' : 'train.jsonl');
    return send('POST', '/openai/v1/files', form);
  };
  const settle = (path: string, final: string[]) =>
    eventually(async () => {
      const a = await send('GET', path);
      return final.includes(String(json(a).status)) ? a : undefined;
    }, 20_000);
  /** The delivery of `type` about `id`, once it has arrived. */
  const delivery = (type: string, id: string) =>
    eventually(async () => {
      const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
      return events.find((e) => e.type === type && Object.values(e.data).includes(id));
    }, 20_000);

  it('files: upload, list, retrieve, content and delete', async () => {
    const created = await upload([chatLine('a', 'hi')], 'batch');
    conformsJson('openai', 'POST /files', created);
    const id = json<{ id: string }>(created).id;
    conformsJson('openai', 'GET /files', await send('GET', '/openai/v1/files?purpose=batch&limit=5'));
    conformsJson('openai', 'GET /files/{id}', await send('GET', `/openai/v1/files/${id}`));
    const content = await send('GET', `/openai/v1/files/${id}/content`);
    assert.equal(content.status, 200);
    assert.match(content.text, /"custom_id":"a"/);
    conformsJson('openai', 'DELETE /files/{id}', await send('DELETE', `/openai/v1/files/${id}`));
  });

  it('batches: create, retrieve when completed, list, and batch.completed', async () => {
    const input = json<{ id: string }>(await upload([chatLine('one', 'hello'), chatLine('two', '/filter')], 'batch')).id;
    const created = await send('POST', '/openai/v1/batches', { input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' });
    conformsJson('openai', 'POST /batches', created);
    const id = json<{ id: string }>(created).id;
    const done = await settle(`/openai/v1/batches/${id}`, FINAL_BATCH);
    conformsJson('openai', 'GET /batches/{id}', done);
    assert.equal(json(done).status, 'completed');
    conformsJson('openai', 'GET /batches', await send('GET', '/openai/v1/batches?limit=5'));
    conformsWebhook('openai', 'batch_completed', await delivery('batch.completed', id));
  });

  it('batches: cancel, failed validation, and their webhooks', async () => {
    const input = json<{ id: string }>(await upload(Array.from({ length: 30 }, (_, i) => chatLine(`l${i}`, '/long 200')), 'batch')).id;
    const id = json<{ id: string }>(await send('POST', '/openai/v1/batches', { input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' })).id;
    const cancelling = await send('POST', `/openai/v1/batches/${id}/cancel`);
    conformsJson('openai', 'POST /batches/{id}/cancel', cancelling);
    conformsJson('openai', 'GET /batches/{id}', await settle(`/openai/v1/batches/${id}`, FINAL_BATCH));
    conformsWebhook('openai', 'batch_cancelled', await delivery('batch.cancelled', id));
    const bad = json<{ id: string }>(await upload([chatLine('dup', 'x'), chatLine('dup', 'y')], 'batch')).id;
    const failed = json<{ id: string }>(await send('POST', '/openai/v1/batches', { input_file_id: bad, endpoint: '/v1/chat/completions', completion_window: '24h' })).id;
    const f = await settle(`/openai/v1/batches/${failed}`, FINAL_BATCH);
    conformsJson('openai', 'GET /batches/{id}', f);
    assert.equal(json(f).status, 'failed');
    conformsWebhook('openai', 'batch_failed', await delivery('batch.failed', failed));
  });

  it('batches: an expired batch and batch.expired', async () => {
    const input = json<{ id: string }>(await upload([chatLine('a', 'x'), chatLine('b', 'y')], 'batch')).id;
    const body = { input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { emulate: 'expire' } };
    const id = json<{ id: string }>(await send('POST', '/openai/v1/batches', body)).id;
    const expired = await settle(`/openai/v1/batches/${id}`, FINAL_BATCH);
    conformsJson('openai', 'GET /batches/{id}', expired);
    assert.equal(json(expired).status, 'expired');
    conformsWebhook('openai', 'batch_expired', await delivery('batch.expired', id));
  });

  it('fine-tuning: create, succeeded, list, events, checkpoints, and fine_tuning.job.succeeded', async () => {
    const training = json<{ id: string }>(await upload(Array.from({ length: 10 }, (_, i) => example(i)), 'fine-tune')).id;
    const created = await send('POST', '/openai/v1/fine_tuning/jobs', { model: 'gpt-4o-mini-2024-07-18', training_file: training, suffix: 'conf' });
    conformsJson('openai', 'POST /fine_tuning/jobs', created);
    const id = json<{ id: string }>(created).id;
    const done = await settle(`/openai/v1/fine_tuning/jobs/${id}`, FINAL_JOB);
    conformsJson('openai', 'GET /fine_tuning/jobs/{id}', done);
    assert.equal(json(done).status, 'succeeded');
    conformsJson('openai', 'GET /fine_tuning/jobs', await send('GET', '/openai/v1/fine_tuning/jobs?limit=5'));
    conformsJson('openai', 'GET /fine_tuning/jobs/{id}/events', await send('GET', `/openai/v1/fine_tuning/jobs/${id}/events`));
    conformsJson('openai', 'GET /fine_tuning/jobs/{id}/checkpoints', await send('GET', `/openai/v1/fine_tuning/jobs/${id}/checkpoints`));
    conformsWebhook('openai', 'fine_tuning_job_succeeded', await delivery('fine_tuning.job.succeeded', id));
  });

  it('fine-tuning: pause, resume, cancel, a failed job, and their webhooks', async () => {
    const training = json<{ id: string }>(await upload(Array.from({ length: 10 }, (_, i) => example(i)), 'fine-tune')).id;
    const create = (more: Record<string, unknown> = {}) =>
      send('POST', '/openai/v1/fine_tuning/jobs', { model: 'gpt-4o-mini-2024-07-18', training_file: training, hyperparameters: { n_epochs: 50 }, ...more });
    const id = json<{ id: string }>(await create()).id;
    await eventually(async () => (json(await send('GET', `/openai/v1/fine_tuning/jobs/${id}`)).status === 'running' ? true : undefined), 20_000);
    conformsJson('openai', 'POST /fine_tuning/jobs/{id}/pause', await send('POST', `/openai/v1/fine_tuning/jobs/${id}/pause`));
    conformsJson('openai', 'POST /fine_tuning/jobs/{id}/resume', await send('POST', `/openai/v1/fine_tuning/jobs/${id}/resume`));
    conformsJson('openai', 'POST /fine_tuning/jobs/{id}/cancel', await send('POST', `/openai/v1/fine_tuning/jobs/${id}/cancel`));
    conformsWebhook('openai', 'fine_tuning_job_cancelled', await delivery('fine_tuning.job.cancelled', id));
    const failed = json<{ id: string }>(await create({ metadata: { emulate: 'fail' } })).id;
    const f = await settle(`/openai/v1/fine_tuning/jobs/${failed}`, FINAL_JOB);
    conformsJson('openai', 'GET /fine_tuning/jobs/{id}', f);
    assert.equal(json(f).status, 'failed');
    conformsWebhook('openai', 'fine_tuning_job_failed', await delivery('fine_tuning.job.failed', failed));
  });

  it('responses in the background: response.completed, .failed, .incomplete and .cancelled', async () => {
    const start = async (input: string) => json<{ id: string }>(await send('POST', '/openai/v1/responses', { model: 'gpt-4o', input, background: true })).id;
    const [completed, failed, incomplete, cancelled] = [await start('hello'), await start('/fail'), await start('/incomplete'), await start('/long 3000')];
    await send('POST', `/openai/v1/responses/${cancelled}/cancel`);
    conformsWebhook('openai', 'response_completed', await delivery('response.completed', completed));
    conformsWebhook('openai', 'response_failed', await delivery('response.failed', failed));
    conformsWebhook('openai', 'response_incomplete', await delivery('response.incomplete', incomplete));
    conformsWebhook('openai', 'response_cancelled', await delivery('response.cancelled', cancelled));
  });

  it('calls: realtime.call.incoming, then accept, refer, reject and hang up', async () => {
    const ring = async () => json<{ call_id: string }>(await send('POST', '/emulator/calls', { from: 'sip:+14155550100@carrier.example', to: 'sip:proj_x@swedencentral.sip.ai.azure.com' })).call_id;
    const first = await ring();
    conformsWebhook('openai', 'realtime_call_incoming', await delivery('realtime.call.incoming', first));
    const calls = '/openai/v1/realtime/calls';
    conformsEmpty('openai', 'POST /realtime/calls/{id}/accept', await send('POST', `${calls}/${first}/accept`, { type: 'realtime', model: 'gpt-realtime' }));
    conformsEmpty('openai', 'POST /realtime/calls/{id}/refer', await send('POST', `${calls}/${first}/refer`, { target_uri: 'tel:+14155550123' }));
    const second = await ring();
    conformsEmpty('openai', 'POST /realtime/calls/{id}/reject', await send('POST', `${calls}/${second}/reject`, { status_code: 486 }));
    const third = await ring();
    await send('POST', `${calls}/${third}/accept`, { type: 'realtime', model: 'gpt-realtime' });
    conformsEmpty('openai', 'POST /realtime/calls/{id}/hangup', await send('POST', `${calls}/${third}/hangup`));
  });
});
