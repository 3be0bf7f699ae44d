/**
 * A Responses API request, read and checked the way the service does: the input as items, the
 * parameters a model refuses, and the prompt's token count (earlier turns included).
 */
import { modelProfile } from '../../chat/modelProfile';
import type { DeploymentConfig } from '../config';
import { countTokens } from '../responder';
import { parseToolChoice, parseTools, type ToolChoice, type ToolSpec } from '../tools';
import { invalidRequest, randomId } from '../wire';

/** An input item as stored (and listed by `input_items`). */
export type InputItem = Record<string, unknown> & { id: string; type: string };

export type Effort = 'minimal' | 'low' | 'medium' | 'high';

export interface ResponseRequest {
  items: InputItem[];
  instructions: string | null;
  tools: ToolSpec[];
  rawTools: unknown[];
  toolChoice: ToolChoice;
  rawToolChoice: unknown;
  reasoning: { effort: Effort; summary: string | null } | null;
  maxOutputTokens: number | null;
  temperature: number | null;
  topP: number | null;
  store: boolean;
  background: boolean;
  stream: boolean;
  metadata: Record<string, string>;
  previousResponseId: string | null;
}

const ROLES = ['user', 'assistant', 'system', 'developer'];
const EFFORTS = ['minimal', 'low', 'medium', 'high'];
/** Image tokens as the service bills them: a flat 85 at low detail, a 512-px tile grid otherwise. */
export const IMAGE_TOKENS = { low: 85, high: 765 };

function unsupported(param: string): never {
  throw invalidRequest(`Unsupported parameter: '${param}' is not supported with this model.`, param, 'unsupported_parameter');
}

function optionalNumber(body: Record<string, unknown>, key: string, min: number, max: number): number | null {
  const v = body[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidRequest(`Invalid type for '${key}': expected a number, but got ${typeof v} instead.`, key, 'invalid_type');
  if (v < min) throw invalidRequest(`Invalid '${key}': number below minimum value. Expected a value >= ${min}, but got ${v} instead.`, key, 'decimal_below_min_value');
  if (v > max) throw invalidRequest(`Invalid '${key}': number above maximum value. Expected a value <= ${max}, but got ${v} instead.`, key, 'decimal_above_max_value');
  return v;
}

function optionalBoolean(body: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const v = body[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalidRequest(`Invalid type for '${key}': expected a boolean, but got ${typeof v} instead.`, key, 'invalid_type');
  return v;
}

function contentParts(content: unknown, where: string, images: boolean): Array<Record<string, unknown>> {
  if (typeof content === 'string') return [{ type: 'input_text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(`Invalid type for '${where}.content': expected a string or an array of content parts.`, `${where}.content`, 'invalid_type');
  return content.map((p, j) => {
    const part = (p ?? {}) as Record<string, unknown>;
    const at = `${where}.content[${j}]`;
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        if (typeof part.text !== 'string') throw invalidRequest(`Missing required parameter: '${at}.text'.`, `${at}.text`, 'missing_required_parameter');
        return { type: part.type, text: part.text };
      case 'input_image': {
        if (!images) throw invalidRequest('Invalid content type. input_image is only supported by certain models.', `${at}.type`, null);
        if (typeof part.image_url !== 'string' && typeof part.file_id !== 'string') {
          throw invalidRequest(`Missing required parameter: '${at}.image_url'.`, `${at}.image_url`, 'missing_required_parameter');
        }
        if (typeof part.image_url === 'string' && !/^(https?:|data:image\/)/.test(part.image_url)) {
          throw invalidRequest(`Invalid '${at}.image_url'. Expected a valid URL, but got a value with an invalid format.`, `${at}.image_url`, 'invalid_value');
        }
        const detail = part.detail === 'low' || part.detail === 'high' ? part.detail : 'auto';
        return { type: 'input_image', image_url: part.image_url ?? null, file_id: part.file_id ?? null, detail };
      }
      default:
        throw invalidRequest(`Invalid value: '${String(part.type)}'. Supported values are: 'input_text', 'input_image' and 'output_text'.`, `${at}.type`, 'invalid_value');
    }
  });
}

/** The request's `input` as items with ids, in order. */
function inputItems(input: unknown, images: boolean): InputItem[] {
  if (typeof input === 'string') return [{ id: randomId('msg_'), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: input }] }];
  if (!Array.isArray(input)) throw invalidRequest("Invalid type for 'input': expected a string or an array of input items.", 'input', 'invalid_type');
  return input.map((raw, i) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    const where = `input[${i}]`;
    const type = item.type ?? 'message';
    if (type === 'message') {
      if (!ROLES.includes(item.role as string)) {
        throw invalidRequest(`Invalid value: '${String(item.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`, `${where}.role`, 'invalid_value');
      }
      return { id: typeof item.id === 'string' ? item.id : randomId('msg_'), type: 'message', role: item.role, status: 'completed', content: contentParts(item.content, where, images) };
    }
    if (type === 'function_call_output') {
      if (typeof item.call_id !== 'string') throw invalidRequest(`Missing required parameter: '${where}.call_id'.`, `${where}.call_id`, 'missing_required_parameter');
      const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '');
      return { id: randomId('fco_'), type, call_id: item.call_id, output, status: 'completed' };
    }
    if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string') {
        throw invalidRequest(`Missing required parameter: '${where}.call_id' and '${where}.name'.`, `${where}.call_id`, 'missing_required_parameter');
      }
      return { id: typeof item.id === 'string' ? item.id : randomId('fc_'), type, call_id: item.call_id, name: item.name, arguments: String(item.arguments ?? ''), status: 'completed' };
    }
    if (type === 'reasoning') return { id: typeof item.id === 'string' ? item.id : randomId('rs_'), type, summary: Array.isArray(item.summary) ? item.summary : [] };
    throw invalidRequest(`Invalid value: '${String(type)}'. The emulator supports message, function_call, function_call_output and reasoning input items.`, `${where}.type`, 'invalid_value');
  });
}

function metadataOf(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest("Invalid type for 'metadata': expected an object.", 'metadata', 'invalid_type');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > 16) throw invalidRequest("Invalid 'metadata': too many properties. Expected an object with at most 16 properties.", 'metadata', 'object_above_max_properties');
  for (const [k, v] of entries) {
    if (k.length > 64) throw invalidRequest(`Invalid 'metadata': key '${k.slice(0, 20)}…' is longer than 64 characters.`, 'metadata', 'invalid_value');
    if (typeof v !== 'string' || v.length > 512) throw invalidRequest(`Invalid 'metadata.${k}': expected a string of at most 512 characters.`, `metadata.${k}`, 'invalid_value');
  }
  return raw as Record<string, string>;
}

export function parseResponseRequest(body: Record<string, unknown>, deployment: DeploymentConfig): ResponseRequest {
  const profile = modelProfile(deployment.model);
  if (body.input === undefined || body.input === null) throw invalidRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const items = inputItems(body.input, profile.imageInput);
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== 'string') {
    throw invalidRequest("Invalid type for 'instructions': expected a string.", 'instructions', 'invalid_type');
  }
  const temperature = optionalNumber(body, 'temperature', 0, 2);
  const topP = optionalNumber(body, 'top_p', 0, 1);
  if (profile.reasoning && temperature !== null) unsupported('temperature');
  if (profile.reasoning && topP !== null) unsupported('top_p');
  let reasoning: ResponseRequest['reasoning'] = null;
  const r = body.reasoning as { effort?: unknown; summary?: unknown } | null | undefined;
  if (r !== undefined && r !== null) {
    if (typeof r !== 'object') throw invalidRequest("Invalid type for 'reasoning': expected an object.", 'reasoning', 'invalid_type');
    if (!profile.reasoning && r.effort !== undefined && r.effort !== null) unsupported('reasoning.effort');
    if (r.effort !== undefined && r.effort !== null && !EFFORTS.includes(r.effort as string)) {
      throw invalidRequest(`Invalid value: '${String(r.effort)}'. Supported values are: 'minimal', 'low', 'medium', and 'high'.`, 'reasoning.effort', 'invalid_value');
    }
    if (r.summary !== undefined && r.summary !== null && !['auto', 'concise', 'detailed'].includes(r.summary as string)) {
      throw invalidRequest(`Invalid value: '${String(r.summary)}'. Supported values are: 'auto', 'concise', and 'detailed'.`, 'reasoning.summary', 'invalid_value');
    }
    if (profile.reasoning) reasoning = { effort: (r.effort as Effort) ?? 'medium', summary: (r.summary as string) ?? null };
  } else if (profile.reasoning) reasoning = { effort: 'medium', summary: null };
  const max = body.max_output_tokens;
  if (max !== undefined && max !== null && (typeof max !== 'number' || !Number.isInteger(max))) {
    throw invalidRequest("Invalid type for 'max_output_tokens': expected an integer.", 'max_output_tokens', 'invalid_type');
  }
  if (typeof max === 'number' && max < 16) {
    throw invalidRequest(`Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${max} instead.`, 'max_output_tokens', 'integer_below_min_value');
  }
  const tools = parseTools(body.tools, true);
  const store = optionalBoolean(body, 'store', true);
  const background = optionalBoolean(body, 'background', false);
  if (background && !store) throw invalidRequest("Background mode requires 'store' to be true.", 'background', 'invalid_value');
  const prev = body.previous_response_id;
  if (prev !== undefined && prev !== null && typeof prev !== 'string') throw invalidRequest("Invalid type for 'previous_response_id': expected a string.", 'previous_response_id', 'invalid_type');
  return {
    items,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    tools,
    rawTools: Array.isArray(body.tools) ? body.tools : [],
    toolChoice: parseToolChoice(body.tool_choice, tools),
    rawToolChoice: body.tool_choice ?? 'auto',
    reasoning,
    maxOutputTokens: typeof max === 'number' ? max : null,
    temperature,
    topP,
    store,
    background,
    stream: optionalBoolean(body, 'stream', false),
    metadata: metadataOf(body.metadata),
    previousResponseId: typeof prev === 'string' ? prev : null,
  };
}

/** Tokens of items the way the service bills a conversation: framing per item, text, images. */
export function countItemTokens(items: ReadonlyArray<Record<string, unknown>>): number {
  let n = 0;
  for (const item of items) {
    n += 3;
    if (item.type === 'message') {
      n += countTokens(String(item.role));
      for (const part of (item.content ?? []) as Array<Record<string, unknown>>) {
        if (part.type === 'input_image') n += part.detail === 'low' ? IMAGE_TOKENS.low : IMAGE_TOKENS.high;
        else if (typeof part.text === 'string') n += countTokens(part.text);
      }
    } else if (item.type === 'function_call') n += countTokens(`${item.name}${item.arguments}`);
    else if (item.type === 'function_call_output') n += countTokens(String(item.output));
  }
  return n;
}

/** The text of the last user message among the items ('' if none). */
export function lastUserText(items: ReadonlyArray<Record<string, unknown>>): string {
  const last = [...items].reverse().find((i) => i.type === 'message' && i.role === 'user');
  return ((last?.content ?? []) as Array<{ text?: unknown }>).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}
