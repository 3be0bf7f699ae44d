/**
 * What the fine-tuning job's page is sent, field by field: the texts cut to what the page takes,
 * the times and losses only when they are ones, the hyperparameters the job trains with, and each
 * optional field present only when the service said it.
 */
import assert from 'node:assert/strict';
import { jobView } from '../../src/vscode/jobs/fineTuningView';
import type { FineTuningCheckpoint, FineTuningEvent, FineTuningJob } from '../../src/service/jobTypes';
import { isJobView } from '../../src/webview/fineTuning/protocol';
import { fineTuningJob } from '../support/fineTuningJob';

const job = fineTuningJob;
const checkpoint = (over: Record<string, unknown>): FineTuningCheckpoint =>
  ({
    id: 'ftchkpt-1', object: 'fine_tuning.job.checkpoint', created_at: 1, fine_tuned_model_checkpoint: 'm:ckpt-1', fine_tuning_job_id: 'ftjob-1', step_number: 1, metrics: {}, ...over,
  }) as FineTuningCheckpoint;
const view = (j: FineTuningJob, more: { events?: FineTuningEvent[]; checkpoints?: FineTuningCheckpoint[]; label?: string } = {}) => {
  const v = jobView({ job: j, events: more.events ?? [], checkpoints: more.checkpoints ?? [], eventsCapped: false }, more.label ?? 'Local');
  assert.ok(isJobView(v), 'the page takes it');
  return v;
};
const s = (n: number) => 'x'.repeat(n);

describe('fine-tuning page: the view the host sends', () => {
  it('sends a running job with only what the service said', () => {
    assert.deepEqual(view(job()), {
      id: 'ftjob-1', connectionLabel: 'Local', status: 'running', final: false, model: 'gpt-4.1-mini-2025-04-14', createdAt: 1_700_000_000,
      trainingFile: 'file-a', hyperparameters: [], events: [], eventsLeftOut: 0, checkpoints: [], points: [],
    });
  });

  it('sends a finished job\'s model, suffix, tokens, files, end and error', () => {
    const v = view(job({
      status: 'succeeded', fine_tuned_model: 'gpt-4.1-mini.ft-1', user_provided_suffix: 'mine', suffix: 'theirs', trained_tokens: 1200,
      finished_at: 1_700_000_900, estimated_finish: 1_700_001_000, validation_file: 'file-b', error: { code: 'x', message: 'Partly failed.' },
    }));
    assert.deepEqual(
      [v.final, v.fineTunedModel, v.suffix, v.trainedTokens, v.finishedAt, v.estimatedFinish, v.validationFile, v.error, v.trainingFile],
      [true, 'gpt-4.1-mini.ft-1', 'mine', 1200, 1_700_000_900, undefined, 'file-b', 'Partly failed. (x)', 'file-a'],
    );
    assert.equal(view(job({ suffix: 'theirs' })).suffix, 'theirs');
    assert.equal(view(job({ trained_tokens: 0 })).trainedTokens, 0);
  });

  it('says an estimated end only while the job runs, and a time only when it is one', () => {
    assert.equal(view(job({ estimated_finish: 1_700_001_000 })).estimatedFinish, 1_700_001_000);
    for (const status of ['succeeded', 'failed', 'cancelled']) assert.equal(view(job({ status, estimated_finish: 1_700_001_000 })).estimatedFinish, undefined, status);
    for (const t of [0, -5, Infinity, NaN, null]) {
      const v = view(job({ finished_at: t, estimated_finish: t }));
      assert.deepEqual([v.finishedAt, v.estimatedFinish], [undefined, undefined], String(t));
    }
    assert.equal(view(job({ finished_at: 1 })).finishedAt, 1);
  });

  it('says an error without a code as its message alone', () => {
    assert.equal(view(job({ status: 'failed', error: { message: 'Quota exceeded.', code: null } })).error, 'Quota exceeded.');
    assert.equal(view(job({ status: 'failed', error: { code: 'quota' } })).error, '(quota)');
  });

  it('cuts every text to what the page takes, saying so with an ellipsis', () => {
    const long = { status: s(60), model: s(600), fine_tuned_model: s(600), suffix: s(150) };
    const files = { training_file: s(250), validation_file: s(250), error: { message: s(5000) } };
    const v = view(job({ ...long, ...files }), { label: s(600) });
    const texts = [v.connectionLabel, v.status, v.model, v.fineTunedModel, v.suffix, v.trainingFile, v.validationFile, v.error];
    assert.deepEqual(texts.map((t) => t!.length), [500, 50, 500, 500, 100, 200, 200, 4000]);
    assert.equal(v.model, `${s(499)}…`);
    assert.equal(view(job({ model: s(500) })).model, s(500), 'at the bound: whole');
    assert.equal(view(job({ training_file: null })).trainingFile, '');
  });

  it("lists the hyperparameters the job trains with: the method's, else the job's, without empty ones", () => {
    const top = { n_epochs: 'auto' };
    const hp = (method: unknown) => view(job({ hyperparameters: top, method })).hyperparameters;
    assert.deepEqual(hp({ type: 'dpo' }), [{ name: 'n_epochs', value: 'auto' }], 'the method has none');
    assert.deepEqual(hp({ type: 'supervised', supervised: { hyperparameters: 'auto' } }), [{ name: 'n_epochs', value: 'auto' }], 'not a list of them');
    assert.deepEqual(hp({ type: 0, 0: { hyperparameters: { beta: 1 } } }), [{ name: 'n_epochs', value: 'auto' }], 'a type that is not a name');
    assert.deepEqual(hp({ type: 'supervised', supervised: { hyperparameters: { n_epochs: 3, lr: 0.5, beta: null, seed: undefined, shape: { a: 1 }, on: true } } }), [
      { name: 'n_epochs', value: '3' }, { name: 'lr', value: '0.5' }, { name: 'shape', value: '{"a":1}' }, { name: 'on', value: 'true' },
    ]);
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, i]));
    assert.equal(view(job({ hyperparameters: many })).hyperparameters.length, 50);
    assert.deepEqual(view(job({ hyperparameters: { [s(150)]: s(250) } })).hyperparameters.map((h) => [h.name.length, h.value.length]), [[100, 200]]);
    assert.deepEqual(view(job({ hyperparameters: undefined })).hyperparameters, []);
  });

  it('sends the events as the page shows them, however the service left them', () => {
    const e = (over: Record<string, unknown>) => ({ id: 'e', object: 'fine_tuning.job.event', created_at: 1_700_000_001, level: 'warn', message: 'Slow.', ...over }) as FineTuningEvent;
    const v = view(job(), { events: [e({}), e({ created_at: '1700000001', level: undefined, message: undefined }), e({ level: s(30), message: s(5000) })] });
    assert.deepEqual(v.events.slice(0, 2), [{ at: 1_700_000_001, level: 'warn', message: 'Slow.' }, { at: 0, level: 'info', message: '' }]);
    assert.deepEqual([v.events[2].level.length, v.events[2].message.length], [20, 4000]);
  });

  it("sends each checkpoint's model and losses, those without a step left out, at most 500", () => {
    const v = view(job(), {
      checkpoints: [
        checkpoint({ step_number: 12, metrics: { train_loss: 0.5, valid_loss: 0.6 } }),
        checkpoint({ step_number: 24, fine_tuned_model_checkpoint: null, id: 'ftchkpt-24', metrics: { train_loss: '0.4', valid_loss: undefined } }),
        checkpoint({ step_number: 36, metrics: undefined }),
        checkpoint({ step_number: NaN }),
      ],
    });
    assert.deepEqual(v.checkpoints, [
      { step: 12, model: 'm:ckpt-1', trainLoss: 0.5, validLoss: 0.6 },
      { step: 24, model: 'ftchkpt-24' },
      { step: 36, model: 'm:ckpt-1' },
    ]);
    assert.equal(view(job(), { checkpoints: Array.from({ length: 510 }, (_, i) => checkpoint({ step_number: i })) }).checkpoints.length, 500);
  });
});
