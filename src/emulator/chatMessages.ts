/**
 * Chat Completions messages as the service reads them: text and image parts, assistant tool calls
 * and the `tool` replies to them, each checked with the service's own error, and counted in tokens.
 */
import { countTokens } from './responder';
import { IMAGE_TOKENS } from './responses/request';
import { invalidRequest } from './wire';

const ROLES = new Set(['system', 'user', 'assistant', 'developer', 'tool']);

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ReadMessage {
  role: string;
  /** The text parts joined ('' for none). */
  content: string;
  imageTokens: number;
  toolCalls: ChatToolCall[];
  toolCallId?: string;
}

function parts(content: unknown, i: number, role: string, images: boolean): { text: string; imageTokens: number } {
  if (typeof content === 'string') return { text: content, imageTokens: 0 };
  if (content === null || content === undefined) return { text: '', imageTokens: 0 };
  if (!Array.isArray(content)) throw invalidRequest(`messages[${i}].content must be a string or a list of content parts.`, `messages[${i}].content`);
  let text = '';
  let imageTokens = 0;
  content.forEach((raw, j) => {
    const part = (raw ?? {}) as { type?: unknown; text?: unknown; image_url?: { url?: unknown; detail?: unknown } };
    if (part.type === 'text' && typeof part.text === 'string') {
      text += part.text;
    } else if (part.type === 'image_url') {
      // The service's own words and param path for a model without vision.
      if (!images) throw invalidRequest('Invalid content type. image_url is only supported by certain models.', `messages.[${i}].content.[${j}].type`, null);
      if (role !== 'user') {
        throw invalidRequest(
          `Image URLs are only allowed for messages with role 'user', but this message with role '${role}' contains an image URL.`,
          `messages.[${i}].content.[${j}].type`,
          'invalid_value',
        );
      }
      const url = part.image_url?.url;
      if (typeof url !== 'string' || !/^(https?:|data:image\/)/.test(url)) {
        throw invalidRequest(
          `Invalid image URL: 'messages[${i}].content[${j}].image_url.url' must be an http(s) URL or a data:image/… URL.`,
          `messages.[${i}].content.[${j}].image_url.url`,
          'invalid_image_url',
        );
      }
      imageTokens += part.image_url?.detail === 'low' ? IMAGE_TOKENS.low : IMAGE_TOKENS.high;
    } else {
      throw invalidRequest(`messages[${i}].content[${j}] must be a text part ({"type":"text","text":...}) or an image part ({"type":"image_url","image_url":{"url":...}}).`, `messages[${i}].content`);
    }
  });
  return { text, imageTokens };
}

function toolCalls(raw: unknown, i: number): ChatToolCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest(`Invalid type for 'messages[${i}].tool_calls': expected an array.`, `messages.[${i}].tool_calls`, 'invalid_type');
  return raw.map((c, j) => {
    const call = (c ?? {}) as { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof call.id !== 'string' || typeof call.function?.name !== 'string') {
      throw invalidRequest(`Missing required parameter: 'messages[${i}].tool_calls[${j}].id' and '.function.name'.`, `messages.[${i}].tool_calls.[${j}]`, 'missing_required_parameter');
    }
    return { id: call.id, name: call.function.name, arguments: String(call.function.arguments ?? '') };
  });
}

export function readMessages(raw: unknown, images: boolean): ReadMessage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalidRequest("'messages' must be a non-empty array of {role, content}.", 'messages', 'invalid_value');
  const open = new Set<string>();
  return raw.map((m, i) => {
    if (!m || typeof m !== 'object') throw invalidRequest(`messages[${i}] must be an object with role and content.`, `messages[${i}]`);
    const msg = m as { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };
    const role = msg.role;
    if (typeof role !== 'string' || !ROLES.has(role)) throw invalidRequest(`messages[${i}].role must be one of system, user, assistant, developer, tool.`, `messages[${i}].role`);
    const { text, imageTokens } = parts(msg.content, i, role, images);
    const calls = role === 'assistant' ? toolCalls(msg.tool_calls, i) : [];
    calls.forEach((c) => open.add(c.id));
    const read: ReadMessage = { role, content: text, imageTokens, toolCalls: calls };
    if (role === 'tool') {
      if (typeof msg.tool_call_id !== 'string') throw invalidRequest(`Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`, `messages.[${i}].tool_call_id`, null);
      if (!open.has(msg.tool_call_id)) {
        throw invalidRequest("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`, null);
      }
      read.toolCallId = msg.tool_call_id;
    }
    return read;
  });
}

/** Prompt tokens the way the service counts chat input: framing per message, text, images, tool calls. */
export function countChatPromptTokens(messages: ReadMessage[], tools: unknown[]): number {
  let n = 3;
  for (const m of messages) {
    n += 3 + countTokens(m.content) + countTokens(m.role) + m.imageTokens;
    for (const c of m.toolCalls) n += countTokens(`${c.name}${c.arguments}`);
  }
  if (tools.length) n += countTokens(JSON.stringify(tools));
  return n;
}
