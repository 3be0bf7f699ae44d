/**
 * Runs one chat request the way a careful user would: picks the API (Chat Completions or
 * Responses) and the token-limit parameter the model family takes, falls back when the service
 * rejects a parameter or the API, and waits out a 429 with a visible countdown before trying
 * again. Streams text through `onDelta`, a reasoning summary through `onReasoning`.
 */
import { ChatAccumulator } from '../service/chatStream';
import type { AzureOpenAIClient } from '../service/client';
import { ServiceError } from '../service/errors';
import type { ChatMessage, ChatRequest, Usage } from '../service/types';
import { refusesChat, sessionApiMemory, type ApiMemory } from './apiMemory';
import type { Continuation } from './continuation';
import { RateLimitWaits } from './countdown';
import { modelProfile, type ChatApi } from './modelProfile';
import { adaptAfterRefusal, adaptNoting, setTokenLimit } from './paramAdaptation';
import type { ChatErrorInfo, ChatParams } from './protocol';
import { runResponses } from './responsesEngine';

export interface RunInput {
  client: AzureOpenAIClient;
  deployment: string;
  /** The model name if known (decides max_tokens vs max_completion_tokens up front). */
  model?: string;
  messages: ChatMessage[];
  params: ChatParams;
  signal: AbortSignal;
  onDelta: (text: string) => void;
  /** Called each second while waiting for a rate limit to pass. */
  onRetryWait?: (secondsLeft: number) => void;
  /** Longest rate-limit wait that is retried automatically. */
  maxRetryWaitMs?: number;
  /** Pieces of a reasoning model's summary of its thinking (Responses API). */
  onReasoning?: (text: string) => void;
  /** Where a deployment's refusal of an API is remembered (default: the session's). */
  apiMemory?: ApiMemory;
  /** On the Responses API: continue from the service's copy of the conversation. */
  continuation?: Continuation;
}

export interface RunResult {
  content: string;
  usage?: Usage;
  model?: string;
  finishReason: string | null;
  latencyMs: number;
  stopped: boolean;
  api?: ChatApi;
  reasoningSummary?: string;
  responseId?: string;
  /** What was changed to get an answer, for the reply to say. */
  notes?: string[];
}


export function errorInfo(err: unknown): ChatErrorInfo {
  if (err instanceof ServiceError) {
    return { message: err.message, kind: err.kind, status: err.status, code: err.code, retryAfterMs: err.retryAfterMs };
  }
  return { message: err instanceof Error ? err.message : String(err), kind: 'unknown' };
}

export async function runChat(input: RunInput): Promise<RunResult> {
  const profile = modelProfile(input.model ?? input.deployment);
  const memory = input.apiMemory ?? sessionApiMemory;
  const endpoint = input.client.endpoint;
  const notes: string[] = [];
  const api = input.params.api ?? memory.get(endpoint, input.deployment) ?? profile.preferredApi;
  if (api === 'responses') return withNotes(await runResponses(input, profile, notes), notes);
  try {
    return withNotes({ ...(await runChatCompletions(input, notes)), api: 'chat' }, notes);
  } catch (err) {
    // Refused before anything was generated: the same request on the Responses API is safe.
    if (!refusesChat(err)) throw err;
    memory.remember(endpoint, input.deployment, 'responses');
    notes.push(`${input.deployment} is served only on the Responses API, so this reply came from it (remembered for this deployment).`);
    return withNotes(await runResponses(input, profile, notes), notes);
  }
}

function withNotes(r: RunResult, notes: string[]): RunResult {
  return notes.length ? { ...r, notes: [...notes] } : r;
}

async function runChatCompletions(input: RunInput, notes: string[]): Promise<RunResult> {
  const p = input.params;
  const request: ChatRequest = { deployment: input.deployment, messages: input.messages, stream_options: { include_usage: true } };
  if (p.temperature !== undefined) request.temperature = p.temperature;
  if (p.topP !== undefined) request.top_p = p.topP;
  if (p.maxTokens !== undefined) setTokenLimit(request, p.maxTokens, modelProfile(input.model ?? input.deployment));
  const t0 = Date.now();
  const rateWaits = new RateLimitWaits(input);
  for (let attempt = 0; attempt < 6; attempt++) {
    const reply = new ChatAccumulator();
    const options = { route: p.route, apiVersion: p.apiVersion, signal: input.signal, retryRateLimits: false };
    const result = (stopped: boolean): RunResult => {
      const { content, usage, model, finishReason } = reply;
      return { content, usage, model, finishReason, latencyMs: Date.now() - t0, stopped };
    };
    try {
      await input.client.streamChat(request, input.onDelta, options, reply);
      return result(false);
    } catch (err) {
      if (input.signal.aborted) return result(true);
      if (!(err instanceof ServiceError) || reply.content) throw err;
      // A parameter this model does not take: send the request the way it wants it.
      if (adaptNoting(adaptAfterRefusal, request, err, input.deployment, notes)) continue;
      const waited = await rateWaits.after(err);
      if (waited === 'stopped') return result(true);
      if (waited === 'retry') continue;
      throw err;
    }
  }
  throw new Error('The service kept rejecting the request parameters.');
}
