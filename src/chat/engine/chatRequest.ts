/**
 * Neutral messages and tools → a Chat Completions request: tool calls ride on the assistant
 * message, each tool result becomes a `tool` message right after it, images become `image_url`
 * parts. The parameters are the ones the model takes (see samplingFor), adapted as the service
 * asks (paramAdaptation.ts).
 */
import * as l10n from '@vscode/l10n';
import type { ChatContentPart, ChatRequest, ChatToolCall, RichChatMessage } from '../../service/types';
import type { ModelProfile } from '../modelProfile';
import { setTokenLimit } from '../paramAdaptation';
import type { ImagePart, NeutralMessage, OfferedTool, TextPart, ToolMode } from './messages';
import { argumentsOf, checkImages as checkModelImages, dataUrl, textOf } from './parts';
import { ToolNames } from './toolNames';

export { UnsupportedInputError } from './parts';

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** What the user (the panel's settings) or the consumer (`modelOptions`) asked of the model. */
export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** prompt_cache_key: requests that share it are routed to the same cache (both APIs, the v1 route). */
  promptCacheKey?: string;
  /** prompt_cache_retention: how long a cached prefix may stay (24h: up to a day). */
  promptCacheRetention?: PromptCacheRetention;
}

export type PromptCacheRetention = 'in_memory' | '24h';

/** The prompt cache options as both APIs name them (prompt_cache_key, prompt_cache_retention), those set. */
export function cacheFields(options: SamplingOptions): { prompt_cache_key?: string; prompt_cache_retention?: PromptCacheRetention } {
  return {
    ...(options.promptCacheKey ? { prompt_cache_key: options.promptCacheKey } : {}),
    ...(options.promptCacheRetention ? { prompt_cache_retention: options.promptCacheRetention } : {}),
  };
}

export interface BuildInput {
  deployment: string;
  profile: ModelProfile;
  messages: readonly NeutralMessage[];
  tools?: readonly OfferedTool[];
  toolMode?: ToolMode;
  options: SamplingOptions;
  /** Wire names of the tools (made from the tools when not given). */
  toolNames?: ToolNames;
  /** Where a parameter left out or changed is said, for the reply to show. */
  notes?: string[];
}

/**
 * The sampling settings this model takes, on either API: a reasoning model never gets
 * `temperature`/`top_p` (it would refuse them), a model known not to reason never gets an effort.
 * What was asked for and left out is said in `notes`.
 */
export function samplingFor(input: Pick<BuildInput, 'profile' | 'options' | 'deployment' | 'notes'>): SamplingOptions {
  const { profile, options, deployment } = input;
  const out: SamplingOptions = { ...options };
  const left: string[] = [];
  if (profile.reasoning) {
    if (out.temperature !== undefined) left.push(l10n.t('Temperature was left out: {0} does not take it.', deployment));
    if (out.topP !== undefined) left.push(l10n.t('Top P was left out: {0} does not take it.', deployment));
    delete out.temperature;
    delete out.topP;
  } else if (profile.known && out.reasoningEffort !== undefined) {
    left.push(l10n.t('Reasoning settings were left out: {0} does not take them.', deployment));
    delete out.reasoningEffort;
  }
  input.notes?.push(...left);
  return out;
}

function userContent(parts: Array<TextPart | ImagePart>): string | ChatContentPart[] {
  if (parts.every((p) => p.type === 'text')) return textOf(parts);
  return parts.map((p): ChatContentPart => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: dataUrl(p), ...(p.detail ? { detail: p.detail } : {}) } }));
}

export function toChatMessages(
  messages: readonly NeutralMessage[],
  profile: Pick<ModelProfile, 'imageInput' | 'family'>,
  deployment: string,
  names = new ToolNames(),
): RichChatMessage[] {
  const out: RichChatMessage[] = [];
  const checkImages = (parts: ReadonlyArray<{ type: string }>) => checkModelImages(parts, profile, deployment);
  for (const m of messages) {
    checkImages(m.parts);
    if (m.role === 'system') {
      out.push({ role: 'system', content: textOf(m.parts) });
      continue;
    }
    if (m.role === 'assistant') {
      const toolCalls: ChatToolCall[] = m.parts
        .filter((p) => p.type === 'toolCall')
        .map((p) => ({ id: p.callId, type: 'function', function: { name: names.wire(p.name), arguments: argumentsOf(p.input) } }));
      const text = textOf(m.parts);
      out.push({ role: 'assistant', content: text || (toolCalls.length ? null : ''), ...(toolCalls.length ? { tool_calls: toolCalls } : {}), ...(m.name ? { name: m.name } : {}) });
      continue;
    }
    // A user message: tool results first (they must follow the assistant's calls), then the rest.
    const images: ImagePart[] = [];
    for (const p of m.parts) {
      if (p.type !== 'toolResult') continue;
      checkImages(p.parts);
      out.push({ role: 'tool', tool_call_id: p.callId, content: textOf(p.parts) });
      images.push(...p.parts.filter((q): q is ImagePart => q.type === 'image'));
    }
    const rest = m.parts.filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image');
    // A tool message carries text only: images a tool returned go along in the user message.
    const content = [...images, ...rest];
    if (content.length) out.push({ role: 'user', content: userContent(content), ...(m.name ? { name: m.name } : {}) });
  }
  return out;
}

export function buildChatRequest(input: BuildInput): ChatRequest {
  const { profile } = input;
  const options = samplingFor(input);
  const names = input.toolNames ?? new ToolNames((input.tools ?? []).map((t) => t.name));
  const request: ChatRequest = {
    deployment: input.deployment,
    messages: toChatMessages(input.messages, profile, input.deployment, names),
    stream_options: { include_usage: true },
  };
  if (input.tools?.length) {
    request.tools = input.tools.map((t) => ({
      type: 'function',
      function: { name: names.wire(t.name), description: t.description, parameters: t.inputSchema ?? { type: 'object', properties: {} } },
    }));
    if (input.toolMode === 'required') request.tool_choice = 'required';
  }
  // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
  if (options.temperature !== undefined) request.temperature = options.temperature;
  // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
  if (options.topP !== undefined) request.top_p = options.topP;
  // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
  if (options.reasoningEffort !== undefined) request.reasoning_effort = options.reasoningEffort;
  if (options.maxTokens !== undefined) setTokenLimit(request, options.maxTokens, profile);
  return Object.assign(request, cacheFields(options));
}
