/**
 * A background response's trace: its creation (one request, never retried), each status it was
 * seen in while followed, the webhook delivery that ended the wait (a `response.*` delivery after
 * which the next look found it final) and that delivery's forward to the user's app, then the
 * answer's figures. Fed by the panel's follower; nothing here sends a request.
 */
import type { ResponseObject } from '../service/types';
import { FINAL_STATUSES } from '../chat/model';
import { TraceBuilder, type TraceOptions } from './builder';
import { AOAI, AZURE_OPENAI, GEN_AI, type Attributes, type Trace } from './span';

/** The workbench's attributes of a delivery and its forward (no convention has them). */
export const DELIVERY = {
  id: 'aoai_workbench.delivery.id',
  eventType: 'aoai_workbench.delivery.event_type',
  webhookId: 'aoai_workbench.delivery.webhook_id',
  endedWait: 'aoai_workbench.delivery.ended_wait',
  route: 'aoai_workbench.forward.route',
  forwardError: 'aoai_workbench.forward.error',
} as const;

/** A delivery as the follower hears of it (the events store's record, the part a trace needs). */
export interface WakingRecord {
  id: string;
  receivedAt: number;
  eventType?: string;
  webhookId?: string;
}

/** The app's answer to a delivery's forward (the events store's ForwardResult, the part a trace needs). */
export interface ForwardAnswer {
  url: string;
  at?: number;
  durationMs: number;
  status?: number;
  route?: string;
  error?: string;
}

/** How long a finished background trace waits for the waking delivery's forward to be answered. */
export const FORWARD_WAIT_MS = 15_000;

/**
 * The app's answer to a delivery's forward, once the events' owner has it (it fires onDidUpdate
 * with the record's id); undefined after `ms` (no forward made, or none answered yet).
 */
export function forwardOf(
  events: { get(id: string): { forward?: ForwardAnswer } | undefined; onDidUpdate(listener: (id: string) => void): { dispose(): void } },
  id: string,
  ms = FORWARD_WAIT_MS,
): Promise<ForwardAnswer | undefined> {
  const now = events.get(id)?.forward;
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (f: ForwardAnswer | undefined) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(f);
    };
    const sub = events.onDidUpdate((updated) => {
      const f = updated === id ? events.get(id)?.forward : undefined;
      if (f) done(f);
    });
    const timer = setTimeout(() => done(undefined), ms);
  });
}

export class BackgroundTrace {
  private readonly builder: TraceBuilder;
  private seen?: { status: string; since: number };
  /** The latest delivery heard since the last look. */
  private woken?: WakingRecord;
  /** The delivery after which the response was found final. */
  endedBy?: WakingRecord;
  private ended?: Trace;

  constructor(
    private readonly deployment: string,
    options: TraceOptions,
    start = Date.now(),
  ) {
    this.builder = new TraceBuilder('background', deployment, options, start);
  }

  get traceId(): string {
    return this.builder.traceId;
  }

  /** The request that created the response (or failed to). */
  created(start: number, end: number, r: Pick<ResponseObject, 'id' | 'status' | 'model'> | undefined, error?: unknown): void {
    const a: Attributes = { [GEN_AI.operation]: 'chat', [GEN_AI.provider]: AZURE_OPENAI, [GEN_AI.requestModel]: this.deployment, [AOAI.api]: 'responses' };
    if (r) Object.assign(a, { [GEN_AI.responseId]: r.id, [GEN_AI.responseModel]: r.model, 'aoai_workbench.response.status': r.status });
    const why = error === undefined ? undefined : error instanceof Error ? error.message : String(error);
    this.builder.step(`create response ${this.deployment}`, 'client', start, end, a, why);
  }

  /** A delivery about this response arrived (the follower looks at once). */
  wake(record: WakingRecord): void {
    this.woken = record;
  }

  /** A look found the response in `status`: a new status starts a span; a final one names the delivery that woke the look. */
  saw(status: string, at = Date.now()): void {
    if (status !== this.seen?.status) {
      this.closeSeen(at);
      this.seen = { status, since: at };
    }
    if (FINAL_STATUSES.has(status)) this.endedBy ??= this.woken;
    this.woken = undefined;
  }

  /** Ends the trace with the response as it ended (or the error), and the forward of the delivery that ended the wait. */
  finish(r: ResponseObject | undefined, end: { error?: unknown; forward?: ForwardAnswer }, at = Date.now()): Trace {
    if (this.ended) return this.ended;
    this.closeSeen(at);
    const d = this.endedBy;
    if (d) {
      const a: Attributes = { [DELIVERY.id]: d.id, [DELIVERY.endedWait]: true };
      if (d.eventType) a[DELIVERY.eventType] = d.eventType;
      if (d.webhookId) a[DELIVERY.webhookId] = d.webhookId;
      this.builder.step(`webhook ${d.eventType ?? 'delivery'}`, 'server', d.receivedAt, d.receivedAt, a);
      const f = end.forward;
      if (f) {
        const fa: Attributes = { 'url.full': f.url, [DELIVERY.id]: d.id };
        if (f.status !== undefined) fa[GEN_AI.httpStatus] = f.status;
        if (f.route) fa[DELIVERY.route] = f.route;
        if (f.error) fa[DELIVERY.forwardError] = f.error;
        const failed = f.status === undefined || f.status < 200 || f.status > 299;
        const start = f.at ?? d.receivedAt;
        this.builder.step('forward to app', 'client', start, start + f.durationMs, fa, failed ? (f.error ?? `the app answered ${f.status}`) : undefined);
      }
    }
    const trace = this.builder.finish({ error: end.error ?? (r?.status === 'failed' ? new Error(r.error?.message ?? 'the response failed') : undefined) }, at);
    const root = trace.spans[0].attributes;
    if (r) {
      root[GEN_AI.responseId] = r.id;
      root['aoai_workbench.response.status'] = r.status;
      if (r.model) root[GEN_AI.responseModel] = r.model;
      if (r.usage) {
        root[GEN_AI.inputTokens] = r.usage.input_tokens;
        root[GEN_AI.outputTokens] = r.usage.output_tokens;
        const cached = (r.usage as { input_tokens_details?: { cached_tokens?: number } }).input_tokens_details?.cached_tokens;
        if (cached) root[GEN_AI.cachedInputTokens] = cached;
      }
    }
    root['aoai_workbench.response.ended_by'] = d ? 'webhook' : 'poll';
    return (this.ended = trace);
  }

  private closeSeen(at: number): void {
    if (!this.seen) return;
    this.builder.step(`response ${this.seen.status}`, 'internal', this.seen.since, at, { 'aoai_workbench.response.status': this.seen.status });
    this.seen = undefined;
  }
}
