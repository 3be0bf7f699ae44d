/**
 * Neutral messages and tools → a Chat Completions request: tool calls ride on the assistant
 * message, each tool result becomes a `tool` message right after it, images become `image_url`
 * parts with a `data:` URL. The parameters go through the same adaptation as the chat panel.
 */
import type { ChatContentPart, ChatRequest, ChatToolCall, RichChatMessage } from '../../service/types';
import type { ModelProfile } from '../modelProfile';
import type { LmImage, LmMessage, LmText, LmTool, LmToolMode } from './messages';
import type { LmModelOptions } from './modelOptions';
import { setTokenLimit } from '../paramAdaptation';
import { argumentsOf, checkImages as checkModelImages, dataUrl, textOf } from './parts';
import { ToolNames } from './toolNames';

export { UnsupportedInputError } from './parts';

function userContent(parts: Array<LmText | LmImage>): string | ChatContentPart[] {
  if (parts.every((p) => p.type === 'text')) return textOf(parts);
  return parts.map((p): ChatContentPart => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: dataUrl(p) } }));
}

export function toChatMessages(
  messages: readonly LmMessage[],
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
    const images: LmImage[] = [];
    for (const p of m.parts) {
      if (p.type !== 'toolResult') continue;
      checkImages(p.parts);
      out.push({ role: 'tool', tool_call_id: p.callId, content: textOf(p.parts) });
      images.push(...p.parts.filter((q): q is LmImage => q.type === 'image'));
    }
    const rest = m.parts.filter((p): p is LmText | LmImage => p.type === 'text' || p.type === 'image');
    // A tool message carries text only: images a tool returned go along in the user message.
    const content = [...images, ...rest];
    if (content.length) out.push({ role: 'user', content: userContent(content), ...(m.name ? { name: m.name } : {}) });
  }
  return out;
}

export interface ChatRequestInput {
  deployment: string;
  profile: ModelProfile;
  messages: readonly LmMessage[];
  tools?: readonly LmTool[];
  toolMode?: LmToolMode;
  options: LmModelOptions;
  /** Wire names of the tools (made from the tools when not given). */
  toolNames?: ToolNames;
}

export function buildChatRequest(input: ChatRequestInput): ChatRequest {
  const { profile, options } = input;
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
  // Reasoning models refuse sampling parameters: not sent, rather than refused and resent.
  if (!profile.reasoning) {
    // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
    if (options.temperature !== undefined) request.temperature = options.temperature;
    // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
    if (options.topP !== undefined) request.top_p = options.topP;
  } else {
    // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
    if (options.reasoningEffort !== undefined) request.reasoning_effort = options.reasoningEffort;
  }
  if (options.maxTokens !== undefined) setTokenLimit(request, options.maxTokens, profile);
  return request;
}
