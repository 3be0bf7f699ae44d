/**
 * The one chat runner, for the chat panel and VS Code's chat alike: picks the API, builds the
 * request the model takes, streams the reply, falls back to the Responses API when the service
 * refuses Chat Completions for the model, and sends again only before anything arrived (a refused
 * parameter adapted, a lost stored reply replaced by the whole conversation, a 429 waited out
 * when the options say so), within one limit. Each request sent is reported (report.ts). What
 * differs between the two chats is an option (options.ts), nothing else.
 */
import * as l10n from '@vscode/l10n';
import { ServiceError } from '../../service/errors';
import type { ChatRequest, ChatRoute, ResponseRequest } from '../../service/types';
import { refusesChat, sessionApiMemory, type ApiMemory } from '../apiMemory';
import { RateLimitWaits } from '../countdown';
import { modelProfile, type ChatApi, type ModelProfile } from '../modelProfile';
import { adaptAfterRefusal, adaptNoting, adaptResponseAfterRefusal, type Refusal } from '../paramAdaptation';
import { chooseApi } from './apiChoice';
import { buildChatRequest, type SamplingOptions } from './chatRequest';
import type { NeutralMessage, OfferedTool, ToolMode } from './messages';
import type { RunnerOptions } from './options';
import { RequestClock, failureOf, tokensOf, type RequestReport } from './report';
import { ReplyFilteredError, type RunResult } from './result';
import { buildResponseRequest, setResponseInput } from './responsesRequest';
import { Reply, streamChatReply, streamResponsesReply, type ReplySink, type StreamCall, type StreamingClient } from './streams';
import { UnofferedToolError, ToolNames } from './toolNames';
import type { CompletedToolCall } from './toolCalls';

/** Requests one reply may take: the first, plus adaptations, a lost stored reply and rate-limit waits. */
export const MAX_REQUESTS = 6;

export interface RunRequest {
  client: StreamingClient;
  /** The connection's id, for the usage report. */
  connection?: string;
  deployment: string;
  /** The deployment's model name (decides the API and the parameters); the deployment name stands in when unknown. */
  model?: string;
  messages: readonly NeutralMessage[];
  tools?: readonly OfferedTool[];
  toolMode?: ToolMode;
  sampling: SamplingOptions;
  /** The API the user chose; unset: what the service needs or the model prefers. */
  api?: ChatApi;
  /** Chat Completions' route and api-version (the deployment route); the Responses API has one route. */
  route?: ChatRoute;
  apiVersion?: string;
  /** Responses API: continue from the service's copy of the conversation (the panel only: see options.ts). */
  continuation?: { previousResponseId: string; messages: readonly NeutralMessage[] };
  /** Where a deployment's refusal of an API is remembered (default: the session's, shared by both chats). */
  apiMemory?: ApiMemory;
  signal: AbortSignal;
  onText: (text: string) => void;
  /** Pieces of a reasoning model's summary of its thinking. */
  onReasoning?: (text: string) => void;
  /** Each whole tool call, under the tool's own name. */
  onToolCall?: (call: CompletedToolCall) => void;
  /** Each second of a rate-limit wait (RunnerOptions.waitOutRateLimits). */
  onRetryWait?: (secondsLeft: number) => void;
  /** One report per request sent; it must not throw (what it throws is ignored). */
  onReport?: (report: RequestReport) => void;
}

export function profileOf(request: Pick<RunRequest, 'model' | 'deployment'>): ModelProfile {
  return modelProfile(request.model || request.deployment);
}

export async function runChat(request: RunRequest, options: RunnerOptions): Promise<RunResult> {
  const run = new Run(request, options);
  const memory = request.apiMemory ?? sessionApiMemory;
  const { endpoint } = request.client;
  const api = chooseApi({ profile: run.profile, chosen: request.api, memory, endpoint, deployment: request.deployment });
  if (api === 'chat') {
    try {
      return await run.chat();
    } catch (err) {
      // Refused before anything was generated: the same conversation on the Responses API is safe.
      if (!refusesChat(err)) throw err;
      memory.remember(endpoint, request.deployment, 'responses');
      run.notes.push(`${request.deployment} is served only on the Responses API, so this reply came from it (remembered for this deployment).`);
    }
  }
  return run.responses();
}

type Send<R> = (call: StreamCall, request: R) => Promise<void>;

class Run {
  readonly profile: ModelProfile;
  readonly notes: string[] = [];
  private readonly started = Date.now();
  private readonly names: ToolNames;
  private readonly waits?: RateLimitWaits;
  private sent = 0;

  constructor(
    private readonly request: RunRequest,
    private readonly options: RunnerOptions,
  ) {
    this.profile = profileOf(request);
    this.names = new ToolNames((request.tools ?? []).map((t) => t.name));
    const { signal, onRetryWait } = request;
    if (options.waitOutRateLimits) this.waits = new RateLimitWaits({ signal, onRetryWait, maxRetryWaitMs: options.maxRetryWaitMs });
  }

  private build() {
    const r = this.request;
    const { deployment, messages, tools, toolMode } = r;
    return { deployment, profile: this.profile, messages, tools, toolMode, options: r.sampling, toolNames: this.names, notes: this.notes };
  }

  chat(): Promise<RunResult> {
    const { route, apiVersion } = this.request;
    const send: Send<ChatRequest> = (call, req) => streamChatReply(call, req, { route, apiVersion });
    return this.loop('chat', buildChatRequest(this.build()), adaptAfterRefusal, send);
  }

  responses(): Promise<RunResult> {
    const c = this.request.continuation;
    const build = { ...this.build(), store: this.options.store, reasoningSummary: this.options.reasoningSummaries };
    const request = buildResponseRequest(c ? { ...build, messages: c.messages, previousResponseId: c.previousResponseId } : build);
    return this.loop('responses', request, (req, err) => adaptResponseAfterRefusal(req, err) || this.lostStoredReply(req, err), streamResponsesReply);
  }

  /** The service no longer has the stored reply (deleted, expired, another resource): send the whole conversation. */
  private lostStoredReply(req: ResponseRequest, err: Refusal & { code?: string }): boolean {
    if (!req.previous_response_id || (err.param !== 'previous_response_id' && err.code !== 'previous_response_not_found')) return false;
    setResponseInput(req, { ...this.build(), previousResponseId: undefined }, this.names);
    return true;
  }

  /** Sends `req` until it is answered, adapting it (`adapt`) or waiting, as long as nothing of a reply arrived. */
  private async loop<R>(api: ChatApi, req: R, adapt: (req: R, err: Refusal & { code?: string }) => boolean, send: Send<R>): Promise<RunResult> {
    for (;;) {
      const reply = new Reply();
      const clock = new RequestClock();
      this.sent++;
      try {
        await send({ client: this.request.client, signal: this.request.signal, sink: this.sink(clock), reply, onHeaders: (_s, h) => (clock.headers = h) }, req);
      } catch (err) {
        if (this.request.signal.aborted) return this.end(api, reply, clock, true);
        this.report(api, reply, clock, failureOf(err));
        if (reply.arrived || !(err instanceof ServiceError)) throw err;
        const adapted = adaptNoting(adapt, req, err, this.request.deployment, this.notes);
        if (!adapted && !(this.waits && err.status === 429)) throw err;
        // Past the limit, the refusal is reported with why nothing more is sent.
        if (this.sent >= MAX_REQUESTS) throw err.withHint(l10n.t('The service kept rejecting the request parameters.'));
        if (adapted) continue;
        const waited = await this.waits!.after(err);
        if (waited === 'stopped') return this.result(api, reply, true);
        if (waited === 'retry') continue;
        throw err;
      }
      return this.end(api, reply, clock, false);
    }
  }

  /** A reply that came to its end, or was stopped: reported, and said if the content filter ended it. */
  private end(api: ChatApi, reply: Reply, clock: RequestClock, stopped: boolean): RunResult {
    const filtered = reply.filtered && new ReplyFilteredError(this.request.deployment, reply.filtered);
    this.report(api, reply, clock, { outcome: stopped ? 'stopped' : filtered ? 'content_filter' : 'ok' });
    if (filtered && this.options.failFiltered) throw filtered;
    if (filtered) this.notes.push(filtered.message);
    return this.result(api, reply, stopped);
  }

  private result(api: ChatApi, reply: Reply, stopped: boolean): RunResult {
    const r: RunResult = { content: reply.content, finishReason: reply.finishReason, latencyMs: Date.now() - this.started, stopped, api };
    if (reply.usage) r.usage = reply.usage;
    if (reply.model) r.model = reply.model;
    if (reply.reasoningSummary) r.reasoningSummary = reply.reasoningSummary;
    if (reply.responseId) r.responseId = reply.responseId;
    if (this.notes.length) r.notes = [...this.notes];
    if (reply.verdicts.length) r.filterVerdicts = [...reply.verdicts];
    return r;
  }

  private report(api: ChatApi, reply: Reply, clock: RequestClock, end: Pick<RequestReport, 'outcome' | 'status' | 'retryAfterMs'>): void {
    const r = this.request;
    const report = clock.report({ source: this.options.source, deployment: r.deployment, api, route: api === 'chat' ? (r.route ?? 'v1') : 'v1', attempt: this.sent, ...end });
    if (r.connection !== undefined) report.connection = r.connection;
    const model = reply.model ?? r.model;
    if (model) report.model = model;
    const tokens = tokensOf(reply.usage);
    if (tokens) report.tokens = tokens;
    try {
      r.onReport?.(report);
    } catch {
      // A listener's trouble is not the reply's.
    }
  }

  /** The request's hooks, with the first visible piece timed and tool calls under their own names. */
  private sink(clock: RequestClock): ReplySink {
    const r = this.request;
    return {
      onText: (text) => (clock.firstToken(), r.onText(text)),
      onReasoning: (text) => (clock.firstToken(), r.onReasoning?.(text)),
      onToolCall: (call) => {
        clock.firstToken();
        const name = this.names.offered(call.name);
        if (name === undefined) throw new UnofferedToolError(call.name, r.deployment);
        r.onToolCall?.({ ...call, name });
      },
    };
  }
}
