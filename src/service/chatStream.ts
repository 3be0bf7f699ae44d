/** Turns a chat completion SSE body into chunks, and chunks into a finished reply. */
import { ServiceError, parseErrorBody } from './errors';
import { DONE, jsonEvents } from './jsonEvents';
import type { ChatCompletionChunk, Usage } from './types';

/**
 * Yields each JSON frame up to `[DONE]`. A mid-stream `{"error":…}` frame throws a ServiceError;
 * a body that ends without `[DONE]` throws too, so a cut connection is never mistaken for a reply.
 */
export async function* readChatStream(body: AsyncIterable<Uint8Array | string>, host: string): AsyncGenerator<ChatCompletionChunk> {
  for await (const { data, frame } of jsonEvents(body, host, 'frame')) {
    if (frame === DONE) return;
    if (frame && typeof frame === 'object' && 'error' in frame && (frame as { error: unknown }).error) {
      throw new ServiceError({ kind: 'stream', host, ...parseErrorBody(data) });
    }
    const choices = (frame as { choices?: unknown } | null)?.choices;
    if (!frame || typeof frame !== 'object' || Array.isArray(frame) || (choices !== undefined && !Array.isArray(choices))) {
      throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: `a stream frame that is not a chat completion chunk: ${data.slice(0, 120)}` });
    }
    yield frame as ChatCompletionChunk;
  }
  throw new ServiceError({ kind: 'stream', host, code: 'incomplete', serviceMessage: 'the stream ended before [DONE]' });
}

export interface StreamResult {
  content: string;
  finishReason: string | null;
  usage?: Usage;
  model?: string;
  id?: string;
}

/** Folds chunks of choice 0 into the reply a user would see. */
export class ChatAccumulator implements StreamResult {
  content = '';
  finishReason: string | null = null;
  usage?: Usage;
  model?: string;
  id?: string;

  add(chunk: ChatCompletionChunk): string {
    if (chunk.id) this.id = chunk.id;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (!choice) return '';
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const text = choice.delta?.content ?? '';
    this.content += text;
    return text;
  }
}
