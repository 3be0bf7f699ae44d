/** The data-plane client of one resource: chat, responses, webhook endpoints, deployments. */
import * as l10n from '@vscode/l10n';
import { readChatStream } from './chatStream';
import { DEFAULT_API_VERSION, normalizeEndpoint, type ConnectionOptions } from './connection';
import { ServiceError } from './errors';
import { HttpClient, type HttpRequest } from './http';
import { JobsApi } from './jobs';
import { pageQuery } from './jobTypes';
import { readResponseStream } from './responsesStream';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatRequest,
  ChatRoute,
  CreatedWebhookEndpoint,
  Deployment,
  ListPage,
  ResponseObject,
  ResponseRequest,
  ResponseStreamEvent,
  WebhookEndpoint,
  WebhookEndpointInput,
} from './types';

export interface CallOptions {
  signal?: AbortSignal;
  /** Hears the status and headers of each answer (see HttpRequest.onHeaders). */
  onHeaders?: HttpRequest['onHeaders'];
}

export interface ChatOptions extends CallOptions {
  /** `v1` (default): deployment in `model`; `deployment`: in the path, with api-version. */
  route?: ChatRoute;
  /** api-version for the deployment route, instead of the connection's. */
  apiVersion?: string;
  /** False: report a 429 at once instead of waiting inside the client. */
  retryRateLimits?: boolean;
}

export interface ResponseOptions extends CallOptions {
  /** False: report a 429 at once instead of waiting inside the client. */
  retryRateLimits?: boolean;
}

/** The api-version that still serves the legacy deployments list. */
const LEGACY_DEPLOYMENTS_API_VERSION = '2022-12-01';
/** A bound on pages followed, so a service that always says `has_more` cannot loop us forever. */
const MAX_PAGES = 1000;

export class AzureOpenAIClient {
  readonly endpoint: string;
  readonly host: string;
  readonly apiVersion: string;
  private readonly http: HttpClient;

  constructor(options: ConnectionOptions) {
    this.endpoint = normalizeEndpoint(options.endpoint);
    this.host = new URL(this.endpoint).host;
    this.apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
    this.http = new HttpClient(options.auth, options.timeouts, options.retry, options.proxy);
  }

  private v1(path: string): string {
    return `${this.endpoint}/openai/v1${path}`;
  }

  private chatTarget(req: ChatRequest, route: ChatRoute, apiVersion = this.apiVersion): { url: string; body: Record<string, unknown> } {
    const { deployment, ...rest } = req;
    if (route === 'deployment') {
      const url = `${this.endpoint}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(apiVersion)}`;
      return { url, body: rest };
    }
    return { url: this.v1('/chat/completions'), body: { model: deployment, ...rest } };
  }

  // ---- chat -------------------------------------------------------------------------------

  async createChatCompletion(req: ChatRequest, options: ChatOptions = {}): Promise<ChatCompletion> {
    const { url, body } = this.chatTarget(req, options.route ?? 'v1', options.apiVersion);
    const { signal, retryRateLimits } = options;
    const res = await this.http.json<ChatCompletion>({ method: 'POST', url, body: { ...body, stream: false }, signal, deployment: req.deployment, retryRateLimits });
    if (!res || !Array.isArray(res.choices)) throw new ServiceError({ kind: 'invalid-response', host: this.host, serviceMessage: 'no choices in the chat completion' });
    return res;
  }

  /**
   * Streams chunks as they arrive. Breaking out of the loop or aborting the signal closes the
   * socket at once; nothing is retried once the first byte has arrived.
   */
  async *streamChatCompletion(req: ChatRequest, options: ChatOptions = {}): AsyncGenerator<ChatCompletionChunk> {
    const { url, body } = this.chatTarget(req, options.route ?? 'v1', options.apiVersion);
    const { signal, retryRateLimits, onHeaders } = options;
    const res = await this.http.stream({ method: 'POST', url, body: { ...body, stream: true }, signal, deployment: req.deployment, retryRateLimits, onHeaders });
    yield* this.read(res.body, readChatStream, options);
  }

  // ---- responses --------------------------------------------------------------------------

  createResponse(params: ResponseRequest, options: ResponseOptions = {}): Promise<ResponseObject> {
    const { signal, retryRateLimits, onHeaders } = options;
    return this.http.json<ResponseObject>({ method: 'POST', url: this.v1('/responses'), body: { ...params, stream: false }, signal, deployment: params.model, retryRateLimits, onHeaders });
  }

  /**
   * Streams a new response's events. Breaking out or aborting closes the socket at once; nothing is
   * retried once the first byte has arrived (a background response can be resumed instead).
   */
  async *streamResponse(params: ResponseRequest, options: ResponseOptions = {}): AsyncGenerator<ResponseStreamEvent> {
    const { signal, retryRateLimits, onHeaders } = options;
    const res = await this.http.stream({ method: 'POST', url: this.v1('/responses'), body: { ...params, stream: true }, signal, deployment: params.model, retryRateLimits, onHeaders });
    yield* this.read(res.body, readResponseStream, options);
  }

  private async *read<T>(
    body: Awaited<ReturnType<HttpClient['stream']>>['body'],
    reader: (body: AsyncIterable<Uint8Array | string>, host: string) => AsyncGenerator<T>,
    options: CallOptions,
  ): AsyncGenerator<T> {
    let finished = false;
    try {
      yield* reader(body, this.host);
      finished = true;
    } catch (cause) {
      throw cause instanceof ServiceError ? cause : this.http.toError(cause, this.host, options);
    } finally {
      // Stopped early (break, abort, error): drop the connection rather than drain it.
      if (!finished) body.destroy();
    }
  }

  getResponse(id: string, options: CallOptions = {}): Promise<ResponseObject> {
    return this.http.json<ResponseObject>({ method: 'GET', url: this.v1(`/responses/${encodeURIComponent(id)}`), signal: options.signal });
  }

  cancelResponse(id: string, options: CallOptions = {}): Promise<ResponseObject> {
    // Cancelling is documented as idempotent: safe to retry.
    return this.http.json<ResponseObject>({ method: 'POST', url: this.v1(`/responses/${encodeURIComponent(id)}/cancel`), signal: options.signal, idempotent: true });
  }

  // ---- webhook endpoints ------------------------------------------------------------------

  private webhooks(path = ''): string {
    return this.v1(`/dashboard/webhook_endpoints${path}`);
  }

  /** The answer carries `signing_secret`: the only time the service ever shows it. */
  async createWebhookEndpoint(input: WebhookEndpointInput, options: CallOptions = {}): Promise<CreatedWebhookEndpoint> {
    try {
      const created = await this.http.json<CreatedWebhookEndpoint>({ method: 'POST', url: this.webhooks(), body: input, signal: options.signal });
      return checkEndpoint(created, this.host);
    } catch (err) {
      // Not sent again (a second create makes a second endpoint): the first may exist all the same.
      if (!(err instanceof ServiceError && err.mayHaveActed)) throw err;
      throw err.withHint(l10n.t('The endpoint may have been created all the same: refresh the list of webhook endpoints and look for it before creating it again.'));
    }
  }

  async listWebhookEndpointsPage(params: { after?: string; limit?: number } = {}, options: CallOptions = {}): Promise<ListPage<WebhookEndpoint>> {
    const page = await this.http.json<ListPage<WebhookEndpoint> | WebhookEndpoint[]>({ method: 'GET', url: this.webhooks(pageQuery(params)), signal: options.signal });
    // Accept a bare array too: the list shape is not documented for Azure.
    if (Array.isArray(page)) return { object: 'list', data: page.map((e) => checkEndpoint(e, this.host)), has_more: false };
    if (!page || !Array.isArray(page.data)) throw new ServiceError({ kind: 'invalid-response', host: this.host, serviceMessage: 'the webhook endpoint list has no data array' });
    return { ...page, data: page.data.map((e) => checkEndpoint(e, this.host)), has_more: page.has_more === true };
  }

  /** Every page, following `after` while `has_more`. */
  async *listWebhookEndpoints(options: CallOptions & { pageSize?: number } = {}): AsyncGenerator<WebhookEndpoint> {
    let after: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await this.listWebhookEndpointsPage({ after, limit: options.pageSize ?? 100 }, options);
      yield* page.data;
      const last = page.last_id ?? page.data.at(-1)?.id;
      if (!page.has_more || !last || last === after) return;
      after = last;
    }
  }

  async updateWebhookEndpoint(id: string, changes: Partial<WebhookEndpointInput>, options: CallOptions = {}): Promise<WebhookEndpoint> {
    const res = await this.http.json<WebhookEndpoint>({ method: 'POST', url: this.webhooks(`/${encodeURIComponent(id)}`), body: changes, signal: options.signal });
    return checkEndpoint(res, this.host);
  }

  async deleteWebhookEndpoint(id: string, options: CallOptions = {}): Promise<void> {
    await this.http.json<unknown>({ method: 'DELETE', url: this.webhooks(`/${encodeURIComponent(id)}`), signal: options.signal });
  }

  /** Asks the service to send a test event (OpenAI's route; the emulator has it, Azure may not). */
  testWebhookEndpoint(id: string, eventType: string, options: CallOptions = {}): Promise<{ status_code?: number | null; success?: boolean }> {
    return this.http.json({ method: 'POST', url: this.webhooks(`/${encodeURIComponent(id)}/test`), body: { event_type: eventType }, signal: options.signal });
  }

  // ---- deployments ------------------------------------------------------------------------

  /** The data-plane deployments list (only older api-versions still serve it). */
  async listDataPlaneDeployments(options: CallOptions = {}): Promise<Deployment[]> {
    const url = `${this.endpoint}/openai/deployments?api-version=${LEGACY_DEPLOYMENTS_API_VERSION}`;
    const res = await this.http.json<{ data?: LegacyDeployment[] }>({ method: 'GET', url, signal: options.signal });
    if (!res || !Array.isArray(res.data)) throw new ServiceError({ kind: 'invalid-response', host: this.host, serviceMessage: 'the deployments list has no data array' });
    return res.data.map(fromLegacy);
  }

  /** Models the resource offers (`GET /openai/v1/models`): names to try, not deployments. */
  async listModels(options: CallOptions = {}): Promise<Deployment[]> {
    const res = await this.http.json<{ data?: Array<{ id: string }> }>({ method: 'GET', url: this.v1('/models'), signal: options.signal });
    if (!res || !Array.isArray(res.data)) throw new ServiceError({ kind: 'invalid-response', host: this.host, serviceMessage: 'the models list has no data array' });
    return res.data.map((m) => ({ name: m.id, model: m.id, source: 'models' as const }));
  }

  /**
   * Deployments with only the resource's own credentials: the data-plane list where the service
   * still serves it, else the v1 models list. Resource Manager (see `ArmClient`) gives more detail.
   */
  async listDeployments(options: CallOptions = {}): Promise<Deployment[]> {
    try {
      return await this.listDataPlaneDeployments(options);
    } catch (err) {
      if (err instanceof ServiceError && (err.status === 404 || err.status === 400)) return this.listModels(options);
      throw err;
    }
  }

  /** Files, batches, fine-tuning jobs and incoming calls (src/service/jobs.ts). */
  get jobs(): JobsApi {
    return new JobsApi(this.http, this.v1(''), this.host);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

interface LegacyDeployment {
  id: string;
  model: string;
  status?: string;
  scale_settings?: { scale_type?: string; capacity?: number };
}

function fromLegacy(d: LegacyDeployment): Deployment {
  return {
    name: d.id,
    model: d.model,
    sku: d.scale_settings?.scale_type,
    capacity: d.scale_settings?.capacity,
    provisioningState: d.status,
    source: 'data-plane',
  };
}

function checkEndpoint<T extends WebhookEndpoint>(e: T, host: string): T {
  if (!e || typeof e !== 'object' || typeof e.id !== 'string' || (e.object !== 'webhook.endpoint' && e.object !== 'webhook_endpoint')) {
    throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: 'expected a webhook endpoint object' });
  }
  return { ...e, event_types: Array.isArray(e.event_types) ? e.event_types : [] };
}
