/**
 * The prompt a compare sends (the panel's system prompt and attachments with the user's text, as
 * neutral messages) and, for Continue in Chat, one column's exchange as a chat conversation the
 * chat panel opens like any saved one.
 */
import { messageContent } from '../attachments';
import { createConversation, newId, titleFrom, type Conversation } from '../conversation';
import { neutralMessages } from '../engine/messages';
import type { Attachment, ChatParams } from '../model';
import type { ChatMessage } from '../../service/types';
import type { ColumnResult } from './column';
import type { ComparePrompt } from './compareRun';

export interface CompareInput {
  text: string;
  systemPrompt: string;
  temperature?: number;
  maxTokens?: number;
  attachments?: readonly Attachment[];
}

export function comparePrompt(input: CompareInput): ComparePrompt {
  const messages: ChatMessage[] = [];
  if (input.systemPrompt.trim()) messages.push({ role: 'system', content: input.systemPrompt });
  messages.push({ role: 'user', content: messageContent(input.text, input.attachments) });
  const sampling: ComparePrompt['sampling'] = {};
  if (input.temperature !== undefined) sampling.temperature = input.temperature;
  if (input.maxTokens !== undefined) sampling.maxTokens = input.maxTokens;
  return { messages: neutralMessages(messages), sampling };
}

export interface ColumnPlace {
  connectionId: string;
  connectionLabel: string;
  deployment: string;
  params?: Partial<ChatParams>;
}

/** The column's exchange as a conversation: the prompt (with its attachments) and the reply with its figures. */
export function conversationOf(input: CompareInput, column: ColumnResult, place: ColumnPlace, now = Date.now()): Conversation {
  const params: Partial<ChatParams> = { ...place.params, systemPrompt: input.systemPrompt };
  if (input.temperature !== undefined) params.temperature = input.temperature;
  if (input.maxTokens !== undefined) params.maxTokens = input.maxTokens;
  const c = createConversation({ connectionId: place.connectionId, connectionLabel: place.connectionLabel, deployment: place.deployment, params });
  c.title = titleFrom(input.text);
  c.turns.push({ id: newId('t_'), role: 'user', content: input.text, createdAt: now, ...(input.attachments?.length ? { attachments: [...input.attachments] } : {}) });
  const reply: Conversation['turns'][number] = {
    id: newId('t_'),
    role: 'assistant',
    content: column.content,
    createdAt: now,
    deployment: place.deployment,
    finishReason: column.finishReason,
    latencyMs: Math.round(column.totalMs),
  };
  if (column.model) reply.model = column.model;
  if (column.outcome === 'stopped') reply.stopped = true;
  if (column.tokens) {
    const t = column.tokens;
    reply.usage = {
      prompt_tokens: t.prompt,
      completion_tokens: t.completion,
      total_tokens: t.prompt + t.completion,
      prompt_tokens_details: { cached_tokens: t.cached },
      completion_tokens_details: { reasoning_tokens: t.reasoning },
    };
  }
  c.turns.push(reply);
  return c;
}
