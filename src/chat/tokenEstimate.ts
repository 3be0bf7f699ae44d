/**
 * Rough token counts where the service gives none (a reply stopped before its usage arrived, a
 * draft not sent yet). About four characters a token for English and code; always shown as an
 * estimate, never as the service's figure.
 */
import type { ChatMessage, Usage } from '../service/types';

const CHARS_PER_TOKEN = 4;
/** What each message adds for its role and framing. */
const PER_MESSAGE = 4;

export function estimateTokens(text: string): number {
  return tokensForLength(text.length);
}

/** The estimate for a text of `length` characters (for counting a stream without keeping it twice). */
export function tokensForLength(length: number): number {
  return Math.ceil(Math.max(0, length) / CHARS_PER_TOKEN);
}

/** What an image costs at high detail on a 1024×1024 picture (the service counts tiles). */
export const IMAGE_TOKENS = 765;

function contentTokens(content: ChatMessage['content']): number {
  if (typeof content === 'string') return estimateTokens(content);
  return content.reduce((n, p) => n + (p.type === 'text' ? estimateTokens(p.text) : IMAGE_TOKENS), 0);
}

/** Usage of a reply the user stopped: the prompt as sent and the text that arrived. */
export function estimateUsage(prompt: ReadonlyArray<Pick<ChatMessage, 'content'>>, completion: string): Usage {
  const prompt_tokens = prompt.reduce((n, m) => n + PER_MESSAGE + contentTokens(m.content), 0);
  const completion_tokens = estimateTokens(completion);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
