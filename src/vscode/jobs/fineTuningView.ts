/** What a fine-tuning job's page is sent: plain data for its protocol, built on the host side. */
import type { JobView } from '../../webview/fineTuning/protocol';
import { JOB_FINAL } from '../../service/jobTypes';
import { lossCurve, type JobDetails } from '../../jobs/fineTuningDetails';

/** Events sent to the page: the newest ones (the chart reads all of them). */
export const EVENTS_SHOWN = 500;

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The hyperparameters the job trains with: the method's when it has them, else the top-level (deprecated) ones. */
function hyperparameters(job: JobDetails['job']): JobView['hyperparameters'] {
  const method = (job as { method?: { type?: unknown } & Record<string, unknown> }).method;
  const byMethod = method && typeof method.type === 'string' ? (method[method.type] as { hyperparameters?: unknown } | undefined)?.hyperparameters : undefined;
  const source = (byMethod && typeof byMethod === 'object' ? byMethod : job.hyperparameters) ?? {};
  return Object.entries(source as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null)
    .slice(0, 50)
    // A number read from JSON says itself the same either way.
    .map(([name, v]) => ({ name: cut(name, 100), value: cut(typeof v === 'string' ? v : JSON.stringify(v), 200) }));
}

// Stryker disable next-line EqualityOperator: a time of 0 is falsy where it is read, so it is left out either way
const time = (v: number | null | undefined) => (Number.isFinite(v) && v! > 0 ? v : undefined);

export function jobView(d: JobDetails, connectionLabel: string): JobView {
  const j = d.job;
  const suffix = j.user_provided_suffix ?? j.suffix ?? undefined;
  const error = j.error ? [j.error.message, j.error.code && `(${j.error.code})`].filter(Boolean).join(' ') : undefined;
  const shown = d.events.slice(0, EVENTS_SHOWN);
  return {
    id: j.id,
    connectionLabel: cut(connectionLabel, 500),
    status: cut(j.status, 50),
    final: JOB_FINAL.has(j.status),
    model: cut(j.model, 500),
    ...(j.fine_tuned_model ? { fineTunedModel: cut(j.fine_tuned_model, 500) } : {}),
    ...(suffix ? { suffix: cut(suffix, 100) } : {}),
    ...(typeof j.trained_tokens === 'number' ? { trainedTokens: j.trained_tokens } : {}),
    createdAt: j.created_at,
    ...(time(j.finished_at) ? { finishedAt: j.finished_at! } : {}),
    ...(time(j.estimated_finish) && !JOB_FINAL.has(j.status) ? { estimatedFinish: j.estimated_finish! } : {}),
    trainingFile: cut(j.training_file ?? '', 200),
    ...(j.validation_file ? { validationFile: cut(j.validation_file, 200) } : {}),
    ...(error ? { error: cut(error, 4000) } : {}),
    hyperparameters: hyperparameters(j),
    events: shown.map((e) => ({ at: typeof e.created_at === 'number' ? e.created_at : 0, level: cut(String(e.level ?? 'info'), 20), message: cut(String(e.message ?? ''), 4000) })),
    eventsLeftOut: d.events.length - shown.length,
    checkpoints: d.checkpoints
      .filter((c) => Number.isFinite(c.step_number))
      .slice(0, 500)
      .map((c) => ({
        step: c.step_number,
        model: cut(c.fine_tuned_model_checkpoint ?? c.id, 500),
        ...(typeof c.metrics?.train_loss === 'number' ? { trainLoss: c.metrics.train_loss } : {}),
        ...(typeof c.metrics?.valid_loss === 'number' ? { validLoss: c.metrics.valid_loss } : {}),
      })),
    points: lossCurve(d.events, d.checkpoints),
  };
}
