/**
 * The JSON events of a service's SSE body, for the Chat Completions and Responses stream readers:
 * the SSE parser's limits and unreadable data become ServiceErrors a person can act on.
 */
import { ServiceError } from './errors';
import { SseLimitError, SseParser, type SseEvent } from './sse';

/** Stands for the `[DONE]` sentinel in `JsonEvent.frame`. */
export const DONE = Symbol('[DONE]');

export interface JsonEvent {
  /** The SSE `event:` field, if any. */
  event?: string;
  /** The data as sent, trimmed (for messages). */
  data: string;
  frame: unknown;
}

/**
 * Yields every event with data, parsed, in order; the caller returns when its stream is
 * complete, which stops the reading. `what` names an event in messages ("frame", "event").
 */
export async function* jsonEvents(body: AsyncIterable<Uint8Array | string>, host: string, what: string): AsyncGenerator<JsonEvent> {
  const parser = new SseParser();
  const parse = (chunk?: Uint8Array | string) => {
    try {
      return chunk === undefined ? parser.end() : parser.push(chunk);
    } catch (err) {
      if (err instanceof SseLimitError) throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: err.message });
      throw err;
    }
  };
  for await (const chunk of body) yield* parsed(parse(chunk), host, what);
  yield* parsed(parse(), host, what);
}

function* parsed(events: SseEvent[], host: string, what: string): Generator<JsonEvent> {
  for (const ev of events) {
    const data = ev.data.trim();
    if (!data) continue;
    if (data === '[DONE]') {
      yield { event: ev.event, data, frame: DONE };
      continue;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      throw new ServiceError({ kind: 'invalid-response', host, serviceMessage: `unreadable stream ${what}: ${data.slice(0, 120)}` });
    }
    yield { event: ev.event, data, frame };
  }
}
