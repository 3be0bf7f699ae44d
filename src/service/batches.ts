/** Batches on `/openai/v1/batches`: create, retrieve, list a page at a time, cancel. */
import * as l10n from '@vscode/l10n';
import { ServiceError } from './errors';
import type { HttpClient } from './http';
import { pageQuery, toBatch, toPage, type Batch, type Page } from './jobTypes';

export type BatchEndpoint = '/v1/chat/completions' | '/v1/responses' | '/chat/completions' | '/responses';

export interface BatchInput {
  input_file_id: string;
  endpoint: BatchEndpoint;
  /** The service takes `24h` only; anything else fails the batch. */
  completion_window?: '24h';
  metadata?: Record<string, string>;
}

export class BatchesApi {
  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
    private readonly host: string,
  ) {}

  private url(path = ''): string {
    return `${this.base}/batches${path}`;
  }

  /** Not sent twice: a second create would run the batch (and bill it) twice. */
  async create(input: BatchInput, signal?: AbortSignal): Promise<Batch> {
    try {
      return toBatch(await this.http.json({ method: 'POST', url: this.url(), body: { completion_window: '24h', ...input }, signal }), this.host);
    } catch (err) {
      if (!(err instanceof ServiceError && err.mayHaveActed)) throw err;
      throw err.withHint(l10n.t('The batch may have been created all the same: refresh the list of batches before creating it again.'));
    }
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<Batch> {
    return toBatch(await this.http.json({ method: 'GET', url: this.url(`/${encodeURIComponent(id)}`), signal }), this.host);
  }

  /** Newest first, `limit` (1–100) at a time; `after` is the previous page's `next`. */
  async list(params: { after?: string; limit?: number } = {}, signal?: AbortSignal): Promise<Page<Batch>> {
    return toPage(await this.http.json({ method: 'GET', url: this.url(pageQuery(params)), signal }), this.host, toBatch, params.after);
  }

  /** Cancelling twice is harmless, so this one may be retried. What finished is kept. */
  async cancel(id: string, signal?: AbortSignal): Promise<Batch> {
    return toBatch(await this.http.json({ method: 'POST', url: this.url(`/${encodeURIComponent(id)}/cancel`), signal, idempotent: true }), this.host);
  }
}
