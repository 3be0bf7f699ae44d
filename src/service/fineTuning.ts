/** Fine-tuning jobs on `/openai/v1/fine_tuning/jobs`: create, read, list, events, checkpoints, cancel, pause, resume. */
import * as l10n from '@vscode/l10n';
import { ServiceError } from './errors';
import type { HttpClient } from './http';
import { pageQuery, toJob, toPage, type FineTuningCheckpoint, type FineTuningEvent, type FineTuningJob, type Page } from './jobTypes';

export type Hyperparameter = number | 'auto';

export interface FineTuningInput {
  /** A base model with its version, e.g. `gpt-4.1-mini-2025-04-14`, or an earlier fine-tuned model. */
  model: string;
  training_file: string;
  validation_file?: string;
  suffix?: string;
  seed?: number;
  hyperparameters?: { n_epochs?: Hyperparameter; batch_size?: Hyperparameter; learning_rate_multiplier?: Hyperparameter };
  method?: Record<string, unknown>;
  metadata?: Record<string, string>;
}

function item<T extends { id: string }>(what: string) {
  return (raw: unknown, host: string): T => {
    // Anything but an object with a string id (null, a string, a number) is refused alike.
    if (typeof (raw as { id?: unknown } | null | undefined)?.id !== 'string') {
      throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: `expected ${what}` });
    }
    return raw as T;
  };
}
const toEvent = item<FineTuningEvent>('a fine-tuning event');
const toCheckpoint = item<FineTuningCheckpoint>('a fine-tuning checkpoint');

export class FineTuningApi {
  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
    private readonly host: string,
  ) {}

  private url(path = ''): string {
    return `${this.base}/fine_tuning/jobs${path}`;
  }

  private job(id: string, action = ''): string {
    return this.url(`/${encodeURIComponent(id)}${action}`);
  }

  /** Not sent twice: a second create would train (and bill) a second model. */
  async create(input: FineTuningInput, signal?: AbortSignal): Promise<FineTuningJob> {
    try {
      return toJob(await this.http.json({ method: 'POST', url: this.url(), body: input, signal }), this.host);
    } catch (err) {
      if (!(err instanceof ServiceError && err.mayHaveActed)) throw err;
      throw err.withHint(l10n.t('The job may have been created all the same: refresh the list of fine-tuning jobs before creating it again.'));
    }
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<FineTuningJob> {
    return toJob(await this.http.json({ method: 'GET', url: this.job(id), signal }), this.host);
  }

  async list(params: { after?: string; limit?: number } = {}, signal?: AbortSignal): Promise<Page<FineTuningJob>> {
    return toPage(await this.http.json({ method: 'GET', url: this.url(pageQuery(params)), signal }), this.host, toJob, params.after);
  }

  /** Newest first, as the service lists them. */
  async events(id: string, params: { after?: string; limit?: number } = {}, signal?: AbortSignal): Promise<Page<FineTuningEvent>> {
    return toPage(await this.http.json({ method: 'GET', url: this.job(id, `/events${pageQuery(params)}`), signal }), this.host, toEvent, params.after);
  }

  async checkpoints(id: string, params: { after?: string; limit?: number } = {}, signal?: AbortSignal): Promise<Page<FineTuningCheckpoint>> {
    return toPage(await this.http.json({ method: 'GET', url: this.job(id, `/checkpoints${pageQuery(params)}`), signal }), this.host, toCheckpoint, params.after);
  }

  /** Cancel, pause and resume ask for a state, so asking twice is harmless: these may be retried. */
  async cancel(id: string, signal?: AbortSignal): Promise<FineTuningJob> {
    return this.act(id, '/cancel', signal);
  }

  async pause(id: string, signal?: AbortSignal): Promise<FineTuningJob> {
    return this.act(id, '/pause', signal);
  }

  async resume(id: string, signal?: AbortSignal): Promise<FineTuningJob> {
    return this.act(id, '/resume', signal);
  }

  private async act(id: string, action: string, signal?: AbortSignal): Promise<FineTuningJob> {
    return toJob(await this.http.json({ method: 'POST', url: this.job(id, action), signal, idempotent: true }), this.host);
  }
}
