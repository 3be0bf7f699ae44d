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
import { sessionApiMemory, type ApiMemory } from './apiMemory';
import type { Continuation } from './continuation';
import { waitWithCountdown } from './countdown';
import { modelProfile, type ChatApi } from './modelProfile';
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

/** The service's answer when a model is not served on Chat Completions (codex, -pro models). */
function refusesChat(err: unknown): boolean {
  return err instanceof ServiceError && err.status === 400 && err.code === 'OperationNotSupported';
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
  if (p.maxTokens !== undefined) {
    if (modelProfile(input.model ?? input.deployment).reasoning) request.max_completion_tokens = p.maxTokens;
    else request.max_tokens = p.maxTokens;
  }
  const t0 = Date.now();
  let rateRetries = 0;
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
      if (err.status === 400 && err.param === 'max_tokens' && request.max_tokens !== undefined) {
        request.max_completion_tokens = request.max_tokens;
        delete request.max_tokens;
        continue;
      }
      if (err.status === 400 && err.param === 'max_completion_tokens' && request.max_completion_tokens !== undefined) {
        request.max_tokens = request.max_completion_tokens;
        delete request.max_completion_tokens;
        continue;
      }
      if (err.status === 400 && (err.param === 'temperature' || err.param === 'top_p') && request[err.param] !== undefined) {
        delete request[err.param];
        notes.push(`${err.param === 'temperature' ? 'Temperature' : 'Top P'} was left out: ${input.deployment} does not take it.`);
        continue;
      }
      const wait = err.retryAfterMs ?? 5_000;
      if (err.status === 429 && rateRetries < 2 && wait <= (input.maxRetryWaitMs ?? 60_000)) {
        rateRetries++;
        try {
          await waitWithCountdown(Math.max(wait, 1000), input.signal, input.onRetryWait);
        } catch {
          return result(true);
        }
        continue;
      }
      throw err;
    }
  }
  throw new Error('The service kept rejecting the request parameters.');
}
