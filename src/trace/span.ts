/**
 * A trace as the workbench keeps it: plain data (JSON on disk, posted to the timeline page,
 * turned into OTLP spans by the exporter). Times are milliseconds since the epoch; ids are the
 * hex lengths OTLP takes (32 for a trace, 16 for a span). Attributes follow OpenTelemetry's GenAI
 * semantic conventions (gen_ai.*) and carry names, counts, times and statuses: a prompt or a reply
 * only when the user's setting asks for it (TraceOptions.captureContent).
 */
import { randomBytes } from 'node:crypto';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** OTLP's span kinds that the workbench uses: a request to the service, work of its own, a delivery received. */
export type SpanKind = 'client' | 'internal' | 'server';

export interface TraceSpan {
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  start: number;
  end: number;
  /** An error span says what went wrong in words (`error.type` holds its class). */
  error?: string;
  attributes: Attributes;
}

/** What a trace is of: a chat turn, a Compare run, a batch, a background response. */
export type TraceKind = 'turn' | 'compare' | 'batch' | 'background';

export interface Trace {
  traceId: string;
  kind: TraceKind;
  /** Names only (the deployment, the batch's id): never the prompt. */
  title: string;
  start: number;
  end: number;
  /** The root span first, the others in the order they started. */
  spans: TraceSpan[];
}

export const newTraceId = (): string => randomBytes(16).toString('hex');
export const newSpanId = (): string => randomBytes(8).toString('hex');

/** The GenAI conventions' attribute names the workbench writes (semantic-conventions, gen-ai spans). */
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  httpStatus: 'http.response.status_code',
} as const;

/** The provider name the conventions give Azure OpenAI. */
export const AZURE_OPENAI = 'azure.ai.openai';

/** The workbench's own attributes, under its namespace (the conventions have none for these). */
export const AOAI = {
  api: 'aoai_workbench.api',
  attempt: 'aoai_workbench.attempt',
  outcome: 'aoai_workbench.outcome',
  fallback: 'aoai_workbench.api_fallback',
  deployment: 'aoai_workbench.deployment',
  retryAfterMs: 'aoai_workbench.retry_after_ms',
  firstTokenMs: 'aoai_workbench.first_token_ms',
  resultBytes: 'aoai_workbench.tool.result_bytes',
  reasoningTokens: 'aoai_workbench.usage.reasoning_tokens',
} as const;
