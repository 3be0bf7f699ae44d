/**
 * Server-Sent Events from a byte stream, framed by `eventsource-parser` (the parser the openai
 * and ai SDKs use), with our caps on top: bytes may arrive split anywhere, and a hostile or broken
 * service must not make us buffer without end.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** A stream that breaks the parser's size limits (a line or an event too long). */
export class SseLimitError extends Error {
  override readonly name = 'SseLimitError';
}

export interface SseLimits {
  /** Longest line, in characters. */
  maxLineLength: number;
  /** Largest event (its data lines, each with its newline), in characters. */
  maxEventLength: number;
}

const DEFAULT_LIMITS: SseLimits = { maxLineLength: 1 << 20, maxEventLength: 4 << 20 };

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly limits: SseLimits;
  private readonly parser: EventSourceParser;
  /** Characters of the line whose end has not arrived yet. */
  private pending = 0;
  /** The last event id seen: it stays until another one comes (the SSE "last event ID"). */
  private lastId: string | undefined;
  private out: SseEvent[] = [];

  constructor(limits: Partial<SseLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    const tooLarge = () => new SseLimitError(`a stream event larger than ${this.limits.maxEventLength} characters`);
    this.parser = createParser({
      // The library counts an event's data without the last line's newline, plus any unfinished line.
      maxBufferSize: this.limits.maxEventLength - 1,
      onEvent: (e) => {
        // A whole event in one chunk is dispatched before the library checks its buffer.
        if (e.data.length + 1 > this.limits.maxEventLength) throw tooLarge();
        if (e.id !== undefined) this.lastId = e.id;
        const ev: SseEvent = { data: e.data };
        if (e.event !== undefined) ev.event = e.event;
        if (this.lastId !== undefined) ev.id = this.lastId;
        this.out.push(ev);
      },
      // `retry` and unknown fields are ignored, as the specification says.
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') throw tooLarge();
      },
    });
  }

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const lastEnd = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    this.pending = lastEnd === -1 ? this.pending + text.length : text.length - lastEnd - 1;
    if (this.pending > this.limits.maxLineLength) throw new SseLimitError(`a stream line longer than ${this.limits.maxLineLength} characters`);
    return this.feed(text);
  }

  /** Ends the input; a final event without its blank line is still delivered. */
  end(): SseEvent[] {
    this.pending = 0;
    // The line ends a last unfinished line, the blank line dispatches what is left.
    return this.feed(`${this.decoder.decode()}\n\n`);
  }

  private feed(text: string): SseEvent[] {
    this.parser.feed(text);
    const out = this.out;
    this.out = [];
    return out;
  }
}
