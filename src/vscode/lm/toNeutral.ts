/**
 * VS Code's language model message parts → the core's neutral messages. Parts are recognised by
 * shape, not by class: they cross the extension host's RPC and older hosts send older classes.
 */
import * as vscode from 'vscode';
import type { ImagePart, NeutralMessage, MessagePart, MessageRole, TextPart, OfferedTool, ToolMode } from '../../chat/engine/messages';

/** `LanguageModelChatMessageRole.System` (3) is still a proposed API, but VS Code's chat sends it. */
const SYSTEM_ROLE = 3;

function roleOf(role: number): MessageRole {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === SYSTEM_ROLE) return 'system';
  return 'user';
}

type Shape = Record<string, unknown>;
const isObject = (p: unknown): p is Shape => !!p && typeof p === 'object';

/** Data parts: images as images, text and JSON as text; anything else (cache markers, ...) has nothing to send. */
function dataPart(p: Shape): TextPart | ImagePart | undefined {
  const mime = String(p.mimeType);
  const data = p.data instanceof Uint8Array ? p.data : undefined;
  if (!data) return undefined;
  if (mime.startsWith('image/')) return { type: 'image', mimeType: mime, data };
  if (mime.startsWith('text/') || mime.includes('json')) return { type: 'text', text: new TextDecoder().decode(data) };
  return undefined;
}

/** What a tool returned: text, images, and prompt-tsx parts as their JSON. */
function resultParts(content: unknown): Array<TextPart | ImagePart> {
  const out: Array<TextPart | ImagePart> = [];
  for (const c of Array.isArray(content) ? content : []) {
    if (!isObject(c)) continue;
    if (typeof c.value === 'string') out.push({ type: 'text', text: c.value });
    else if ('mimeType' in c) {
      const d = dataPart(c);
      if (d) out.push(d);
    } else if ('value' in c) out.push({ type: 'text', text: JSON.stringify(c.value) });
  }
  return out;
}

function partOf(p: unknown): MessagePart | undefined {
  if (!isObject(p)) return undefined;
  if (typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p) return { type: 'toolCall', callId: p.callId, name: p.name, input: p.input };
  if (typeof p.callId === 'string' && 'content' in p) return { type: 'toolResult', callId: p.callId, parts: resultParts(p.content) };
  if (typeof p.value === 'string') return { type: 'text', text: p.value };
  if ('mimeType' in p && 'data' in p) return dataPart(p);
  return undefined;
}

export function toLmMessage(m: vscode.LanguageModelChatRequestMessage): NeutralMessage {
  const parts = m.content.map(partOf).filter((p): p is MessagePart => p !== undefined);
  return { role: roleOf(m.role), ...(m.name ? { name: m.name } : {}), parts };
}

export function toLmTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): OfferedTool[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, ...(t.inputSchema ? { inputSchema: t.inputSchema } : {}) }));
}

export function toLmToolMode(mode: vscode.LanguageModelChatToolMode | undefined): ToolMode {
  return mode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto';
}
