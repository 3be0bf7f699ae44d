/**
 * Builds one trace from what the runner already reports (one RequestReport per request sent, each
 * tool call as it arrives) and what its caller adds (a tool's run, a delivery, a forward). The
 * runner is not changed: `observe` wraps a RunRequest's hooks. Spans cost a few object literals
 * per request; nothing here reads a prompt or a reply unless `captureContent` is on.
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
  onToolCall?: (call: CompletedToolCall) => void;
}

export class TraceBuilder {
  readonly traceId = newTraceId();
  private readonly root: TraceSpan;
  private readonly spans: TraceSpan[] = [];
  /** The last request's end, when it was a 429 (the wait runs from there to the next request). */
  private rateLimited?: { end: number; retryAfterMs?: number };
  private lastApi?: { api: string; failed: boolean };
  private lastRequest?: TraceSpan;

  constructor(
    private readonly kind: TraceKind,
    private readonly title: string,
    private readonly options: TraceOptions,
    start = Date.now(),
  ) {
    this.root = { spanId: newSpanId(), name: `${kind} ${title}`, kind: 'internal', start, end: start, attributes: {} };
  }

  /** The same request, its report and tool-call hooks also recording spans. */
  observe<R extends RunHooks>(request: R): R {
    const { onReport, onToolCall } = request;
    return {
      ...request,
      onReport: (report: RequestReport) => {
        this.request(report);
        onReport?.(report);
      },
      onToolCall: (call: CompletedToolCall) => {
        this.toolAsked(call);
        onToolCall?.(call);
      },
    };
  }

  /**
   * One request the runner sent: a client span, after the 429 wait that preceded it. On every
   * traced request's path: the common attributes are one literal with its keys written out (the
   * names of GEN_AI and AOAI), which V8 copies whole, where computed keys were added one by one.
   */
  request(r: RequestReport): void {
    const wait = this.rateLimited;
    if (wait && r.startedAt >= wait.end) {
      const attributes: Attributes = {};
      if (wait.retryAfterMs !== undefined) attributes[AOAI.retryAfterMs] = wait.retryAfterMs;
      this.add({ name: 'rate limit wait', kind: 'internal', start: wait.end, end: r.startedAt, attributes });
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
    if (this.options.server) {
      a[GEN_AI.serverAddress] = this.options.server.address;
      if (this.options.server.port !== undefined) a[GEN_AI.serverPort] = this.options.server.port;
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
    if (this.lastApi?.api === 'chat' && this.lastApi.failed && r.api === 'responses') a[AOAI.fallback] = true;
    const failed = r.outcome === 'failed' || r.outcome === 'rate_limited' || r.outcome === 'content_filter';
    const span = this.add({ name: `chat ${r.deployment}`, kind: 'client', start: r.startedAt, end: r.startedAt + r.totalMs, attributes: a });
    if (failed) {
      a[GEN_AI.errorType] = r.status !== undefined ? String(r.status) : r.outcome;
      span.error = r.outcome === 'rate_limited' ? 'rate limited (429)' : r.outcome === 'content_filter' ? 'content filter' : `failed${r.status ? ` (${r.status})` : ''}`;
    }
    this.rateLimited = r.outcome === 'rate_limited' ? { end: span.end, retryAfterMs: r.retryAfterMs } : undefined;
    this.lastApi = { api: r.api, failed };
    this.lastRequest = span;
  }

  /** When the model asked for each tool (made on the first: most turns ask for none). */
  private asked?: Map<string, number>;

  /** The model asked for a tool (the time it asked; the run comes with `tool`). */
  toolAsked(call: Pick<CompletedToolCall, 'callId'>): void {
    (this.asked ??= new Map()).set(call.callId, Date.now());
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
    const span = this.add({ name: `execute_tool ${call.name}`, kind: 'internal', start: run.start, end: run.end, attributes: a });
    if (run.error !== undefined) {
      a[GEN_AI.errorType] = 'tool_error';
      span.error = run.error;
    }
  }

  /** Any other step (a delivery received, a forward to the user's app, a batch's poll). */
  step(name: string, kind: SpanKind, start: number, end: number, attributes: Attributes = {}, error?: string): TraceSpan {
    const span = this.add({ name, kind, start, end, attributes });
    if (error !== undefined) span.error = error;
    return span;
  }

  /** Ends the trace: the last request learns the reply's id and finish reason; content only when asked for. */
  finish(end: { result?: RunResult; error?: unknown; input?: unknown } = {}, at = Date.now()): Trace {
    const { result } = end;
    const last = this.lastRequest;
    if (last && result) {
      if (result.responseId) last.attributes[GEN_AI.responseId] = result.responseId;
      if (result.finishReason) last.attributes[GEN_AI.finishReasons] = [result.finishReason];
      if (this.options.captureContent) last.attributes[GEN_AI.outputMessages] = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.content }] }]);
    }
    if (last && this.options.captureContent && end.input !== undefined) last.attributes[GEN_AI.inputMessages] = JSON.stringify(end.input);
    const root = this.root;
    let latest = at;
    for (const s of this.spans) if (s.end > latest) latest = s.end;
    root.end = latest;
    root.attributes[GEN_AI.operation] = this.kind === 'turn' ? 'chat' : this.kind;
    if (end.error !== undefined) {
      root.error = end.error instanceof Error ? end.error.message : String(end.error);
      root.attributes[GEN_AI.errorType] = end.error instanceof Error ? end.error.name : 'error';
    }
    return { traceId: this.traceId, kind: this.kind, title: this.title, start: root.start, end: root.end, spans: [root, ...this.spans] };
  }

  private add(s: Omit<TraceSpan, 'spanId' | 'parentSpanId'>): TraceSpan {
    // Written out, not spread: every span has one shape.
    const { name, kind, start, end, attributes } = s;
    const span: TraceSpan = { spanId: newSpanId(), parentSpanId: this.root.spanId, name, kind, start, end, attributes };
    this.spans.push(span);
    return span;
  }
}
