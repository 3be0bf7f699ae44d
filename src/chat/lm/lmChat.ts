/**
 * One request of a language model consumer (VS Code's chat, another extension) to a deployment:
 * builds it for the model, streams text and whole tool calls back as they arrive, adapts once
 * to a refused parameter before anything arrived, and never retries after the first chunk.
 * Cancelling (the signal) ends the request at once and closes the connection.
 */
import type { AzureOpenAIClient, ChatOptions } from '../../service/client';
import { filteredCategories } from '../../service/errors';
import type { ChatRequest, Usage } from '../../service/types';
import { modelProfile, type ModelProfile } from '../modelProfile';
import { adaptAfterRefusal, type Refusal } from '../paramAdaptation';
import { buildChatRequest } from './chatCompletions';
import type { LmMessage, LmTool, LmToolMode } from './messages';
import { readModelOptions } from './modelOptions';
import { lmRoute } from './route';
import { ToolCallAccumulator, type CompletedToolCall } from './toolCalls';
import { ToolNames } from './toolNames';

export interface LmChatInput {
  client: Pick<AzureOpenAIClient, 'streamChatCompletion'>;
  deployment: string;
  /** The deployment's model name (decides the parameters); the deployment name stands in when unknown. */
  model?: string;
  messages: readonly LmMessage[];
  tools?: readonly LmTool[];
  toolMode?: LmToolMode;
  /** As the consumer passed them; checked here. */
  modelOptions?: Readonly<Record<string, unknown>>;
  signal: AbortSignal;
  onText: (text: string) => void;
  onToolCall: (call: CompletedToolCall) => void;
  /** Chat options for the client (route, api-version). */
  chatOptions?: Pick<ChatOptions, 'route' | 'apiVersion'>;
}

export interface LmChatResult {
  usage?: Usage;
  /** The model that answered, as the service names it (e.g. `gpt-4o-2024-11-20`). */
  model?: string;
  finishReason: string | null;
  /** The signal fired: the reply ends where it was. */
  stopped: boolean;
}

/** The content filter ended a reply that had begun. */
export class ReplyFilteredError extends Error {
  override readonly name = 'ReplyFilteredError';
}

/** The deployment's model is not served on any API the provider speaks yet. */
export class NoRouteError extends Error {
  override readonly name = 'NoRouteError';
}

/** Refused parameters are dropped one at a time; a bound, so a confused service cannot loop us. */
const MAX_ADAPTATIONS = 4;

export function lmProfile(input: Pick<LmChatInput, 'model' | 'deployment'>): ModelProfile {
  return modelProfile(input.model || input.deployment);
}

export async function runLmChat(input: LmChatInput): Promise<LmChatResult> {
  const profile = lmProfile(input);
  const route = lmRoute(profile);
  if (route !== 'chat') {
    throw new NoRouteError(
      `The deployment "${input.deployment}" (${profile.family}) answers on the Responses API only, which this provider does not speak yet. ` +
        'Use it from the Azure OpenAI chat panel, or pick another deployment.',
    );
  }
  const toolNames = new ToolNames((input.tools ?? []).map((t) => t.name));
  const request = buildChatRequest({
    toolNames,
    deployment: input.deployment,
    profile,
    messages: input.messages,
    tools: input.tools,
    toolMode: input.toolMode,
    options: readModelOptions(input.modelOptions),
  });
  for (let attempt = 0; ; attempt++) {
    const result: LmChatResult = { finishReason: null, stopped: false };
    let arrived = false;
    try {
      // Calls come back under the tools' own names.
      const onToolCall = (call: CompletedToolCall) => input.onToolCall({ ...call, name: toolNames.original(call.name) });
      await stream({ ...input, onToolCall }, request, result, () => (arrived = true));
      return result;
    } catch (err) {
      if (input.signal.aborted) return { ...result, stopped: true };
      // Refused before anything arrived: the service did nothing, so the adapted request may go.
      if (!arrived && attempt < MAX_ADAPTATIONS && adaptAfterRefusal(request, err as Refusal)) continue;
      throw err;
    }
  }
}

async function stream(input: LmChatInput, request: ChatRequest, result: LmChatResult, onFirstChunk: () => void): Promise<void> {
  const calls = new ToolCallAccumulator();
  let filtered: string[] | undefined;
  const options: ChatOptions = { ...input.chatOptions, signal: input.signal, retryRateLimits: false };
  for await (const chunk of input.client.streamChatCompletion(request, options)) {
    onFirstChunk();
    if (chunk.model) result.model = chunk.model;
    if (chunk.usage) result.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) continue;
    if (choice.delta?.content) input.onText(choice.delta.content);
    calls.add(choice.delta?.tool_calls);
    if (choice.finish_reason) {
      result.finishReason = choice.finish_reason;
      if (choice.finish_reason === 'content_filter') filtered = filteredCategories(choice.content_filter_results);
      // Whole calls go out as soon as the model says it is done with them.
      if (calls.pending) calls.take().forEach(input.onToolCall);
    }
  }
  if (calls.pending) calls.take().forEach(input.onToolCall);
  if (filtered) {
    const cats = filtered.length ? ` (${filtered.join(', ')})` : '';
    throw new ReplyFilteredError(`The content filter stopped the reply of "${input.deployment}" part way${cats}. Rephrase the request and send it again.`);
  }
}
