/** Wire types of the service, as the protocol reference describes them. */

export type ChatRole = 'system' | 'user' | 'assistant' | 'developer' | 'tool';

/** A message; a user's may carry image parts (for models that take images). */
export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[];
}

/** A part of a user message: text, or an image as a `data:` URL (or https URL). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Messages beyond plain text: image parts, an assistant's tool calls, a tool's result. */
export type RichChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | ChatContentPart[]; name?: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[]; name?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A piece of a tool call in a stream: `id` and the name come first, `arguments` in pieces, all by `index`. */
export interface ChatToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Reasoning models: the part of the completion spent thinking (counted in completion_tokens). */
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number };
  /** The part of the prompt served from the service's prompt cache (billed at the cached price); audio input billed at the audio rate. */
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number };
}

export type ContentFilterResults = Record<string, { filtered: boolean; severity?: string; detected?: boolean }>;

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string | null; refusal?: string | null };
    finish_reason: string | null;
    content_filter_results?: ContentFilterResults;
  }>;
  usage?: Usage;
  prompt_filter_results?: Array<{ prompt_index: number; content_filter_results: ContentFilterResults }>;
  system_fingerprint?: string | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk' | '';
  created: number;
  model: string;
  /** May be empty: Azure's first frame (prompt annotations) and the usage frame have no choices. */
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string | null; refusal?: string | null; tool_calls?: ChatToolCallDelta[] };
    finish_reason: string | null;
    content_filter_results?: ContentFilterResults;
  }>;
  usage?: Usage | null;
  prompt_filter_results?: Array<{ prompt_index: number; content_filter_results: ContentFilterResults }>;
}

/** Parameters beyond `messages` that the chat panel and tests send. Unknown keys pass through. */
export interface ChatParameters {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export type ChatRoute = 'v1' | 'deployment';

export interface ChatRequest extends ChatParameters {
  deployment: string;
  messages: Array<ChatMessage | RichChatMessage>;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'cancelled' | 'queued' | 'incomplete';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  model: string;
  background: boolean | null;
  output: Array<{ type: string; id?: string; role?: string; content?: Array<{ type: string; text?: string; [k: string]: unknown }>; [k: string]: unknown }>;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  error: { code: string; message: string } | null;
  [key: string]: unknown;
}

export type ResponseContentPart = { type: 'input_text' | 'output_text'; text: string } | { type: 'input_image'; image_url: string; detail?: 'low' | 'high' | 'auto' };

/** An item of a Responses request's `input`: a message, a function call, or a function's output. */
export type ResponseInputItem =
  | { type?: 'message'; role: 'user' | 'assistant' | 'system' | 'developer'; content: string | ResponseContentPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** The parameters of `POST /responses` the extension sends. Unknown keys pass through. */
export interface ResponseRequest {
  /** The deployment name. */
  model: string;
  input: string | ResponseInputItem[];
  instructions?: string;
  previous_response_id?: string;
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high'; summary?: 'auto' | 'concise' | 'detailed' };
  store?: boolean;
  background?: boolean;
  metadata?: Record<string, string>;
  [key: string]: unknown;
}

/** One event of a streamed response; the fields the extension reads, the rest passes through. */
export interface ResponseStreamEvent {
  type: string;
  sequence_number?: number;
  delta?: string;
  summary_index?: number;
  output_index?: number;
  item?: Record<string, unknown>;
  response?: Partial<ResponseObject> & {
    usage?: {
      input_tokens: number;
      output_tokens: number;
      total_tokens?: number;
      input_tokens_details?: { cached_tokens?: number };
      output_tokens_details?: { reasoning_tokens?: number };
    } | null;
    incomplete_details?: { reason?: string } | null;
  };
  [key: string]: unknown;
}

export const WEBHOOK_EVENT_TYPES = [
  'response.completed',
  'response.failed',
  'response.cancelled',
  'response.incomplete',
  'batch.completed',
  'batch.failed',
  'batch.cancelled',
  'batch.expired',
  'fine_tuning.job.succeeded',
  'fine_tuning.job.failed',
  'fine_tuning.job.cancelled',
  'realtime.call.incoming',
] as const;

export interface WebhookEndpoint {
  id: string;
  /** Azure says `webhook.endpoint`, OpenAI `webhook_endpoint`: both are accepted. */
  object: 'webhook.endpoint' | 'webhook_endpoint';
  created_at: number;
  updated_at?: number;
  name: string;
  url: string;
  event_types: string[];
  signing_secret_hint?: string | null;
}

/** Only the create response carries the secret, and only once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  signing_secret: string;
}

export interface WebhookEndpointInput {
  name: string;
  url: string;
  event_types: string[];
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  first_id?: string | null;
  last_id?: string | null;
  has_more: boolean;
}

export interface WebhookEvent {
  object: 'event';
  id: string;
  type: string;
  created_at: number;
  data: Record<string, unknown>;
}

/** One deployment, whichever API it was listed through. */
export interface Deployment {
  name: string;
  model: string;
  modelVersion?: string;
  sku?: string;
  capacity?: number;
  rateLimits?: { requestsPerMinute?: number; tokensPerMinute?: number };
  provisioningState?: string;
  /** Where it came from: ARM has everything; the data plane lists fewer fields; `models` lists models, not deployments. */
  source: 'arm' | 'data-plane' | 'models';
}
