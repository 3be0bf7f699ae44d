/**
 * The one neutral form of a chat that the runner sends: what the chat panel turns a conversation
 * into, and what the language model provider turns VS Code's parts into. Each API's request is
 * built from it (chatRequest.ts, responsesRequest.ts). Plain data, so the mapping is tested in
 * plain Node.
 */
import type { ChatMessage } from '../../service/types';

export type MessageRole = 'system' | 'user' | 'assistant';

export interface ImagePart {
  type: 'image';
  mimeType: string;
  data: Uint8Array;
  /** How closely the model looks at it (the panel's attachments leave it to the service). */
  detail?: 'low' | 'high' | 'auto';
  /** An image given by address rather than bytes (`data` is then empty). */
  url?: string;
}

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ToolCallPart {
  type: 'toolCall';
  callId: string;
  name: string;
  /** The arguments as the model gave them (an object parsed from its JSON). */
  input: unknown;
}

export interface ToolResultPart {
  type: 'toolResult';
  callId: string;
  parts: Array<TextPart | ImagePart>;
}

export type MessagePart = TextPart | ImagePart | ToolCallPart | ToolResultPart;

export interface NeutralMessage {
  role: MessageRole;
  name?: string;
  parts: MessagePart[];
}

export interface OfferedTool {
  name: string;
  description: string;
  /** JSON schema of the tool's input; none means "no arguments". */
  inputSchema?: object;
}

export type ToolMode = 'auto' | 'required';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** An image part from its URL: a `data:` URL as its bytes, any other address as is. */
function imageOf(url: string, detail?: ImagePart['detail']): ImagePart {
  const m = DATA_URL.exec(url);
  const image: ImagePart = m ? { type: 'image', mimeType: m[1], data: Buffer.from(m[2], 'base64') } : { type: 'image', mimeType: '', data: new Uint8Array(), url };
  if (detail) image.detail = detail;
  return image;
}

/** Chat Completions-shaped messages (the panel's conversation, a continuation) in the neutral form; `developer` reads as `system`. */
export function neutralMessages(messages: readonly ChatMessage[]): NeutralMessage[] {
  return messages.map((m) => {
    const role: MessageRole = m.role === 'assistant' ? 'assistant' : m.role === 'system' || m.role === 'developer' ? 'system' : 'user';
    if (typeof m.content === 'string') return { role, parts: [{ type: 'text', text: m.content }] };
    return { role, parts: m.content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : imageOf(p.image_url.url, p.image_url.detail))) };
  });
}
