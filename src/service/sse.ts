/**
 * Incremental Server-Sent Events parser. Bytes may arrive split anywhere: inside a UTF-8
 * character, between CR and LF, or mid-field. Lines end in LF, CRLF or CR.
 */

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
  /** Largest event (its data lines together), in characters. */
  maxEventLength: number;
}

const DEFAULT_LIMITS: SseLimits = { maxLineLength: 1 << 20, maxEventLength: 4 << 20 };

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose end has not arrived yet, in pieces (each searched only once). */
  private partial: string[] = [];
  private partialLength = 0;
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  // Stryker disable next-line BooleanLiteral: true at the start would only drop a leading blank line, which dispatches nothing.
  private pendingCR = false;
  private data: string[] = [];
  private dataLength = 0;
  private event: string | undefined;
  private id: string | undefined;
  private readonly limits: SseLimits;

  constructor(limits: Partial<SseLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    const len = text.length;
    let start = 0;
    // Where the next CR is (-1: none left in this chunk), so the chunk is scanned for it once.
    let cr = text.indexOf('\r');
    for (;;) {
      const lf = text.indexOf('\n', start);
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: searching again finds the same CR; the test only saves work.
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      let end: number;
      let next: number;
      // Stryker disable next-line EqualityOperator: an LF and a CR are never at the same place.
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        end = lf;
        next = lf + 1;
      } else {
        end = cr;
        if (cr + 1 === len) {
          // CR at the very end: the line is complete, a following LF is swallowed later.
          this.pendingCR = true;
          next = len;
        } else {
          next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      }
      // Stryker disable next-line ConditionalExpression: joining no pieces gives the same line; this only saves a copy.
      if (this.partialLength) {
        const line = this.partial.join('') + text.slice(start, end);
        this.partial = [];
        this.partialLength = 0;
        this.line(line, 0, line.length, out);
      } else {
        this.line(text, start, end, out);
      }
      start = next;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: keeping an empty rest adds nothing to the line.
    if (start < len) {
      this.partialLength += len - start;
      if (this.partialLength > this.limits.maxLineLength) throw new SseLimitError(`a stream line longer than ${this.limits.maxLineLength} characters`);
      // Stryker disable next-line ConditionalExpression: slice(0) is the same text; this only saves a copy.
      this.partial.push(start === 0 ? text : text.slice(start));
    }
    return out;
  }

  /** Ends the input; a final event without its blank line is still delivered. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    const rest = this.partial.join('') + this.decoder.decode();
    // Stryker disable next-line ArrayDeclaration: nothing is read after the end.
    this.partial = [];
    this.partialLength = 0;
    // Stryker disable next-line ConditionalExpression: an empty last line dispatches, as the dispatch below does.
    if (rest) this.line(rest, 0, rest.length, out);
    this.dispatch(out);
    return out;
  }

  private line(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) return this.dispatch(out);
    const first = buf.charCodeAt(start);
    // Stryker disable next-line ConditionalExpression: a comment read as a field has the empty name, which is ignored too.
    if (first === 58 /* ':' comment */) return;
    const colon = buf.indexOf(':', start);
    let field: string;
    let value: string;
    // Stryker disable next-line EqualityOperator: a colon is never where the line ends.
    if (colon === -1 || colon > end) {
      field = buf.slice(start, end);
      value = '';
    } else {
      field = buf.slice(start, colon);
      const v = buf.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
      value = buf.slice(v, end);
    }
    switch (field) {
      case 'data':
        this.dataLength += value.length + 1;
        if (this.dataLength > this.limits.maxEventLength) throw new SseLimitError(`a stream event larger than ${this.limits.maxEventLength} characters`);
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        this.id = value;
        break;
      // `retry` and unknown fields are ignored.
    }
  }

  private dispatch(out: SseEvent[]): void {
    this.dataLength = 0;
    if (this.data.length === 0) {
      this.event = undefined;
      return;
    }
    // Stryker disable next-line ConditionalExpression: one line joined is itself; this only saves a copy.
    const ev: SseEvent = { data: this.data.length === 1 ? this.data[0] : this.data.join('\n') };
    if (this.event !== undefined) ev.event = this.event;
    if (this.id !== undefined) ev.id = this.id;
    out.push(ev);
    this.data = [];
    this.event = undefined;
  }
}
