/** Chat completions on the v1 route and the deployment-level route, plain and streamed. */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { modelProfile } from '../../chat/modelProfile';
import type { DeploymentConfig } from '../config';
import { countChatPromptTokens, readMessages, type ReadMessage } from '../chatMessages';
import { contentFilterError, PROMPT_FILTER, replyFilterResults, SAFE_RESULTS } from '../filterResults';
import { answeringModel } from '../modelRouter';
import { cacheOptions, promptTokens } from '../promptCache';
import { REASONING_TOKENS, isReasoningEffort } from '../reasoning';
import { reply, tokenPieces, countTokens } from '../responder';
import { parseToolChoice, parseTools, planToolCall, toolResultReply, type PlannedCall, type ToolChoice, type ToolSpec } from '../tools';
import type { Route, RouteContext } from '../router';
import { passRateLimits } from './rateGate';
import { HttpError, azureError, invalidRequest, nowSeconds, randomId, sendJson, writeOrDrain } from '../wire';

/** o-series and gpt-5 models take `max_completion_tokens` and only the default temperature. */
export const isReasoningModel = (model: string) => /^(o\d|gpt-5)/i.test(model);

interface ParsedChat {
  messages: ReadMessage[];
  tools: ToolSpec[];
  rawTools: unknown[];
  toolChoice: ToolChoice;
  stream: boolean;
  includeUsage: boolean;
  maxTokens?: number;
  /** Tokens a reasoning model spends thinking at the asked effort (0 for other models), billed as completion tokens. */
  reasoningTokens: number;
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
  const messages = readMessages(body.messages, modelProfile(deployment.model).imageInput);
  const tools = parseTools(body.tools, false);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
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
  const effort = body.reasoning_effort ?? undefined;
  if (effort !== undefined && !isReasoningEffort(effort)) {
    throw invalidRequest(`Invalid value: '${String(effort)}'. Supported values are: 'minimal', 'low', 'medium', and 'high'.`, 'reasoning_effort', 'invalid_value');
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw invalidRequest("'stream' must be a boolean.", 'stream');
  const opts = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    messages,
    tools,
    rawTools: Array.isArray(body.tools) ? body.tools : [],
    toolChoice,
    stream: body.stream === true,
    includeUsage: opts?.include_usage === true,
    maxTokens,
    reasoningTokens: modelProfile(deployment.model).reasoning ? REASONING_TOKENS[effort ?? 'medium'] : 0,
  };
}


const BATCH_SKUS = /batch/i;

/** A Global-Batch or Data Zone Batch deployment: it serves batch jobs, not live calls. */
export const isBatchDeployment = (d: DeploymentConfig) => BATCH_SKUS.test(d.sku);

export function deploymentNotFound(): HttpError {
  return azureError(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.');
}

/** The deployment a request names, refused the way the service refuses it when it cannot serve `operation` live. */
export function liveDeployment(ctx: { state: RouteContext['state'] }, name: string, operation: 'chatCompletion' | 'responses', batch: boolean): DeploymentConfig {
  const deployment = ctx.state.deployment(name);
  // One being created through Resource Manager answers like the service does in those minutes.
  if (!deployment || (deployment.provisioningState ?? 'Succeeded') !== 'Succeeded') throw deploymentNotFound();
  if (!batch && isBatchDeployment(deployment)) {
    throw azureError(
      400,
      'OperationNotSupported',
      `The deployment '${deployment.name}' is a ${deployment.sku} deployment: it serves batch jobs only. ` +
        'Send this request as a line of a batch (POST /openai/v1/batches), or use a deployment of another type.',
    );
  }
  if (/realtime|audio/i.test(deployment.model) || (operation === 'chatCompletion' && !modelProfile(deployment.model).apis.includes('chat'))) {
    throw azureError(
      400,
      'OperationNotSupported',
      `The ${operation} operation does not work with the specified model, ${deployment.model}. Please choose different model and try again. ` +
        'You can learn more about which models can be used with each operation here: https://go.microsoft.com/fwlink/?linkid=2197993.',
    );
  }
  return deployment;
}

/** One chat completion, decided before anything is sent: what the live route streams or sends, and what a batch line gets. */
export interface PreparedChat {
  deployment: DeploymentConfig;
  stream: boolean;
  includeUsage: boolean;
  pieces: string[];
  call?: PlannedCall;
  finish: string;
  /** `/annotate`: the reply carries a detected (not blocked) protected-material annotation. */
  annotate: boolean;
  /** The category the reply trips (`/annotate CATEGORY`, `/filter protected_material_*`), when named. */
  replyFilter?: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details: { cached_tokens: number };
    completion_tokens_details: { reasoning_tokens: number };
  };
}

/** The cached part of a prompt that repeats an earlier one's prefix (promptCache.ts); the service reports it always, 0 included. */
function cachedPrompt(state: RouteContext['state'], deployment: string, body: Record<string, unknown>, chat: ParsedChat, billed: number): number {
  const parts = [JSON.stringify(chat.rawTools), ...chat.messages.map((m) => `${m.role}\n${m.content}`)];
  const { bucket, ttlMs } = cacheOptions(body, deployment, (message, param) => invalidRequest(message, param, 'invalid_value'));
  return state.promptCache.use(bucket, promptTokens(parts), billed, ttlMs);
}

export function prepareChat(ctx: { state: RouteContext['state'] }, body: Record<string, unknown>, deploymentName: string | undefined, batch = false): PreparedChat {
  const name = deploymentName ?? body.model;
  if (typeof name !== 'string' || !name) throw invalidRequest("'model' is required: set it to the name of your deployment.", 'model', 'missing_required_parameter');
  const deployment = liveDeployment(ctx, name, 'chatCompletion', batch);
  const chat = parseChat(body, deployment);
  const last = chat.messages.at(-1)!;
  let text: string;
  let call: PlannedCall | undefined;
  let filterStream = false;
  let annotate = false;
  let replyFilter: string | undefined;
  if (last.role === 'tool') {
    const name = chat.messages.flatMap((m) => m.toolCalls).find((c) => c.id === last.toolCallId)?.name;
    text = toolResultReply(name, last.content);
  } else {
    const lastUser = [...chat.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const answer = reply(lastUser, deployment.name);
    if (answer.directive === 'filter') throw contentFilterError(answer.filterCategory);
    annotate = answer.directive === 'annotate';
    filterStream = answer.directive === 'filter-stream';
    if (annotate || filterStream) replyFilter = answer.filterCategory;
    text = answer.text;
    call = planToolCall(chat.tools, chat.toolChoice, lastUser);
  }

  let pieces = tokenPieces(call ? call.arguments : text);
  let finish = call ? 'tool_calls' : filterStream ? 'content_filter' : 'stop';
  // Thinking comes first and counts against max_completion_tokens: what is left is for the answer.
  const reasoning = Math.min(chat.reasoningTokens, chat.maxTokens ?? Infinity);
  const room = chat.maxTokens === undefined ? Infinity : chat.maxTokens - reasoning;
  if (pieces.length > room) {
    pieces = pieces.slice(0, room);
    finish = 'length';
  }
  const promptTokens = countChatPromptTokens(chat.messages, chat.rawTools);
  const completionTokens = (finish === 'length' || call ? pieces.length : countTokens(text)) + reasoning;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cachedPrompt(ctx.state, deployment.name, body, chat, promptTokens) },
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
  return { deployment, stream: chat.stream, includeUsage: chat.includeUsage, pieces, call, finish, annotate, replyFilter, usage };
}

/** The model that answers: a model-router deployment's choice, else the deployment's own (modelRouter.ts). */
const modelOf = (p: PreparedChat) => answeringModel(p.deployment, p.usage.prompt_tokens);

/** The `chat.completion` object of a prepared (non-streamed) completion. */
export function chatCompletionBody(p: PreparedChat, id = randomId('chatcmpl-'), callId = randomId('call_')): Record<string, unknown> {
  const message = p.call
    ? { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: callId, type: 'function', function: { name: p.call.name, arguments: p.pieces.join('') } }] }
    : { role: 'assistant', content: p.pieces.join(''), refusal: null };
  const finalFilter = replyFilterResults(p.finish, p.annotate, p.replyFilter);
  return {
    id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: modelOf(p),
    choices: [{ index: 0, message, finish_reason: p.finish, logprobs: null, content_filter_results: finalFilter }],
    usage: p.usage,
    prompt_filter_results: PROMPT_FILTER,
    system_fingerprint: 'fp_emulator',
  };
}

async function handleChat(ctx: RouteContext, deploymentName: string | undefined): Promise<void> {
  const p = prepareChat(ctx, await ctx.json(), deploymentName);
  const rateHeaders = passRateLimits(ctx, p.deployment, p.usage.total_tokens, 'ChatCompletions_Create');
  const id = randomId('chatcmpl-');
  const callId = randomId('call_');
  if (!p.stream) {
    sendJson(ctx.res, 200, chatCompletionBody(p, id, callId), { ...ctx.baseHeaders, ...rateHeaders });
    return;
  }
  // A tool call streams as its name first, then its arguments in pieces (index 0: one call).
  const deltas = p.call
    ? [
        { role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: p.call.name, arguments: '' } }] },
        ...p.pieces.map((x) => ({ tool_calls: [{ index: 0, function: { arguments: x } }] })),
      ]
    : p.pieces.map((x, i) => (i === 0 ? { role: 'assistant', content: x } : { content: x }));
  await streamChat(ctx, {
    id,
    created: nowSeconds(),
    model: modelOf(p),
    deltas,
    finish: p.finish,
    annotate: p.annotate,
    replyFilter: p.replyFilter,
    usage: p.includeUsage ? p.usage : undefined,
    headers: rateHeaders,
  });
}

/** Azure's frame sequence: prompt annotations, role + first token, tokens, finish, usage, [DONE]. */
async function streamChat(
  ctx: RouteContext,
  s: {
    id: string;
    created: number;
    model: string;
    deltas: object[];
    finish: string;
    annotate: boolean;
    replyFilter?: string;
    usage?: object;
    headers: Record<string, string>;
  },
): Promise<void> {
  const res: ServerResponse = ctx.res;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...ctx.baseHeaders, ...s.headers });
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const closed = () => gone.signal.aborted || res.destroyed;
  const write = async (frame: unknown) => {
    if (!closed()) await writeOrDrain(res, `data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`);
  };
  const chunk = (choices: unknown[], usage: unknown = null) => ({ id: s.id, object: 'chat.completion.chunk', created: s.created, model: s.model, system_fingerprint: 'fp_emulator', choices, usage });
  await write({ id: '', object: '', created: 0, model: '', prompt_filter_results: PROMPT_FILTER, choices: [], usage: null });
  const delay = ctx.state.config.streamTokenDelayMs;
  const first = ctx.state.config.firstTokenDelayMs;
  // The wait ends early when the client closes, so a cancelled request is counted at once.
  if (first > 0) await sleep(first, undefined, { signal: gone.signal }).catch(() => undefined);
  for (const delta of s.deltas) {
    if (closed()) return ctx.state.streamAborted();
    if (delay > 0) await sleep(delay);
    await write(chunk([{ index: 0, finish_reason: null, delta, content_filter_results: SAFE_RESULTS }]));
  }
  if (closed()) return ctx.state.streamAborted();
  const finalFilter = replyFilterResults(s.finish, s.annotate, s.replyFilter);
  await write(chunk([{ index: 0, finish_reason: s.finish, delta: {}, content_filter_results: finalFilter }]));
  if (s.usage) await write(chunk([], s.usage));
  await write('[DONE]');
  res.end();
  ctx.state.stats.streamsCompleted++;
}

export function requireApiVersion(ctx: RouteContext): void {
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
