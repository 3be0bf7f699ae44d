/**
 * A trace as the workbench keeps it: plain data (JSON on disk, posted to the timeline page,
 * turned into OTLP spans by the exporter). Times are milliseconds since the epoch; ids are the
 * hex lengths OTLP takes (32 for a trace, 16 for a span). Attributes follow OpenTelemetry's GenAI
 * semantic conventions (gen_ai.*) and carry names, counts, times and statuses: a prompt or a reply
 * only when the user's setting asks for it (TraceOptions.captureContent).
 */
export type { AttributeValue, Attributes, SpanKind, Trace, TraceKind, TraceSpan } from './types';

/**
 * Ids are not secrets, only unique (OpenTelemetry's own generator uses Math.random too): the
 * system's generator cost a request about 6 µs an id.
 */
function randomHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i += 4) out += ((Math.random() * 0x100000000) >>> 0).toString(16).padStart(8, '0');
  // An all-zero id is invalid in OTLP.
  return /^0+$/.test(out) ? randomHex(bytes) : out;
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

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
