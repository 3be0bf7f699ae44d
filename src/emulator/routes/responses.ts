/**
 * The Responses API. With `background: true` a response goes queued → in_progress → a final
 * state after configurable delays, and each final state emits its `response.*` webhook event.
 */
import type { ResponseObject, ResponseStatus } from '../../service/types';
import { countTokens, reply } from '../responder';
import type { Route, RouteContext } from '../router';
import type { EmulatorState } from '../state';
import { azureError, invalidRequest, nowSeconds, randomId, sendJson } from '../wire';

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    const last = [...input].reverse().find((m) => m && typeof m === 'object' && (m as { role?: unknown }).role === 'user') as { content?: unknown } | undefined;
    if (typeof last?.content === 'string') return last.content;
    if (Array.isArray(last?.content)) return last.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }
  throw invalidRequest("'input' must be a string or a list of messages.", 'input');
}

/** Moves a response to a final state and tells the subscribed endpoints. */
function finish(state: EmulatorState, r: ResponseObject, text: string, directive: string): void {
  if (r.status === 'cancelled' || r.status === 'completed' || r.status === 'failed' || r.status === 'incomplete') return;
  const status: ResponseStatus = directive === 'fail' ? 'failed' : directive === 'incomplete' ? 'incomplete' : 'completed';
  r.status = status;
  if (status === 'failed') {
    r.error = { code: 'server_error', message: 'The response failed (the emulator was asked to fail it with /fail).' };
  } else {
    r.output = [{ type: 'message', id: randomId('msg_'), status: status === 'completed' ? 'completed' : 'incomplete', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }];
    if (status === 'incomplete') r.incomplete_details = { reason: 'max_output_tokens' };
  }
  const input = countTokens(String(r.__input ?? ''));
  const output = status === 'failed' ? 0 : countTokens(text);
  r.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  r.completed_at = status === 'completed' ? nowSeconds() : null;
  if (r.background) state.emit(`response.${status}`, { id: r.id });
}

function view(r: ResponseObject): ResponseObject {
  const { __input: _input, ...rest } = r;
  return rest as ResponseObject;
}

async function create(ctx: RouteContext): Promise<void> {
  const body = await ctx.json();
  if (typeof body.model !== 'string' || !body.model) throw invalidRequest("'model' is required: set it to the name of your deployment.", 'model', 'missing_required_parameter');
  const deployment = ctx.state.deployment(body.model);
  if (!deployment) throw azureError(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.');
  if (body.background !== undefined && typeof body.background !== 'boolean') throw invalidRequest("'background' must be a boolean.", 'background');
  const text = inputText(body.input);
  const answer = reply(text, deployment.name);
  const background = body.background === true;
  const r: ResponseObject = {
    id: randomId('resp_', 24),
    object: 'response',
    created_at: nowSeconds(),
    status: background ? 'queued' : 'in_progress',
    model: `${deployment.model}-${deployment.version}`,
    background,
    output: [],
    usage: null,
    error: null,
    incomplete_details: null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    metadata: {},
    completed_at: null,
    __input: text,
  };
  ctx.state.responses.set(r.id, r);
  if (!background) {
    finish(ctx.state, r, answer.text, answer.directive);
  } else {
    const { responseQueuedMs, responseInProgressMs } = ctx.state.config;
    ctx.state.later(responseQueuedMs, () => {
      if (r.status !== 'queued') return;
      r.status = 'in_progress';
      ctx.state.later(responseInProgressMs, () => finish(ctx.state, r, answer.text, answer.directive));
    });
  }
  sendJson(ctx.res, 200, view(r), ctx.baseHeaders);
}

function find(ctx: RouteContext, id: string): ResponseObject {
  const r = ctx.state.responses.get(decodeURIComponent(id));
  if (!r) throw invalidRequest(`Response with id '${decodeURIComponent(id)}' not found.`, null, null, 404);
  return r;
}

function cancel(ctx: RouteContext, id: string): void {
  const r = find(ctx, id);
  if (!r.background) throw invalidRequest('Only responses created with background=true can be cancelled.', null, null, 400);
  // Cancelling is idempotent: a final response is returned as it is.
  if (r.status === 'queued' || r.status === 'in_progress') {
    r.status = 'cancelled';
    ctx.state.emit('response.cancelled', { id: r.id });
  }
  sendJson(ctx.res, 200, view(r), ctx.baseHeaders);
}

// Both the v1 paths (OpenAI client) and the AzureOpenAI client's `/openai/responses?api-version=`.
const BASE = '^/openai(?:/v1)?/responses';
export const responseRoutes: Route[] = [
  { method: 'POST', path: new RegExp(`${BASE}$`), handler: create },
  { method: 'GET', path: new RegExp(`${BASE}/([^/]+)$`), handler: (ctx, [id]) => sendJson(ctx.res, 200, view(find(ctx, id)), ctx.baseHeaders) },
  { method: 'POST', path: new RegExp(`${BASE}/([^/]+)/cancel$`), handler: (ctx, [id]) => cancel(ctx, id) },
];
