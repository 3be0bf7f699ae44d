/**
 * What one streamed reply to a language model consumer reports, on either API: text and whole tool
 * calls as they arrive, and at the end the usage, the model that answered and how it ended.
 */
import type { AzureOpenAIClient, ChatOptions } from '../../service/client';
import type { Usage } from '../../service/types';
import type { CompletedToolCall } from './toolCalls';

export interface LmReplyTarget {
  client: Pick<AzureOpenAIClient, 'streamChatCompletion' | 'streamResponse' | 'endpoint' | 'host'>;
  deployment: string;
  signal: AbortSignal;
  onText: (text: string) => void;
  onToolCall: (call: CompletedToolCall) => void;
  /** Chat options for the client (route, api-version); the Responses API has one route. */
  chatOptions?: Pick<ChatOptions, 'route' | 'apiVersion'>;
}

export interface LmChatResult {
  usage?: Usage;
  /** The model that answered, as the service names it (e.g. `gpt-4o-2024-11-20`). */
  model?: string;
  finishReason: string | null;
  /** The signal fired: the reply ends where it was. */
  stopped: boolean;
  /** The API that answered. */
  api?: 'chat' | 'responses';
}

/** The content filter ended a reply that had begun. */
export class ReplyFilteredError extends Error {
  override readonly name = 'ReplyFilteredError';

  constructor(deployment: string, categories: readonly string[] = []) {
    const cats = categories.length ? ` (${categories.join(', ')})` : '';
    super(`The content filter stopped the reply of "${deployment}" part way${cats}. Rephrase the request and send it again.`);
  }
}
