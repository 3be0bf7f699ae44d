/** A conversation: its turns, settings, and the forms it is exported in. Plain data, JSON-safe. */
import * as l10n from '@vscode/l10n';
import type { ChatMessage } from '../service/types';
import { messageContent } from './attachments';
import type { ChatParams, ChatTurn, ConversationView } from './model';

export interface Conversation extends ConversationView {
  version: 1;
  createdAt: number;
  updatedAt: number;
}

export function newId(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

export function createConversation(init: { connectionId: string; connectionLabel: string; deployment: string; params?: Partial<ChatParams> }): Conversation {
  const now = Date.now();
  return {
    version: 1,
    id: newId('conv_'),
    title: l10n.t('Chat with {0}', init.deployment),
    connectionId: init.connectionId,
    connectionLabel: init.connectionLabel,
    deployment: init.deployment,
    params: { systemPrompt: 'You are a helpful assistant.', route: 'v1', ...init.params },
    turns: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** Titles come from the first user message, cut at a word boundary. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ').trim();
  if (line.length <= 60) return line || 'New chat';
  return `${line.slice(0, 60).replace(/\s+\S*$/, '')}…`;
}

/** The messages sent for the next reply: the system prompt, then every turn that has content. */
export function requestMessages(c: Conversation): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (c.params.systemPrompt.trim()) messages.push({ role: 'system', content: c.params.systemPrompt });
  for (const t of c.turns) {
    if (t.role === 'assistant' && (t.error || !t.content)) continue;
    messages.push({ role: t.role, content: t.role === 'user' ? messageContent(t.content, t.attachments) : t.content });
  }
  return messages;
}

/** Token totals of a conversation (the panel's header and the Markdown export show them). */
export function totals(c: { turns: readonly ChatTurn[] }): { prompt: number; completion: number; total: number } {
  let prompt = 0;
  let completion = 0;
  for (const t of c.turns) {
    prompt += t.usage?.prompt_tokens ?? 0;
    completion += t.usage?.completion_tokens ?? 0;
  }
  return { prompt, completion, total: prompt + completion };
}

export function toMarkdown(c: Conversation): string {
  const t = totals(c);
  const lines = [
    `# ${c.title}`,
    '',
    `- ${l10n.t('Deployment: {0} ({1})', c.deployment, c.connectionLabel)}`,
    `- ${l10n.t('Tokens: {0} prompt + {1} completion = {2}', t.prompt, t.completion, t.total)}`,
    '',
  ];
  if (c.params.systemPrompt.trim()) lines.push(`## ${l10n.t('System')}`, '', c.params.systemPrompt, '');
  for (const turn of c.turns) {
    if (turn.role === 'user') {
      lines.push(`## ${l10n.t('You')}`, '', userMarkdown(turn), '');
    } else {
      const tokens = turn.usage ? l10n.t('{0} tokens', turn.usage.total_tokens) : undefined;
      const meta = [turn.model, tokens, turn.latencyMs !== undefined ? l10n.t('{0} ms', turn.latencyMs) : undefined].filter(Boolean).join(', ');
      const body = turn.error ? `> ${l10n.t('Error: {0}', turn.error.message)}` : turn.content;
      lines.push(`## ${turn.deployment ?? l10n.t('Assistant')}${meta ? ` (${meta})` : ''}`, '', body, '');
    }
  }
  return lines.join('\n');
}

/** A user message as exported: its text, attached text in fences, images by name. */
function userMarkdown(turn: ChatTurn): string {
  const content = messageContent(turn.content, turn.attachments);
  const text = typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const images = (turn.attachments ?? []).filter((a) => a.kind === 'image').map((a) => `(${l10n.t('image: {0}', a.name)})`);
  return [text, ...images].join('\n\n');
}

export function toJson(c: Conversation): string {
  return JSON.stringify(c, null, 2);
}

/** Reads a stored conversation, or undefined if the file is not one. */
export function parseConversation(text: string): Conversation | undefined {
  try {
    const v = JSON.parse(text) as Conversation;
    if (v && v.version === 1 && typeof v.id === 'string' && Array.isArray(v.turns) && typeof v.deployment === 'string' && v.params) return v;
  } catch {
    /* not JSON */
  }
  return undefined;
}

