/**
 * The Responses API: create (plain, streamed, in the background), retrieve (also as a resumable
 * stream), cancel, delete and input items. Background responses go queued → in_progress → a final
 * state after configurable delays, and each final state emits its `response.*` webhook event.
 */
import type { ServerResponse } from 'node:http';
import { answeringModel } from '../modelRouter';
import { cacheOptions, promptTokens } from '../promptCache';
import { REASONING_TOKENS } from '../reasoning';
import { countTokens, reply } from '../responder';
import type { Route, RouteContext } from '../router';
import { planToolCall, toolResultReply } from '../tools';
import type { DeploymentConfig } from '../config';
import type { EmulatorState } from '../state';
import { azureError, invalidRequest, nowSeconds, randomId, sendJson, writeOrDrain } from '../wire';
import { EventLog } from '../responses/eventLog';
import { countItemTokens, lastUserText, parseResponseRequest, type ResponseRequest } from '../responses/request';
import { FINAL, cancelRun, runResponse, type Plan, type StoredResponse, type Timing } from '../responses/run';
import { contentFilterError, replyFilterResults } from '../filterResults';
import { liveDeployment, requireApiVersion } from './chat';
import { listPage } from './listing';
import { passRateLimits } from './rateGate';

/** Stored responses kept at most; the oldest go first. */
const MAX_STORED = 1000;

function summaryText(prompt: string, effort: string): string {
  const topic = prompt.trim().replace(/\s+/g, ' ').slice(0, 80) || 'the request';
  return `**Reading the request**\n\nThe user asked: "${topic}". With ${effort} effort I check what is being asked and answer it directly.`;
}

function plan(req: ResponseRequest, history: Array<Record<string, unknown>>, deploymentName: string): Plan {
  const all = [...history, ...req.items];
  let inputTokens = countItemTokens(all) + 3;
  if (req.instructions) inputTokens += 3 + countTokens(req.instructions);
  if (req.rawTools.length) inputTokens += countTokens(JSON.stringify(req.rawTools));
  const prompt = lastUserText(req.items);
  const last = req.items.at(-1);
  let text: string;
  let directive: string = 'echo';
  let call;
  let filtered: Plan['filtered'];
  if (last?.type === 'function_call_output') {
    const name = all.find((i) => i.type === 'function_call' && i.call_id === last.call_id)?.name;
    text = toolResultReply(typeof name === 'string' ? name : undefined, String(last.output));
  } else {
    const answer = reply(prompt, deploymentName);
    if (answer.directive === 'filter') throw contentFilterError(answer.filterCategory);
    ({ text, directive } = answer);
    if (directive === 'filter-stream') filtered = replyFilterResults('content_filter', false, answer.filterCategory);
    call = planToolCall(req.tools, req.toolChoice, prompt);
  }
  const reasoning = req.reasoning
    ? { tokens: REASONING_TOKENS[req.reasoning.effort], summary: req.reasoning.summary ? summaryText(prompt, req.reasoning.effort) : null }
    : undefined;
  return { reasoning, call, text, fail: directive === 'fail', incomplete: directive === 'incomplete', filtered, maxOutputTokens: req.maxOutputTokens, inputTokens };
}

function responseObject(req: ResponseRequest, model: string): StoredResponse['object'] {
  return {
    id: randomId('resp_', 24),
    object: 'response',
    created_at: nowSeconds(),
    status: req.background ? 'queued' : 'in_progress',
    background: req.background,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: req.instructions,
    max_output_tokens: req.maxOutputTokens,
    metadata: req.metadata,
    model,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: req.previousResponseId,
    reasoning: req.reasoning ?? { effort: null, summary: null },
    store: req.store,
    temperature: req.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: req.rawToolChoice,
    tools: req.rawTools.map(echoTool),
    top_p: req.topP ?? 1,
    truncation: 'disabled',
    usage: null,
    user: null,
  };
}

/** A tool as the response lists it: a function tool with its defaults spelled out (strict is on unless turned off). */
function echoTool(tool: unknown): unknown {
  const t = tool as Record<string, unknown>;
  if (t?.type !== 'function') return tool;
  return { ...t, description: t.description ?? null, parameters: t.parameters ?? null, strict: t.strict ?? true };
}

/** Writes the log as server-sent events from `after` on, until the log ends or the reader leaves. */
async function pipeEvents(ctx: RouteContext, log: EventLog, after: number, onReaderGone?: () => void, headers: Record<string, string> = {}): Promise<void> {
  const res: ServerResponse = ctx.res;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...ctx.baseHeaders, ...headers });
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) {
      gone.abort();
      onReaderGone?.();
    }
  });
  for await (const ev of log.read(after, gone.signal)) {
    if (res.destroyed) break;
    await writeOrDrain(res, `event: ${ev.type}\ndata: ${ev.json}\n\n`);
  }
  if (!res.destroyed) res.end();
}

/** A response decided before anything is sent: what the live route runs, and what a batch line runs. */
export interface PreparedResponse {
  req: ResponseRequest;
  deployment: DeploymentConfig;
  plan: Plan;
  stored: StoredResponse;
  /** Billed as the service counts it: input, plus the output and reasoning the reply will take. */
  tokens: number;
}

export function prepareResponse(ctx: { state: EmulatorState }, body: Record<string, unknown>, batch = false): PreparedResponse {
  if (typeof body.model !== 'string' || !body.model) throw invalidRequest("Missing required parameter: 'model'. Set it to the name of your deployment.", 'model', 'missing_required_parameter');
  const deployment = liveDeployment(ctx, body.model, 'responses', batch);
  const req = parseResponseRequest(body, deployment);
  let history: Array<Record<string, unknown>> = [];
  if (req.previousResponseId) {
    const prev = ctx.state.responses.get(req.previousResponseId);
    if (!prev) throw invalidRequest(`Previous response with id '${req.previousResponseId}' not found.`, 'previous_response_id', 'previous_response_not_found');
    history = prev.history;
  }
  const p = plan(req, history, deployment.name);
  const parts = [JSON.stringify(req.rawTools), req.instructions ?? '', ...[...history, ...req.items].map(({ id: _id, ...item }) => JSON.stringify(item))];
  const { bucket, ttlMs } = cacheOptions(body, deployment.name, (message, param) => invalidRequest(message, param, 'invalid_value'));
  p.cachedTokens = ctx.state.promptCache.use(bucket, promptTokens(parts), p.inputTokens, ttlMs);
  p.obfuscate = (body.stream_options as { include_obfuscation?: unknown } | undefined)?.include_obfuscation !== false;
  const outputTokens = countTokens(p.call ? p.call.arguments : p.text) + (p.reasoning?.tokens ?? 0);
  const object = responseObject(req, answeringModel(deployment, p.inputTokens));
  const stored: StoredResponse = { object, input: req.items, history: [...history, ...req.items], log: new EventLog() };
  return { req, deployment, plan: p, stored, tokens: p.inputTokens + Math.min(outputTokens, p.maxOutputTokens ?? Infinity) };
}

/** A batch line's response: run to its end at once, in the foreground, no rate limits. */
export async function answerResponseLine(state: EmulatorState, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (body.background === true || body.stream === true) {
    throw invalidRequest('A batch line cannot ask for a streamed or background response.', body.stream === true ? 'stream' : 'background', 'invalid_value');
  }
  const p = prepareResponse({ state }, body, true);
  if (p.req.store) remember(state, p.stored);
  await runResponse(state, p.stored, p.plan, { tokenDelayMs: 0, queuedMs: 0, inProgressMs: 0 }, new AbortController().signal);
  p.stored.log.forget();
  return p.stored.object;
}

async function create(ctx: RouteContext): Promise<void> {
  const { req, deployment, plan: p, stored, tokens } = prepareResponse(ctx, await ctx.json());
  const rateHeaders = passRateLimits(ctx, deployment, tokens, 'Responses_Create');
  const answerHeaders = { ...ctx.baseHeaders, ...rateHeaders };
  if (req.store) remember(ctx.state, stored);

  const { streamTokenDelayMs, responseQueuedMs, responseInProgressMs } = ctx.state.config;
  const timing: Timing = req.background
    ? { tokenDelayMs: streamTokenDelayMs, queuedMs: responseQueuedMs, inProgressMs: responseInProgressMs }
    : { tokenDelayMs: req.stream ? streamTokenDelayMs : 0, queuedMs: 0, inProgressMs: 0 };
  const stop = new AbortController();
  const running = runResponse(ctx.state, stored, p, timing, stop.signal).catch((err: unknown) => {
    stored.log.end();
    ctx.state.log(`response ${stored.object.id} failed in the emulator: ${(err as Error)?.stack ?? err}`);
  });
  if (req.stream) {
    // A foreground response ends with its reader; a background one goes on without it.
    await pipeEvents(ctx, stored.log, -1, () => {
      if (req.background) return;
      stop.abort();
      ctx.state.streamAborted();
    }, rateHeaders);
    if (!stop.signal.aborted) ctx.state.stats.streamsCompleted++;
  } else if (req.background) {
    sendJson(ctx.res, 200, stored.object, answerHeaders);
  }
  if (req.background) return;
  await running;
  if (!req.stream) sendJson(ctx.res, 200, stored.object, answerHeaders);
  stored.log.forget();
}

function remember(state: EmulatorState, stored: StoredResponse): void {
  const all = state.responses;
  all.set(stored.object.id, stored);
  for (const [id, old] of all) {
    if (all.size <= MAX_STORED) break;
    old.deleted = true;
    all.delete(id);
  }
}

function find(ctx: RouteContext, id: string): StoredResponse {
  const key = decodeURIComponent(id);
  const r = ctx.state.responses.get(key);
  if (!r) throw invalidRequest(`Response with id '${key}' not found.`, null, null, 404);
  return r;
}

async function retrieve(ctx: RouteContext, id: string): Promise<void> {
  const r = find(ctx, id);
  if (ctx.url.searchParams.get('stream') !== 'true') return sendJson(ctx.res, 200, r.object, ctx.baseHeaders);
  if (!r.object.background) throw invalidRequest('This response cannot be streamed because it was not created with background=true.', 'stream', 'invalid_value');
  const raw = ctx.url.searchParams.get('starting_after');
  const after = raw === null ? -1 : Number(raw);
  if (!Number.isInteger(after) || after < -1) throw invalidRequest(`Invalid 'starting_after': expected an integer sequence number, but got '${raw}'.`, 'starting_after', 'invalid_value');
  await pipeEvents(ctx, r.log, after);
}

function cancel(ctx: RouteContext, id: string): void {
  const r = find(ctx, id);
  if (!r.object.background) throw invalidRequest('Only responses created with background=true can be cancelled.', null, null, 400);
  // Cancelling twice is fine (the answer is the cancelled response); a finished one cannot be.
  if (FINAL.has(r.object.status) && r.object.status !== 'cancelled') {
    throw invalidRequest(`Cannot cancel a response with status '${r.object.status}'.`, null, null, 400);
  }
  cancelRun(ctx.state, r);
  sendJson(ctx.res, 200, r.object, ctx.baseHeaders);
}

function remove(ctx: RouteContext, id: string): void {
  const r = find(ctx, id);
  r.deleted = true;
  r.log.end();
  ctx.state.responses.delete(r.object.id);
  sendJson(ctx.res, 200, { id: r.object.id, object: 'response', deleted: true }, ctx.baseHeaders);
}

function inputItems(ctx: RouteContext, id: string): void {
  const newestFirst = [...find(ctx, id).input].reverse();
  sendJson(ctx.res, 200, listPage(ctx, newestFirst, { defaultLimit: 20, maxLimit: 100, ordered: true }), ctx.baseHeaders);
}

/**
 * The AzureOpenAI client's `/openai/responses?api-version=` needs a version that has the operation:
 * older ones (2024-10-21, the GA the chat route uses) are refused as the service refuses them.
 */
function requireResponsesVersion(ctx: RouteContext): void {
  if (ctx.url.pathname.startsWith('/openai/v1/')) return;
  requireApiVersion(ctx);
  const version = ctx.url.searchParams.get('api-version')!;
  if (/^\d{4}-\d{2}-\d{2}/.test(version) && version.slice(0, 10) < '2025-03-01') {
    throw azureError(400, 'BadRequest', 'Azure OpenAI Responses API is enabled only for api-version 2025-03-01-preview and later');
  }
}

type Handler = Route['handler'];
const versioned = (h: Handler): Handler => (ctx, params) => {
  requireResponsesVersion(ctx);
  return h(ctx, params);
};

// Both the v1 paths (OpenAI client) and the AzureOpenAI client's `/openai/responses?api-version=`.
const BASE = '^/openai(?:/v1)?/responses';
export const responseRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${BASE}$`), handler: versioned(create) },
  { method: 'GET', path: new RegExp(`${BASE}/([^/]+)$`), handler: versioned((ctx, [id]) => retrieve(ctx, id)) },
  { method: 'DELETE', path: new RegExp(`${BASE}/([^/]+)$`), handler: versioned((ctx, [id]) => remove(ctx, id)) },
  { method: 'POST', path: new RegExp(`${BASE}/([^/]+)/cancel$`), handler: versioned((ctx, [id]) => cancel(ctx, id)) },
  { method: 'GET', path: new RegExp(`${BASE}/([^/]+)/input_items$`), handler: versioned((ctx, [id]) => inputItems(ctx, id)) },
];
