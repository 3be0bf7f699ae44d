/**
 * A trace as the workbench keeps it: plain data (JSON on disk, posted to the timeline page,
 * turned into OTLP spans by the exporter). Times are milliseconds since the epoch; ids are the
 * hex lengths OTLP takes (32 for a trace, 16 for a span). Attributes follow OpenTelemetry's GenAI
 * semantic conventions (gen_ai.*) and carry names, counts, times and statuses: a prompt or a reply
 * only when the user's setting asks for it (TraceOptions.captureContent).
 */
import { randomBytes } from 'node:crypto';

export type { AttributeValue, Attributes, SpanKind, Trace, TraceKind, TraceSpan } from './types';

/**
 * Random hex drawn 2 KiB of bytes at a time and handed out in slices: an id then costs a slice
 * of a flat string (V8 shares its characters) instead of a draw and a conversion per id (the bench
 * row "a request's overhead": the ids were a third of a traced request's 23 µs). Ids are not
 * secrets, only unique.
 */
let pool = '';
let drawn = 0;
const ZEROS = ['0'.repeat(16), '0'.repeat(32)];

function randomHex(bytes: number): string {
  const n = bytes * 2;
  if (drawn + n > pool.length) {
    pool = randomBytes(2048).toString('hex');
    drawn = 0;
  }
  const id = pool.slice(drawn, (drawn += n));
  // An all-zero id is invalid in OTLP.
  return ZEROS.includes(id) ? randomHex(bytes) : id;
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
