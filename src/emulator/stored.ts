/**
 * What the emulator keeps of each object it serves (responses, batches, fine-tuning jobs, calls):
 * plain shapes below both the state that holds them and the modules that run them, so neither
 * imports the other for its types.
 */
import type { EventLog } from './responses/eventLog';
import type { InputItem } from './responses/request';

export type Status = 'queued' | 'in_progress' | 'completed' | 'failed' | 'incomplete' | 'cancelled';

export interface StoredResponse {
  object: Record<string, unknown> & { id: string; status: Status; output: Array<Record<string, unknown>> };
  input: InputItem[];
  /** Every item of the conversation up to and including this response's output (for previous_response_id). */
  history: Array<Record<string, unknown>>;
  log: EventLog;
  deleted?: boolean;
}

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface BatchObject {
  id: string;
  object: 'batch';
  endpoint: string;
  model?: string;
  errors: { object: 'list'; data: BatchError[] } | null;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  };
  metadata: Record<string, string> | null;
}

export type Method = 'supervised' | 'dpo' | 'reinforcement';

export type JobStatus = 'validating_files' | 'queued' | 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled';

export type Hyper = Record<string, number | 'auto'>;

export interface FineTuningJob {
  id: string;
  object: 'fine_tuning.job';
  model: string;
  created_at: number;
  finished_at: number | null;
  estimated_finish: number | null;
  fine_tuned_model: string | null;
  error: { code: string; message: string; param: string | null } | null;
  organization_id: string;
  training_file: string;
  validation_file: string | null;
  result_files: string[];
  trained_tokens: number | null;
  seed: number;
  status: JobStatus;
  hyperparameters: Hyper;
  method: { type: Method } & Record<string, unknown>;
  integrations: unknown[] | null;
  metadata: Record<string, string> | null;
  suffix: string | null;
  user_provided_suffix: string | null;
}

export interface JobEvent {
  id: string;
  object: 'fine_tuning.job.event';
  created_at: number;
  level: 'info' | 'warn' | 'error';
  message: string;
  type: 'message' | 'metrics';
  data?: Record<string, unknown>;
}

export interface Checkpoint {
  id: string;
  object: 'fine_tuning.job.checkpoint';
  created_at: number;
  fine_tuned_model_checkpoint: string;
  fine_tuning_job_id: string;
  step_number: number;
  metrics: Record<string, number>;
}

/** The job with what the emulator keeps beside it (events and checkpoints, oldest first). */
export interface StoredJob {
  job: FineTuningJob;
  events: JobEvent[];
  checkpoints: Checkpoint[];
}

export type CallState = 'ringing' | 'accepted' | 'rejected' | 'referred' | 'ended';

export interface SipHeader {
  name: string;
  value: string;
}

export interface Call {
  call_id: string;
  state: CallState;
  from: string;
  to: string;
  sip_headers: SipHeader[];
  created_at: number;
  updated_at: number;
  /** Why it ended: the caller's side of it (no_answer, hangup), the reject's SIP status, the refer's target. */
  end_reason?: string;
  status_code?: number;
  target_uri?: string;
  /** The session the call was accepted with (its `model` is the realtime deployment). */
  session?: Record<string, unknown>;
}
