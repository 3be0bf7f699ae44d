/** Chat completions on the v1 route and the deployment-level route, plain and streamed. */
import type { ServerResponse } from 'node:http';
import { modelProfile } from '../../chat/modelProfile';
import type { DeploymentConfig } from '../config';
import { countPromptTokens, reply, tokenPieces, countTokens } from '../responder';
import type { Route, RouteContext } from '../router';
import { HttpError, azureError, invalidRequest, nowSeconds, randomId, sendJson } from '../wire';

const ROLES = new Set(['system', 'user', 'assistant', 'developer', 'tool']);
const SAFE = { filtered: false, severity: 'safe' };
const SAFE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: { ...SAFE_RESULTS, jailbreak: { filtered: false, detected: false } } }];

/** o-series and gpt-5 models take `max_completion_tokens` and only the default temperature. */
export const isReasoningModel = (model: string) => /^(o\d|gpt-5)/i.test(model);

interface ParsedChat {
  messages: Array<{ role: string; content: string }>;
  stream: boolean;
  includeUsage: boolean;
  maxTokens?: number;
}

/** An `image_url` part's URL when it is one the service fetches or decodes (https, or a base64 data URL of an image). */
function imageUrlOf(part: unknown): string | undefined {
  if (!part || typeof part !== 'object' || (part as { type?: unknown }).type !== 'image_url') return undefined;
  const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
  return typeof url === 'string' && (/^https:\/\//.test(url) || /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(url)) ? url : undefined;
}

/** The text of a message; an image stands in it as `[image]` (the emulator's model does not look at pictures). */
function textOf(content: unknown, i: number, takesImages: boolean): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part, j) => {
        if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text' && typeof (part as { text?: unknown }).text === 'string') return (part as { text: string }).text;
        if ((part as { type?: unknown })?.type === 'image_url') {
          if (!takesImages) throw invalidRequest('Invalid content type. image_url is only supported by certain models.', `messages[${i}].content[${j}]`);
          if (!imageUrlOf(part)) throw invalidRequest(`messages[${i}].content[${j}].image_url.url must be an https URL or a base64 data URL of an image.`, `messages[${i}].content`);
          return ' [image]';
        }
        throw invalidRequest(`messages[${i}].content[${j}] must be a text or image_url part.`, `messages[${i}].content`);
      })
      .join('');
  }
  if (content === null || content === undefined) return '';
  throw invalidRequest(`messages[${i}].content must be a string or a list of text parts.`, `messages[${i}].content`);
}

function number(body: Record<string, unknown>, key: string, min: number, max: number, integer = false): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw invalidRequest(`Invalid value for '${key}': expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}.`, key, 'invalid_value');
  }
  return v;
}

function parseChat(body: Record<string, unknown>, deployment: DeploymentConfig): ParsedChat {
  const raw = body.messages;
  if (!Array.isArray(raw) || raw.length === 0) throw invalidRequest("'messages' must be a non-empty array of {role, content}.", 'messages', 'invalid_value');
  const messages = raw.map((m, i) => {
    if (!m || typeof m !== 'object') throw invalidRequest(`messages[${i}] must be an object with role and content.`, `messages[${i}]`);
    const role = (m as { role?: unknown }).role;
    if (typeof role !== 'string' || !ROLES.has(role)) throw invalidRequest(`messages[${i}].role must be one of system, user, assistant, developer, tool.`, `messages[${i}].role`);
    return { role, content: textOf((m as { content?: unknown }).content, i, modelProfile(deployment.model).imageInput) };
  });
  const reasoning = isReasoningModel(deployment.model);
  if (reasoning && body.max_tokens !== undefined && body.max_tokens !== null) {
    throw invalidRequest("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
  }
  const temperature = number(body, 'temperature', 0, 2);
  if (reasoning && temperature !== undefined && temperature !== 1) {
    throw invalidRequest(`Unsupported value: 'temperature' does not support ${temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
  }
  number(body, 'top_p', 0, 1);
  const maxTokens = number(body, 'max_completion_tokens', 1, 1_000_000, true) ?? number(body, 'max_tokens', 1, 1_000_000, true);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw invalidRequest("'stream' must be a boolean.", 'stream');
  const opts = body.stream_options as { include_usage?: unknown } | undefined;
  return { messages, stream: body.stream === true, includeUsage: opts?.include_usage === true, maxTokens };
}

function contentFilterError(): HttpError {
  return new HttpError(400, {
    error: {
      message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: {
        code: 'ResponsibleAIPolicyViolation',
        content_filter_result: { hate: { filtered: true, severity: 'high' }, self_harm: SAFE, sexual: SAFE, violence: { filtered: true, severity: 'medium' } },
      },
    },
  });
}

async function handleChat(ctx: RouteContext, deploymentName: string | undefined): Promise<void> {
  const body = await ctx.json();
  const name = deploymentName ?? body.model;
  if (typeof name !== 'string' || !name) throw invalidRequest("'model' is required: set it to the name of your deployment.", 'model', 'missing_required_parameter');
  const deployment = ctx.state.deployment(name);
  if (!deployment) {
    throw azureError(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.');
  }
  const chat = parseChat(body, deployment);
  const lastUser = [...chat.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const answer = reply(lastUser, deployment.name);
  if (answer.directive === 'filter') throw contentFilterError();

  let pieces = tokenPieces(answer.text);
  let finish = answer.directive === 'filter-stream' ? 'content_filter' : 'stop';
  if (chat.maxTokens !== undefined && pieces.length > chat.maxTokens) {
    pieces = pieces.slice(0, chat.maxTokens);
    finish = 'length';
  }
  const promptTokens = countPromptTokens(chat.messages);
  const completionTokens = finish === 'length' ? pieces.length : countTokens(answer.text);
  const rate = ctx.state.limits.take(deployment.name, { requests: deployment.requestsPerMinute, tokens: deployment.tokensPerMinute }, promptTokens + completionTokens);
  const rateHeaders = {
    'x-ratelimit-limit-requests': String(rate.limitRequests),
    'x-ratelimit-limit-tokens': String(rate.limitTokens),
    'x-ratelimit-remaining-requests': String(rate.remainingRequests),
    'x-ratelimit-remaining-tokens': String(rate.remainingTokens),
  };
  if (!rate.allowed) {
    const secs = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
    throw azureError(
      429,
      '429',
      `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version ${ctx.url.searchParams.get('api-version') ?? 'v1'} have exceeded ${rate.which === 'tokens' ? 'token' : 'call'} rate limit of your current OpenAI ${deployment.sku} pricing tier. Please retry after ${secs} seconds.`,
      { 'retry-after': String(secs), 'retry-after-ms': String(Math.ceil(rate.retryAfterMs)), ...rateHeaders },
    );
  }

  const id = randomId('chatcmpl-');
  const created = nowSeconds();
  const model = `${deployment.model}-${deployment.version}`;
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  if (!chat.stream) {
    sendJson(ctx.res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: pieces.join(''), refusal: null }, finish_reason: finish, logprobs: null, content_filter_results: SAFE_RESULTS }],
      usage,
      prompt_filter_results: PROMPT_FILTER,
      system_fingerprint: 'fp_emulator',
    }, { ...ctx.baseHeaders, ...rateHeaders });
    return;
  }
  await streamChat(ctx, { id, created, model, pieces, finish, usage: chat.includeUsage ? usage : undefined, headers: rateHeaders });
}

/** Azure's frame sequence: prompt annotations, role + first token, tokens, finish, usage, [DONE]. */
async function streamChat(
  ctx: RouteContext,
  s: { id: string; created: number; model: string; pieces: string[]; finish: string; usage?: object; headers: Record<string, string> },
): Promise<void> {
  const res: ServerResponse = ctx.res;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...ctx.baseHeaders, ...s.headers });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const write = async (frame: unknown) => {
    if (closed || res.destroyed) {
      closed = true;
      return;
    }
    // Wait for drain on a slow reader, but never for a socket that is already gone.
    if (!res.write(`data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`) && !res.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  };
  const chunk = (choices: unknown[], usage: unknown = null) => ({ id: s.id, object: 'chat.completion.chunk', created: s.created, model: s.model, system_fingerprint: 'fp_emulator', choices, usage });
  await write({ id: '', object: '', created: 0, model: '', prompt_filter_results: PROMPT_FILTER, choices: [], usage: null });
  const delay = ctx.state.config.streamTokenDelayMs;
  for (let i = 0; i < s.pieces.length; i++) {
    if (closed) return ctx.state.streamAborted();
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const delta = i === 0 ? { role: 'assistant', content: s.pieces[i] } : { content: s.pieces[i] };
    await write(chunk([{ index: 0, finish_reason: null, delta, content_filter_results: SAFE_RESULTS }]));
  }
  if (closed) return ctx.state.streamAborted();
  const finalFilter = s.finish === 'content_filter' ? { ...SAFE_RESULTS, violence: { filtered: true, severity: 'medium' } } : SAFE_RESULTS;
  await write(chunk([{ index: 0, finish_reason: s.finish, delta: {}, content_filter_results: finalFilter }]));
  if (s.usage) await write(chunk([], s.usage));
  await write('[DONE]');
  res.end();
  ctx.state.stats.streamsCompleted++;
}

function requireApiVersion(ctx: RouteContext): void {
  if (!ctx.url.searchParams.get('api-version')) {
    throw azureError(400, 'BadRequest', "Missing required query parameter 'api-version'. Add ?api-version=2024-10-21 (or use the v1 route, /openai/v1/chat/completions).");
  }
}

export const chatRoutes: Route[] = [
  { method: 'POST', path: /^\/openai\/v1\/chat\/completions$/, handler: (ctx) => handleChat(ctx, undefined) },
  {
    method: 'POST',
    path: /^\/openai\/deployments\/([^/]+)\/chat\/completions$/,
    handler: (ctx, [name]) => {
      requireApiVersion(ctx);
      return handleChat(ctx, decodeURIComponent(name));
    },
  },
];

export { requireApiVersion };
