/** The fine-tuning job page's data: the loss curve from every shape the service may send, the view the host builds, and the protocol's checks. */
import assert from 'node:assert/strict';
import { lossCurve } from '../../src/jobs/fineTuningDetails';
import { jobView, EVENTS_SHOWN } from '../../src/vscode/jobs/fineTuningView';
import type { FineTuningCheckpoint, FineTuningEvent, FineTuningJob } from '../../src/service/jobTypes';
import { isJobView, parseFineTuningHostMessage, parseFineTuningViewMessage } from '../../src/webview/fineTuning/protocol';
import { fineTuningJob } from '../support/fineTuningJob';

let n = 0;
const event = (data?: Record<string, unknown>, message = 'm'): FineTuningEvent => ({
  id: `ftevent-${++n}`,
  object: 'fine_tuning.job.event',
  created_at: 1_700_000_000 + n,
  level: 'info',
  message,
  ...(data ? { type: 'metrics', data } : { type: 'message' }),
});
const checkpoint = (step: number, metrics: Record<string, number>): FineTuningCheckpoint => ({
  id: `ftchkpt-${step}`,
  object: 'fine_tuning.job.checkpoint',
  created_at: 1,
  fine_tuned_model_checkpoint: `m:ckpt-step-${step}`,
  fine_tuning_job_id: 'ftjob-1',
  step_number: step,
  metrics,
});
const job = fineTuningJob;

describe('fine-tuning page: the loss curve', () => {
  it('takes training loss from metrics events and validation loss from the events or else the checkpoints, oldest step first', () => {
    const events = [event({ step: 3, train_loss: 0.5, valid_loss: 0.6 }), event({ step: 2, train_loss: 0.8 }), event(undefined, 'Job started'), event({ step: 1, train_loss: 1.2 })];
    const points = lossCurve(events, [checkpoint(2, { step: 2, train_loss: 0.81, valid_loss: 0.9 }), checkpoint(3, { valid_loss: 0.7 })]);
    assert.deepEqual(points, [
      { step: 1, train: 1.2 },
      { step: 2, train: 0.8, valid: 0.9 },
      { step: 3, train: 0.5, valid: 0.6 },
    ]);
  });

  it('accepts numbers sent as strings and full_valid_loss, and skips data with no step or no loss', () => {
    const points = lossCurve(
      [event({ step: '4', train_loss: '0.25' }), event({ step: 5, full_valid_loss: 0.3 }), event({ train_loss: 1 }), event({ step: 6 }), event({ step: 7, train_loss: 'n/a' })],
      [],
    );
    assert.deepEqual(points, [
      { step: 4, train: 0.25 },
      { step: 5, valid: 0.3 },
    ]);
  });

  it('is empty for a job with no metrics', () => {
    assert.deepEqual(lossCurve([event(), event()], []), []);
  });

  it('takes a step only when it is a number of zero or more, never a blank, a flag or null', () => {
    const steps = [' ', '', true, null, -1, '-2', [], 'x'];
    assert.deepEqual(lossCurve(steps.map((step) => event({ step, train_loss: 1 })), []), []);
    assert.deepEqual(lossCurve([event({ step: 0, train_loss: 2 }), event({ step: '1', train_loss: 1 })], []), [{ step: 0, train: 2 }, { step: 1, train: 1 }]);
    assert.deepEqual(lossCurve([{ ...event(), data: 'step 3' } as unknown as FineTuningEvent, { ...event(), data: null }], []), []);
  });

  it("places a checkpoint's loss at its step number, else at the step its metrics say", () => {
    const atNumber = { ...checkpoint(12, { step: 99, valid_loss: 0.5 }) };
    const byMetrics = { ...checkpoint(0, { step: 24, valid_loss: 0.4 }), step_number: undefined as unknown as number };
    assert.deepEqual(lossCurve([], [atNumber, byMetrics]), [{ step: 12, valid: 0.5 }, { step: 24, valid: 0.4 }]);
  });
});

describe('fine-tuning page: the view and the protocol', () => {
  it('shows the newest events only, counts the rest, and says a failed job\'s error', () => {
    const events = Array.from({ length: EVENTS_SHOWN + 7 }, () => event()).reverse();
    const view = jobView({ job: job({ status: 'failed', error: { code: 'invalid_training_file', message: 'Line 3 is not a chat example.' } }), events, checkpoints: [], eventsCapped: false }, 'Local');
    assert.equal(view.events.length, EVENTS_SHOWN);
    assert.equal(view.eventsLeftOut, 7);
    assert.equal(view.final, true);
    assert.equal(view.error, 'Line 3 is not a chat example. (invalid_training_file)');
    assert.ok(isJobView(view));
  });

  it("lists the method's hyperparameters, else the job's", () => {
    const withMethod = job({ hyperparameters: { n_epochs: 'auto' } }) as FineTuningJob & { method: unknown };
    withMethod.method = { type: 'supervised', supervised: { hyperparameters: { n_epochs: 3, batch_size: 'auto', learning_rate_multiplier: 0.5 } } };
    assert.deepEqual(jobView({ job: withMethod, events: [], checkpoints: [], eventsCapped: false }, 'L').hyperparameters, [
      { name: 'n_epochs', value: '3' },
      { name: 'batch_size', value: 'auto' },
      { name: 'learning_rate_multiplier', value: '0.5' },
    ]);
    assert.deepEqual(jobView({ job: job({ hyperparameters: { n_epochs: 'auto' } }), events: [], checkpoints: [], eventsCapped: false }, 'L').hyperparameters, [{ name: 'n_epochs', value: 'auto' }]);
  });

  it('drops messages that are not the protocol: on the page, and from it', () => {
    const view = jobView({ job: job(), events: [event({ step: 1, train_loss: 1 })], checkpoints: [], eventsCapped: false }, 'L');
    assert.ok(parseFineTuningHostMessage({ type: 'job', job: view }));
    assert.equal(parseFineTuningHostMessage({ type: 'job', job: { ...view, points: [{ step: 'one' }] } }), undefined);
    assert.equal(parseFineTuningHostMessage({ type: 'job', job: { ...view, events: [{ at: 1, level: 'info', message: 5 }] } }), undefined);
    assert.equal(parseFineTuningHostMessage({ type: 'job', job: { ...view, final: 'no' } }), undefined);
    assert.equal(parseFineTuningHostMessage({ type: 'error', text: 'x'.repeat(2001) }), undefined);
    assert.deepEqual(parseFineTuningHostMessage({ type: 'error', text: 'Could not read.' }), { type: 'error', text: 'Could not read.' });
    assert.deepEqual(parseFineTuningViewMessage({ type: 'act', action: 'pause', extra: 1 }), { type: 'act', action: 'pause' });
    assert.equal(parseFineTuningViewMessage({ type: 'act', action: 'delete' }), undefined);
    assert.deepEqual(parseFineTuningViewMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.equal(parseFineTuningViewMessage('ready'), undefined);
  });
});
