/**
 * One request of a language model consumer (VS Code's chat, another extension) to a deployment:
 * picks the API the way the chat panel does (the model's preferred one, or the one the service
 * turned out to need), builds the request for the model, streams text and whole tool calls back
 * as they arrive, adapts once to a refused parameter before anything arrived, and never retries
 * after the first chunk. Cancelling (the signal) ends the request at once and closes the connection.
 */
import type { ChatOptions } from '../../service/client';
import { filteredCategories } from '../../service/errors';
import type { ChatRequest } from '../../service/types';
import { refusesChat, sessionApiMemory, type ApiMemory } from '../apiMemory';
import { modelProfile, type ModelProfile } from '../modelProfile';
import { adaptAfterRefusal, adaptResponseAfterRefusal, type Refusal } from '../paramAdaptation';
import { buildChatRequest, type ChatRequestInput } from './chatCompletions';
import type { LmMessage, LmTool, LmToolMode } from './messages';
import { readModelOptions } from './modelOptions';
import { ReplyFilteredError, type LmChatResult, type LmReplyTarget } from './reply';
import { buildResponseRequest } from './responsesRequest';
import { streamResponseReply } from './responsesReply';
import { lmRoute } from './route';
import { ToolCallAccumulator } from './toolCalls';
import { ToolNames } from './toolNames';

export { ReplyFilteredError, type LmChatResult } from './reply';

export interface LmChatInput extends LmReplyTarget {
  /** The deployment's model name (decides the API and the parameters); the deployment name stands in when unknown. */
  model?: string;
  messages: readonly LmMessage[];
  tools?: readonly LmTool[];
  toolMode?: LmToolMode;
  /** As the consumer passed them; checked here. */
  modelOptions?: Readonly<Record<string, unknown>>;
  /** Where a deployment's refusal of Chat Completions is remembered (default: the session's, shared with the chat panel). */
  apiMemory?: ApiMemory;
}

/** The deployment's model is not served on any API the provider speaks. */
export class NoRouteError extends Error {
  // Stryker disable next-line StringLiteral: thrown only for a profile with no API the provider speaks, and there is none today
  override readonly name = 'NoRouteError';
}

/** Refused parameters are dropped one at a time; a bound, so a confused service cannot loop us. */
const MAX_ADAPTATIONS = 4;

export function lmProfile(input: Pick<LmChatInput, 'model' | 'deployment'>): ModelProfile {
  return modelProfile(input.model || input.deployment);
}

export async function runLmChat(input: LmChatInput): Promise<LmChatResult> {
  const profile = lmProfile(input);
  const memory = input.apiMemory ?? sessionApiMemory;
  const endpoint = input.client.endpoint;
  const api = memory.get(endpoint, input.deployment) ?? lmRoute(profile);
  // Stryker disable next-line ConditionalExpression,StringLiteral: every profile today has an API the provider speaks (see route.ts)
  if (!api) throw new NoRouteError(`The deployment "${input.deployment}" (${profile.family}) is not served on an API this provider speaks. Pick another deployment.`);
  const toolNames = new ToolNames((input.tools ?? []).map((t) => t.name));
  // Calls come back under the tools' own names.
  const target: LmReplyTarget = { ...input, onToolCall: (call) => input.onToolCall({ ...call, name: toolNames.original(call.name) }) };
  const build: ChatRequestInput = { ...input, toolNames, profile, options: readModelOptions(input.modelOptions) };
  if (api === 'chat') {
    try {
      return await adapting(target, buildChatRequest(build), adaptAfterRefusal, streamChatReply, 'chat');
    } catch (err) {
      // Refused before anything was generated: the same conversation on the Responses API is safe.
      if (!refusesChat(err)) throw err;
      memory.remember(endpoint, input.deployment, 'responses');
    }
  }
  return adapting(target, buildResponseRequest(build), adaptResponseAfterRefusal, streamResponseReply, 'responses');
}

type Stream<R> = (target: LmReplyTarget, request: R, result: LmChatResult, onFirstChunk: () => void) => Promise<void>;

/** Sends `request`; a refused parameter is adapted and the request sent again, as long as nothing arrived. */
async function adapting<R>(target: LmReplyTarget, request: R, adapt: (request: R, err: Refusal) => boolean, stream: Stream<R>, api: LmChatResult['api']): Promise<LmChatResult> {
  for (let attempt = 0; ; attempt++) {
    const result: LmChatResult = { finishReason: null, stopped: false, api };
    let arrived = false;
    try {
      // Stryker disable next-line ArrowFunction,BooleanLiteral: an error after the first chunk has no HTTP status, so adapt() refuses it anyway; the flag keeps it so
      await stream(target, request, result, () => (arrived = true));
      return result;
    } catch (err) {
      if (target.signal.aborted) return { ...result, stopped: true };
      // Refused before anything arrived: the service did nothing, so the adapted request may go.
      if (!arrived && attempt < MAX_ADAPTATIONS && adapt(request, err as Refusal)) continue;
      throw err;
    }
  }
}

async function streamChatReply(target: LmReplyTarget, request: ChatRequest, result: LmChatResult, onFirstChunk: () => void): Promise<void> {
  const calls = new ToolCallAccumulator();
  let filtered: string[] | undefined;
  const options: ChatOptions = { ...target.chatOptions, signal: target.signal, retryRateLimits: false };
  for await (const chunk of target.client.streamChatCompletion(request, options)) {
    // Stryker disable next-line BlockStatement,CallExpression: see `arrived` in adapting()
    onFirstChunk();
    if (chunk.model) result.model = chunk.model;
    if (chunk.usage) result.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) continue;
    if (choice.delta?.content) target.onText(choice.delta.content);
    calls.add(choice.delta?.tool_calls);
    if (choice.finish_reason) {
      result.finishReason = choice.finish_reason;
      if (choice.finish_reason === 'content_filter') filtered = filteredCategories(choice.content_filter_results);
      // Whole calls go out as soon as the model says it is done with them.
      calls.take().forEach(target.onToolCall);
    }
  }
  calls.take().forEach(target.onToolCall);
  if (filtered) throw new ReplyFilteredError(target.deployment, filtered);
}

