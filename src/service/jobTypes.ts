/**
 * Shapes of files, batches and fine-tuning jobs, and the reading that tolerates the variants the
 * service's own samples show (ISO timestamps, `"Validating"`, null counts, a list under `value`).
 */
import { ServiceError } from './errors';
import { isObj } from './shapes';

export interface FileObject {
  id: string;
  object: 'file';
  bytes: number | null;
  created_at: number;
  filename: string;
  purpose: string;
  status?: string;
  expires_at?: number | null;
}

export interface BatchRequestCounts {
  total: number;
  completed: number;
  failed: number;
}

export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface Batch {
  id: string;
  object: 'batch';
  endpoint: string | null;
  input_file_id: string;
  output_file_id: string | null;
  error_file_id: string | null;
  completion_window: string;
  status: BatchStatus;
  errors: { data: Array<{ code?: string; message?: string; param?: string | null; line?: number | null }> } | null;
  request_counts: BatchRequestCounts;
  metadata: Record<string, string> | null;
  /** The deployment the batch ran on (once validated), when the service says it. */
  model?: string | null;
  created_at: number;
  in_progress_at?: number | null;
  finalizing_at?: number | null;
  completed_at?: number | null;
  failed_at?: number | null;
  expired_at?: number | null;
  cancelling_at?: number | null;
  cancelled_at?: number | null;
  expires_at?: number | null;
}

export type FineTuningStatus = 'validating_files' | 'queued' | 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled';

export interface FineTuningJob {
  id: string;
  object: 'fine_tuning.job';
  model: string;
  status: FineTuningStatus | string;
  created_at: number;
  finished_at: number | null;
  fine_tuned_model: string | null;
  error: { code?: string; message?: string; param?: string | null } | null;
  training_file: string;
  validation_file: string | null;
  result_files: string[];
  trained_tokens: number | null;
  suffix?: string | null;
  user_provided_suffix?: string | null;
  hyperparameters?: Record<string, unknown>;
  metadata?: Record<string, string> | null;
  estimated_finish?: number | null;
}

export interface FineTuningEvent {
  id: string;
  object: 'fine_tuning.job.event';
  created_at: number;
  level: 'info' | 'warn' | 'error' | string;
  message: string;
  type?: 'message' | 'metrics' | string;
  data?: Record<string, unknown> | null;
}

export interface FineTuningCheckpoint {
  id: string;
  object: 'fine_tuning.job.checkpoint';
  created_at: number;
  fine_tuned_model_checkpoint: string;
  fine_tuning_job_id: string;
  step_number: number;
  metrics: Record<string, number | undefined>;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  /** The cursor for the next page (`after`), when there is one. */
  next?: string;
}

export const BATCH_FINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'expired', 'cancelled']);
export const JOB_FINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** Seconds since the epoch from a number or an ISO string (Azure's REST samples); null otherwise. */
export function seconds(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v) {
    const ms = Date.parse(v);
    if (!Number.isNaN(ms)) return Math.floor(ms / 1000);
  }
  return null;
}

const TIMES = ['created_at', 'in_progress_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at', 'cancelling_at', 'cancelled_at', 'expires_at', 'finished_at', 'estimated_finish'];

function invalid(host: string, what: string): ServiceError {
  return new ServiceError({ kind: 'invalid-response', host, serviceMessage: `expected ${what}` });
}

/** Timestamps as numbers, status in lower case, `""` ids as null. */
function tidy(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const k of TIMES) if (k in out) out[k] = seconds(out[k]);
  if (typeof out.status === 'string') out.status = out.status.toLowerCase();
  return out;
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const fileId = (v: unknown) => (typeof v === 'string' && v ? v : null);

export function toBatch(raw: unknown, host: string): Batch {
  if (!isObj(raw) || typeof raw.id !== 'string' || !raw.id) throw invalid(host, 'a batch object');
  const b = tidy(raw);
  const counts = isObj(raw.request_counts) ? raw.request_counts : {};
  const errors = isObj(raw.errors) && Array.isArray(raw.errors.data) ? (raw.errors as unknown as Batch['errors']) : null;
  return {
    ...(b as unknown as Batch),
    object: 'batch',
    input_file_id: fileId(raw.input_file_id) ?? '',
    output_file_id: fileId(raw.output_file_id),
    error_file_id: fileId(raw.error_file_id),
    endpoint: typeof raw.endpoint === 'string' ? raw.endpoint : null,
    errors,
    request_counts: { total: count(counts.total), completed: count(counts.completed), failed: count(counts.failed) },
    metadata: isObj(raw.metadata) ? (raw.metadata as Record<string, string>) : null,
    created_at: seconds(raw.created_at) ?? 0,
  };
}

export function toJob(raw: unknown, host: string): FineTuningJob {
  if (!isObj(raw) || typeof raw.id !== 'string' || !raw.id) throw invalid(host, 'a fine-tuning job object');
  const j = tidy(raw);
  return {
    ...(j as unknown as FineTuningJob),
    object: 'fine_tuning.job',
    // Older api-versions said `pending` for what is now `queued`.
    status: j.status === 'pending' ? 'queued' : String(j.status ?? ''),
    created_at: seconds(raw.created_at) ?? 0,
    finished_at: seconds(raw.finished_at),
    fine_tuned_model: fileId(raw.fine_tuned_model),
    error: isObj(raw.error) && (raw.error.code || raw.error.message) ? (raw.error as FineTuningJob['error']) : null,
    validation_file: fileId(raw.validation_file),
    result_files: Array.isArray(raw.result_files) ? raw.result_files.filter((f): f is string => typeof f === 'string') : [],
    trained_tokens: typeof raw.trained_tokens === 'number' ? raw.trained_tokens : null,
  };
}

export function toFile(raw: unknown, host: string): FileObject {
  if (!isObj(raw) || typeof raw.id !== 'string' || !raw.id) throw invalid(host, 'a file object');
  return { ...(tidy(raw) as unknown as FileObject), object: 'file', bytes: typeof raw.bytes === 'number' ? raw.bytes : null, created_at: seconds(raw.created_at) ?? 0 };
}

/**
 * A list page as `{data, has_more, last_id}` or, in Azure's samples, `{value}`; each item read by
 * `item`. The cursor is the last id, unless the service repeats the one we sent (no progress).
 */
export function toPage<T extends { id: string }>(raw: unknown, host: string, item: (x: unknown, host: string) => T, after?: string): Page<T> {
  const list = isObj(raw) ? (Array.isArray(raw.data) ? raw.data : raw.value) : undefined;
  if (!isObj(raw) || !Array.isArray(list)) throw invalid(host, 'a list with a data array');
  const data = list.map((x) => item(x, host));
  const last = (typeof raw.last_id === 'string' && raw.last_id) || data.at(-1)?.id;
  const hasMore = raw.has_more === true && !!last && last !== after;
  return hasMore ? { data, hasMore, next: last } : { data, hasMore: false };
}

export function pageQuery(params: { after?: string; limit?: number; extra?: Record<string, string | undefined> }): string {
  const q = new URLSearchParams();
  if (params.after) q.set('after', params.after);
  if (params.limit) q.set('limit', String(params.limit));
  for (const [k, v] of Object.entries(params.extra ?? {})) if (v) q.set(k, v);
  return q.size ? `?${q}` : '';
}
