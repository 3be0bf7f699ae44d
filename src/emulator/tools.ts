/**
 * The emulator's deterministic tool use, shared by Chat Completions and the Responses API: when
 * tools are given and the user names one (or `tool_choice` demands one), the "model" calls it with
 * arguments that satisfy the schema's required properties; after a tool's answer it replies in text.
 */
import { invalidRequest } from './wire';

export interface ToolSpec {
  name: string;
  parameters: Record<string, unknown>;
}

export type ToolChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'required' } | { kind: 'named'; name: string };

export interface PlannedCall {
  name: string;
  arguments: string;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Reads `tools` in either API's shape: `{type:'function', function:{name, parameters}}` (Chat
 * Completions) or `{type:'function', name, parameters}` (Responses). `param` names the field in errors.
 */
export function parseTools(raw: unknown, flat: boolean, param = 'tools'): ToolSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest(`Invalid type for '${param}': expected an array of tools.`, param, 'invalid_type');
  return raw.map((t, i) => {
    const tool = (t ?? {}) as Record<string, unknown>;
    if (tool.type !== 'function') throw invalidRequest(`Invalid value for '${param}[${i}].type': the emulator supports function tools only.`, `${param}[${i}].type`);
    const fn = (flat ? tool : tool.function) as Record<string, unknown> | undefined;
    const where = flat ? `${param}[${i}]` : `${param}[${i}].function`;
    if (!fn || typeof fn.name !== 'string') throw invalidRequest(`Missing required parameter: '${where}.name'.`, `${where}.name`, 'missing_required_parameter');
    if (!NAME.test(fn.name)) {
      throw invalidRequest(`Invalid '${where}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${where}.name`, 'invalid_value');
    }
    const parameters = fn.parameters && typeof fn.parameters === 'object' ? (fn.parameters as Record<string, unknown>) : {};
    return { name: fn.name, parameters };
  });
}

/** `tool_choice`: 'none' | 'auto' | 'required', or a named function in either API's shape. */
export function parseToolChoice(raw: unknown, tools: ToolSpec[]): ToolChoice {
  if (raw === undefined || raw === null || raw === 'auto') return { kind: 'auto' };
  if (raw === 'none') return { kind: 'none' };
  if (raw === 'required') {
    if (tools.length === 0) throw invalidRequest("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
    return { kind: 'required' };
  }
  const o = raw as { type?: unknown; name?: unknown; function?: { name?: unknown } };
  const name = o && typeof o === 'object' && o.type === 'function' ? (o.function?.name ?? o.name) : undefined;
  if (typeof name !== 'string') throw invalidRequest("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a function.", 'tool_choice');
  if (!tools.some((t) => t.name === name)) throw invalidRequest(`Tool choice '${name}' not found in 'tools' parameter.`, 'tool_choice');
  return { kind: 'named', name };
}

/** A value of the schema's type; objects get their required properties, recursively. */
function sample(schema: Record<string, unknown> | undefined, hint: string, depth = 0): unknown {
  const s = schema ?? {};
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('const' in s) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return depth > 4 ? [] : [sample(s.items as Record<string, unknown>, hint, depth + 1)];
    case 'object':
      return depth > 4 ? {} : requiredOf(s, hint, depth + 1);
    default:
      return hint;
  }
}

function requiredOf(schema: Record<string, unknown>, hint: string, depth = 0): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const key of required) out[key] = sample(props[key], hint, depth);
  return out;
}

/** The words after the tool's name in the prompt ("get_weather in Paris" → "Paris"), else a placeholder. */
function hintFrom(prompt: string, name: string): string {
  const at = prompt.toLowerCase().indexOf(name.toLowerCase());
  const rest = at >= 0 ? prompt.slice(at + name.length) : '';
  const words = rest.replace(/^[\s:,(]*(for|in|with|of|on|about)?\s*/i, '').replace(/[).?!]+$/, '').trim();
  return words.slice(0, 60) || 'example';
}

/** The call the model makes for this prompt, if any. */
export function planToolCall(tools: ToolSpec[], choice: ToolChoice, prompt: string): PlannedCall | undefined {
  if (tools.length === 0 || choice.kind === 'none') return undefined;
  let tool: ToolSpec | undefined;
  if (choice.kind === 'named') tool = tools.find((t) => t.name === choice.name);
  else {
    const lower = prompt.toLowerCase();
    tool = tools.find((t) => lower.includes(t.name.toLowerCase()));
    if (!tool && choice.kind === 'required') tool = tools[0];
  }
  if (!tool) return undefined;
  return { name: tool.name, arguments: JSON.stringify(requiredOf(tool.parameters, hintFrom(prompt, tool.name))) };
}

/** What the model says once a tool has answered. */
export function toolResultReply(name: string | undefined, output: string): string {
  const shown = output.length > 500 ? `${output.slice(0, 500)}…` : output;
  return `The ${name ? `function ${name}` : 'tool'} returned: ${shown}`;
}
