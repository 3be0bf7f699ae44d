/**
 * Neutral messages and tools → a Responses API request: system messages become `instructions`,
 * text and images become `input_text` / `input_image` parts, a tool call the model made is a
 * `function_call` item and each result a `function_call_output` item right after it. The same
 * parameter rules as Chat Completions (samplingFor in chatRequest.ts).
 */
import type { ResponseContentPart, ResponseInputItem, ResponseRequest } from '../../service/types';
import type { ModelProfile } from '../modelProfile';
import { setOutputLimit } from '../paramAdaptation';
import { cacheFields, samplingFor, type BuildInput } from './chatRequest';
import type { ImagePart, NeutralMessage, TextPart } from './messages';
import { argumentsOf, checkImages, dataUrl, textOf } from './parts';
import { ToolNames } from './toolNames';

export interface ResponsesBuildInput extends BuildInput {
  /** Kept on the service, so that the next turn can continue from it (see RunnerOptions.store). */
  store?: boolean;
  /** Ask a reasoning model for a summary of its thinking (see RunnerOptions.reasoningSummaries). */
  reasoningSummary?: boolean;
  /** Continue from this stored reply: `messages` are then only what was said since. */
  previousResponseId?: string;
}

function content(parts: ReadonlyArray<TextPart | ImagePart>): string | ResponseContentPart[] {
  if (parts.every((p) => p.type === 'text')) return textOf(parts);
  return parts.map((p): ResponseContentPart => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: dataUrl(p), ...(p.detail ? { detail: p.detail } : {}) }));
}

export function toResponseItems(
  messages: readonly NeutralMessage[],
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
    const images: ImagePart[] = [];
    for (const p of m.parts) {
      if (p.type !== 'toolResult') continue;
      checkImages(p.parts, profile, deployment);
      input.push({ type: 'function_call_output', call_id: p.callId, output: textOf(p.parts) });
      images.push(...p.parts.filter((q): q is ImagePart => q.type === 'image'));
    }
    // A function's output is text: images a tool returned go along in the user message.
    const rest = [...images, ...m.parts.filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image')];
    if (rest.length) input.push({ role: 'user', content: content(rest) });
  }
  const instructions = system.filter(Boolean).join('\n\n');
  return { ...(instructions ? { instructions } : {}), input };
}

/** Sets the conversation of `request`: what was said since a stored reply, or all of it. */
export function setResponseInput(request: ResponseRequest, input: Pick<ResponsesBuildInput, 'messages' | 'profile' | 'deployment' | 'previousResponseId'>, names: ToolNames): void {
  const { instructions, input: items } = toResponseItems(input.messages, input.profile, input.deployment, names);
  request.input = items;
  setOrDrop(request, 'instructions', instructions);
  setOrDrop(request, 'previous_response_id', input.previousResponseId);
}

/** A field set only when it has a value: what is not sent is not there. */
function setOrDrop<K extends keyof ResponseRequest>(request: ResponseRequest, key: K, value: ResponseRequest[K] | undefined): void {
  if (value === undefined) delete request[key];
  else request[key] = value;
}

export function buildResponseRequest(input: ResponsesBuildInput): ResponseRequest {
  const { profile } = input;
  const options = samplingFor(input);
  const names = input.toolNames ?? new ToolNames((input.tools ?? []).map((t) => t.name));
  const request: ResponseRequest = { model: input.deployment, input: [], store: input.store ?? false };
  setResponseInput(request, input, names);
  if (input.tools?.length) {
    request.tools = input.tools.map((t) => ({ type: 'function', name: names.wire(t.name), description: t.description, parameters: t.inputSchema ?? { type: 'object', properties: {} } }));
    if (input.toolMode === 'required') request.tool_choice = 'required';
  }
  setOrDrop(request, 'temperature', options.temperature);
  setOrDrop(request, 'top_p', options.topP);
  const effort = options.reasoningEffort ? { effort: options.reasoningEffort } : {};
  // A summary is what the panel shows of a reasoning model's thinking.
  if (input.reasoningSummary && profile.reasoning) request.reasoning = { summary: 'auto', ...effort };
  else if (options.reasoningEffort) request.reasoning = effort;
  if (options.maxTokens !== undefined) {
    const raised = setOutputLimit(request, options.maxTokens);
    if (raised) input.notes?.push(raised);
  }
  Object.assign(request, cacheFields(options));
  return request;
}
