/**
 * A conversation on the Responses API continues from the service's copy of it: the last reply's
 * `previous_response_id` and only what was said since. The engine falls back to the full history
 * when the service no longer has that response.
 */
import type { ChatMessage } from '../service/types';
import type { Conversation } from './conversation';

export interface Continuation {
  previousResponseId: string;
  /** The system prompt and the messages after that reply. */
  messages: ChatMessage[];
}

export function continuationOf(c: Conversation): Continuation | undefined {
  const turns = c.turns;
  let last = -1;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    if (t.role === 'assistant' && !t.error && t.content) {
      last = i;
      break;
    }
  }
  const prev = turns[last];
  // Only a reply of this deployment that the service stored and that the user did not stop midway.
  if (!prev?.responseId || prev.api !== 'responses' || prev.deployment !== c.deployment || prev.stopped) return undefined;
  const messages: ChatMessage[] = [];
  if (c.params.systemPrompt.trim()) messages.push({ role: 'system', content: c.params.systemPrompt });
  for (const t of turns.slice(last + 1)) {
    if (t.role === 'user') messages.push({ role: 'user', content: t.content });
  }
  return messages.some((m) => m.role === 'user') ? { previousResponseId: prev.responseId, messages } : undefined;
}
