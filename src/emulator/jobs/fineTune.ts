/**
 * A fine-tuning job's life: validating_files → queued → running (one step per epoch, metrics
 * events per training step, a checkpoint per epoch; pause and resume) → succeeded with the model
 * named as Azure names it (`<base>.ft-<32 hex>`), or failed / cancelled. Final states emit
 * `fine_tuning.job.*` webhook events.
 */
import type { EmulatorState } from '../state';
import { nowSeconds, randomId } from '../wire';
import { checkTrainingData } from './fineTuneData';
import type { JobStatus, Hyper, FineTuningJob, JobEvent, Checkpoint, StoredJob } from '../stored';

export type { JobStatus, FineTuningJob, JobEvent, Checkpoint, StoredJob };

export const JOB_FINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled']);

export function logEvent(stored: StoredJob, message: string, level: JobEvent['level'] = 'info', data?: Record<string, unknown>): void {
  stored.events.push({ id: randomId('ftevent-', 16), object: 'fine_tuning.job.event', created_at: nowSeconds(), level, message, type: data ? 'metrics' : 'message', ...(data ? { data } : {}) });
}

function end(state: EmulatorState, stored: StoredJob, status: 'succeeded' | 'failed' | 'cancelled'): void {
  stored.job.status = status;
  stored.job.finished_at = nowSeconds();
  state.emit(`fine_tuning.job.${status}`, { id: stored.job.id });
}

export function failJob(state: EmulatorState, stored: StoredJob, code: string, message: string, param: string | null): void {
  stored.job.error = { code, message, param };
  logEvent(stored, message, 'error');
  end(state, stored, 'failed');
}

export function cancelJob(state: EmulatorState, stored: StoredJob): void {
  logEvent(stored, 'The job was cancelled.');
  end(state, stored, 'cancelled');
}

/** Resolved hyperparameters: `auto` becomes what this emulator trains with. */
function resolve(h: Hyper, examples: number): { n_epochs: number; batch_size: number; learning_rate_multiplier: number } {
  const pick = (k: string, auto: number) => (typeof h[k] === 'number' ? (h[k] as number) : auto);
  return { n_epochs: Math.round(pick('n_epochs', 3)), batch_size: Math.max(1, Math.min(examples, Math.round(pick('batch_size', 1)))), learning_rate_multiplier: pick('learning_rate_multiplier', 1) };
}

/** Deterministic, falling loss: the same job trains the same curve. */
const lossAt = (step: number, total: number) => Math.round((2.2 * Math.exp((-2.5 * step) / total) + 0.15) * 1e4) / 1e4;
const accuracyAt = (step: number, total: number) => Math.round((0.45 + (0.5 * step) / total) * 1e4) / 1e4;

const stopped = (job: FineTuningJob) => JOB_FINAL.has(job.status);

export async function runJob(state: EmulatorState, stored: StoredJob): Promise<void> {
  const { job } = stored;
  const step = state.config.jobs.stepMs;
  logEvent(stored, `Validating training file: ${job.training_file}${job.validation_file ? ` and validation file: ${job.validation_file}` : ''}`);
  await state.wait(step);
  if (stopped(job)) return;
  if (job.metadata?.emulate === 'fail') return failJob(state, stored, 'invalid_training_file', 'The job failed: metadata.emulate is "fail", so the emulator failed it.', 'metadata');
  const checked: Array<{ examples: number; tokens: number }> = [];
  for (const [param, id, what] of [['training_file', job.training_file, 'training file'], ['validation_file', job.validation_file, 'validation file']] as const) {
    if (!id) continue;
    const file = state.files.get(id);
    if (!file) return failJob(state, stored, 'invalid_training_file', `The ${what} ${id} is gone (it was deleted).`, param);
    const result = checkTrainingData(file.data, job.method.type, what);
    if ('problem' in result) return failJob(state, stored, param === 'training_file' ? 'invalid_training_file' : 'invalid_validation_file', result.problem.message, param);
    checked.push(result);
  }
  const { examples, tokens } = checked[0];
  job.status = 'queued';
  logEvent(stored, 'Files validated, moving job to queued state');
  await state.wait(step);
  if (stopped(job)) return;

  const h = resolve(job.hyperparameters, examples);
  job.hyperparameters = { ...h };
  const methodSettings = (job.method[job.method.type] ?? {}) as { hyperparameters?: Hyper };
  job.method = { ...job.method, [job.method.type]: { ...methodSettings, hyperparameters: { ...methodSettings.hyperparameters, ...h } } };
  job.status = 'running';
  job.estimated_finish = nowSeconds() + Math.ceil((h.n_epochs * step) / 1000);
  logEvent(stored, 'Fine-tuning job started');
  const perEpoch = Math.ceil(examples / h.batch_size);
  const total = perEpoch * h.n_epochs;
  const rows: string[] = ['step,train_loss,train_mean_token_accuracy,valid_loss,validation_mean_token_accuracy,full_valid_loss,full_valid_mean_token_accuracy'];
  const name = `${job.model}.ft-${job.id.slice('ftjob-'.length)}${job.suffix ? `-${job.suffix}` : ''}`;
  for (let epoch = 1; epoch <= h.n_epochs; epoch++) {
    await state.wait(step);
    // A paused job waits where it is (bounded by the emulator's life: its timers end with it).
    while ((job.status as JobStatus) === 'paused') await state.wait(Math.max(20, step / 4));
    if (stopped(job)) return;
    for (let s = (epoch - 1) * perEpoch + 1; s <= epoch * perEpoch; s++) {
      const m = { step: s, train_loss: lossAt(s, total), train_mean_token_accuracy: accuracyAt(s, total) };
      logEvent(stored, `Step ${s}/${total}: training loss=${m.train_loss.toFixed(4)}`, 'info', { ...m, total_steps: total });
      rows.push(`${s},${m.train_loss},${m.train_mean_token_accuracy},,,,`);
    }
    const last = epoch * perEpoch;
    const loss = lossAt(last, total);
    const acc = accuracyAt(last, total);
    stored.checkpoints.push({
      id: randomId('ftchkpt-', 16),
      object: 'fine_tuning.job.checkpoint',
      created_at: nowSeconds(),
      fine_tuned_model_checkpoint: `${name}:ckpt-step-${last}`,
      fine_tuning_job_id: job.id,
      step_number: last,
      metrics: {
        step: last,
        train_loss: loss,
        train_mean_token_accuracy: acc,
        // Validation figures only from validation data: a job without it has none to report.
        ...(job.validation_file
          ? { valid_loss: loss + 0.05, valid_mean_token_accuracy: acc - 0.02, full_valid_loss: loss + 0.05, full_valid_mean_token_accuracy: acc - 0.02 }
          : {}),
      },
    });
    logEvent(stored, `Checkpoint created at step ${last}`);
  }
  job.trained_tokens = tokens * h.n_epochs;
  job.fine_tuned_model = name;
  job.result_files = [state.files.add('results.csv', 'fine-tune-results', Buffer.from(rows.join('\n') + '\n'), undefined, true).id];
  logEvent(stored, `New fine-tuned model created: ${name}`);
  logEvent(stored, 'The job has successfully completed');
  end(state, stored, 'succeeded');
}
