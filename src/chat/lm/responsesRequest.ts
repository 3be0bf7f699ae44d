/**
 * Neutral messages and tools → a Responses API request: system messages become `instructions`,
 * text and images become `input_text` / `input_image` parts, a tool call the model made is a
 * `function_call` item and each result a `function_call_output` item right after it. Nothing is
 * stored on the service: the consumer sends the whole conversation every time.
 */
import type { ResponseContentPart, ResponseInputItem, ResponseRequest } from '../../service/types';
import type { ModelProfile } from '../modelProfile';
import { setOutputLimit } from '../paramAdaptation';
import type { ChatRequestInput } from './chatCompletions';
import type { LmImage, LmMessage, LmText } from './messages';
import { argumentsOf, checkImages, dataUrl, textOf } from './parts';
import { ToolNames } from './toolNames';

function content(parts: ReadonlyArray<LmText | LmImage>): string | ResponseContentPart[] {
  if (parts.every((p) => p.type === 'text')) return textOf(parts);
  return parts.map((p): ResponseContentPart => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: dataUrl(p) }));
}

export function toResponseItems(
  messages: readonly LmMessage[],
  profile: Pick<ModelProfile, 'imageInput' | 'family'>,
  deployment: string,
  names = new ToolNames(),
): { instructions?: string; input: ResponseInputItem[] } {
  const system: string[] = [];
  const input: ResponseInputItem[] = [];
  for (const m of messages) {
    checkImages(m.parts, profile, deployment);
    if (m.role === 'system') {
      system.push(textOf(m.parts));
      continue;
    }
    if (m.role === 'assistant') {
      const text = textOf(m.parts);
      if (text) input.push({ role: 'assistant', content: text });
      for (const p of m.parts) {
        if (p.type === 'toolCall') input.push({ type: 'function_call', call_id: p.callId, name: names.wire(p.name), arguments: argumentsOf(p.input) });
      }
      continue;
    }
    // Tool results first (each answers a call above), then what the user said.
    const images: LmImage[] = [];
    for (const p of m.parts) {
      if (p.type !== 'toolResult') continue;
      checkImages(p.parts, profile, deployment);
      input.push({ type: 'function_call_output', call_id: p.callId, output: textOf(p.parts) });
      images.push(...p.parts.filter((q): q is LmImage => q.type === 'image'));
    }
    // A function's output is text: images a tool returned go along in the user message.
    const rest = [...images, ...m.parts.filter((p): p is LmText | LmImage => p.type === 'text' || p.type === 'image')];
    if (rest.length) input.push({ role: 'user', content: content(rest) });
  }
  const instructions = system.filter(Boolean).join('\n\n');
  return { ...(instructions ? { instructions } : {}), input };
}

export function buildResponseRequest(input: ChatRequestInput): ResponseRequest {
  const { profile, options } = input;
  const names = input.toolNames ?? new ToolNames((input.tools ?? []).map((t) => t.name));
  const request: ResponseRequest = { model: input.deployment, ...toResponseItems(input.messages, profile, input.deployment, names), store: false };
  if (input.tools?.length) {
    request.tools = input.tools.map((t) => ({ type: 'function', name: names.wire(t.name), description: t.description, parameters: t.inputSchema ?? { type: 'object', properties: {} } }));
    if (input.toolMode === 'required') request.tool_choice = 'required';
  }
  // Reasoning models refuse sampling parameters: not sent, rather than refused and resent.
  if (!profile.reasoning) {
    // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
    if (options.temperature !== undefined) request.temperature = options.temperature;
    // Stryker disable next-line ConditionalExpression: a field left undefined is not sent
    if (options.topP !== undefined) request.top_p = options.topP;
  } else if (options.reasoningEffort !== undefined) {
    request.reasoning = { effort: options.reasoningEffort };
  }
  if (options.maxTokens !== undefined) setOutputLimit(request, options.maxTokens);
  return request;
}
