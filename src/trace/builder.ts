/**
 * Builds one trace from what the runner already reports (one RequestReport per request sent, each
 * tool call as it arrives) and what its caller adds (a tool's run, a delivery, a forward). The
 * runner is not changed: `observe` wraps a RunRequest's hooks. On the request's path a report is
 * only kept (a push): the spans, their GenAI attributes and ids are made when the trace is built
 * (`end` returns the building, which the store runs after the caller's turn). Nothing here reads a
 * prompt or a reply unless `captureContent` is on.
 */
import type { RequestReport } from '../chat/engine/report';
import type { RunResult } from '../chat/engine/result';
import type { CompletedToolCall } from '../chat/engine/toolCalls';
import { AOAI, AZURE_OPENAI, GEN_AI, newSpanId, newTraceId, type Attributes, type SpanKind, type Trace, type TraceKind, type TraceSpan } from './span';

export interface TraceOptions {
  /** The user's setting: prompts and replies go into the spans (gen_ai.input/output.messages). */
  captureContent: boolean;
  /** The service's host and port, for server.address / server.port. */
  server?: { address: string; port?: number };
}

interface RunHooks {
  onReport?: (report: RequestReport) => void;
}

/** How a trace ended: the run's result or error, and (captured content only) what was asked. */
export interface TraceEnd {
  result?: RunResult;
  error?: unknown;
  input?: unknown;
}

/** A report kept as the runner gave it (its span is made when the trace is built); a span made by a caller. */
type Part = RequestReport | TraceSpan;
const isReport = (p: Part): p is RequestReport => 'totalMs' in p;

/** The next trace's id, drawn when a trace is built (after its caller's turn), not on the next request's path. */
let nextTraceId: string | undefined;

export class TraceBuilder {
  readonly traceId = nextTraceId ?? newTraceId();
  /** In the order they happened: a span's place in the trace is the order it started. */
  private readonly parts: Part[] = [];
  private rootSpanId?: string;

  constructor(
    private readonly kind: TraceKind,
    private readonly title: string,
    private readonly options: TraceOptions,
    private readonly start = Date.now(),
  ) {
    nextTraceId = undefined;
  }

  /** Made when first needed: a turn's spans are made only when its trace is built. */
  private get rootId(): string {
    return (this.rootSpanId ??= newSpanId());
  }

  /** The same request, its report hook also recording spans (a tool's span comes with `tool`). */
  observe<R extends RunHooks>(request: R): R {
    const { onReport } = request;
    return {
      ...request,
      onReport: (report: RequestReport) => {
        this.parts.push(report);
        onReport?.(report);
      },
    };
  }

  /** One request the runner sent (a report it no longer changes): its span is made when the trace is built. */
  request(r: RequestReport): void {
    this.parts.push(r);
  }

  /** A tool ran: its span holds the result's size, never the result (unless content is captured). */
  tool(call: Pick<CompletedToolCall, 'callId' | 'name'>, run: { start: number; end: number; resultBytes: number; error?: string; result?: string }): void {
    const a: Attributes = {
      [GEN_AI.operation]: 'execute_tool',
      [GEN_AI.toolName]: call.name,
      [GEN_AI.toolCallId]: call.callId,
      [GEN_AI.toolType]: 'function',
      [AOAI.resultBytes]: run.resultBytes,
    };
    if (this.options.captureContent && run.result !== undefined) a['gen_ai.tool.call.result'] = run.result;
    const span = this.step(`execute_tool ${call.name}`, 'internal', run.start, run.end, a);
    if (run.error !== undefined) {
      a[GEN_AI.errorType] = 'tool_error';
      span.error = run.error;
    }
  }

  /** Any other step (a delivery received, a forward to the user's app, a batch's poll). */
  step(name: string, kind: SpanKind, start: number, end: number, attributes: Attributes = {}, error?: string): TraceSpan {
    const span: TraceSpan = { spanId: newSpanId(), parentSpanId: this.rootId, name, kind, start, end, attributes };
    if (error !== undefined) span.error = error;
    this.parts.push(span);
    return span;
  }

  /**
   * Ends the trace at `at`, and returns its building (once; the same trace after). What must be
   * read now is: the time, and captured content (the caller may change its messages after).
   */
  end(end: TraceEnd = {}, at = Date.now()): () => Trace {
    const { result, error } = end;
    let input: string | undefined;
    let output: string | undefined;
    if (this.options.captureContent) {
      if (end.input !== undefined) input = JSON.stringify(end.input);
      if (result) output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.content }] }]);
    }
    let built: Trace | undefined;
    return () => (built ??= this.build(at, result, error, input, output));
  }

  /** Ends the trace and builds it now. */
  finish(end: TraceEnd = {}, at = Date.now()): Trace {
    return this.end(end, at)();
  }

  /** The spans of the parts, in their order; the last request learns the reply's id and finish reason. */
  private build(at: number, result: RunResult | undefined, error: unknown, input?: string, output?: string): Trace {
    nextTraceId ??= newTraceId();
    const { kind, title, start } = this;
    const root: TraceSpan = { spanId: this.rootId, name: `${kind} ${title}`, kind: 'internal', start, end: start, attributes: {} };
    const spans = [root];
    let last: TraceSpan | undefined;
    let previous: RequestReport | undefined;
    for (const p of this.parts) {
      if (!isReport(p)) spans.push(p);
      else {
        last = this.requestSpan(p, previous, spans);
        previous = p;
      }
    }
    if (last && result) {
      if (result.responseId) last.attributes[GEN_AI.responseId] = result.responseId;
      if (result.finishReason) last.attributes[GEN_AI.finishReasons] = [result.finishReason];
      if (output !== undefined) last.attributes[GEN_AI.outputMessages] = output;
    }
    if (last && input !== undefined) last.attributes[GEN_AI.inputMessages] = input;
    let latest = at;
    for (let i = 1; i < spans.length; i++) if (spans[i].end > latest) latest = spans[i].end;
    root.end = latest;
    root.attributes[GEN_AI.operation] = kind === 'turn' ? 'chat' : kind;
    if (error !== undefined) {
      root.error = error instanceof Error ? error.message : String(error);
      root.attributes[GEN_AI.errorType] = error instanceof Error ? error.name : 'error';
    }
    return { traceId: this.traceId, kind, title, start, end: latest, spans };
  }

  /**
   * One request the runner sent: a client span, after the 429 wait that preceded it (`previous`,
   * the request before). The common attributes are one literal with its keys written out (the
   * names of GEN_AI and AOAI), which V8 copies whole, where computed keys were added one by one.
   */
  private requestSpan(r: RequestReport, previous: RequestReport | undefined, spans: TraceSpan[]): TraceSpan {
    const parentSpanId = this.rootId;
    if (previous?.outcome === 'rate_limited') {
      const waitStart = previous.startedAt + previous.totalMs;
      if (r.startedAt >= waitStart) {
        const attributes: Attributes = {};
        if (previous.retryAfterMs !== undefined) attributes[AOAI.retryAfterMs] = previous.retryAfterMs;
        spans.push({ spanId: newSpanId(), parentSpanId, name: 'rate limit wait', kind: 'internal', start: waitStart, end: r.startedAt, attributes });
      }
    }
    const a: Attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': AZURE_OPENAI,
      'gen_ai.request.model': r.deployment,
      'aoai_workbench.deployment': r.deployment,
      'aoai_workbench.api': r.api,
      'aoai_workbench.attempt': r.attempt,
      'aoai_workbench.outcome': r.outcome,
    };
    if (r.model) a[GEN_AI.responseModel] = r.model;
    const server = this.options.server;
    if (server) {
      a[GEN_AI.serverAddress] = server.address;
      if (server.port !== undefined) a[GEN_AI.serverPort] = server.port;
    }
    if (r.tokens) {
      a[GEN_AI.inputTokens] = r.tokens.prompt;
      a[GEN_AI.outputTokens] = r.tokens.completion;
      if (r.tokens.cached) a[GEN_AI.cachedInputTokens] = r.tokens.cached;
      if (r.tokens.reasoning) a[AOAI.reasoningTokens] = r.tokens.reasoning;
    }
    if (r.firstTokenMs !== undefined) a[AOAI.firstTokenMs] = r.firstTokenMs;
    if (r.status !== undefined) a[GEN_AI.httpStatus] = r.status;
    if (r.retryAfterMs !== undefined) a[AOAI.retryAfterMs] = r.retryAfterMs;
    // The Responses API answering after Chat Completions refused the deployment.
    if (previous?.api === 'chat' && failedOutcome(previous) && r.api === 'responses') a[AOAI.fallback] = true;
    const span: TraceSpan = { spanId: newSpanId(), parentSpanId, name: `chat ${r.deployment}`, kind: 'client', start: r.startedAt, end: r.startedAt + r.totalMs, attributes: a };
    if (failedOutcome(r)) {
      a[GEN_AI.errorType] = r.status !== undefined ? String(r.status) : r.outcome;
      span.error = r.outcome === 'rate_limited' ? 'rate limited (429)' : r.outcome === 'content_filter' ? 'content filter' : `failed${r.status ? ` (${r.status})` : ''}`;
    }
    spans.push(span);
    return span;
  }
}

const failedOutcome = (r: RequestReport): boolean => r.outcome === 'failed' || r.outcome === 'rate_limited' || r.outcome === 'content_filter';
