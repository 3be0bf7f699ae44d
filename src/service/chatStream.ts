/** Turns a chat completion SSE body into chunks (the chat engine folds them into a reply). */
import { ServiceError, parseErrorBody } from './errors';
import { DONE, jsonEvents } from './jsonEvents';
import type { ChatCompletionChunk } from './types';

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
