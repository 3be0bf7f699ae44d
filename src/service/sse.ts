/**
 * Incremental Server-Sent Events parser. Bytes may arrive split anywhere: inside a UTF-8
 * character, between CR and LF, or mid-field. Lines end in LF, CRLF or CR.
 */

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  private pendingCR = false;
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    let buf = this.buffer + text;
    let start = 0;
    const len = buf.length;
    for (;;) {
      // Find the next line end; the common case (LF only) needs one indexOf.
      let lf = buf.indexOf('\n', start);
      let cr = buf.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      let end: number;
      let next: number;
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
          next = buf.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      }
      this.line(buf, start, end, out);
      start = next;
      lf = cr = -1;
    }
    buf = start === 0 ? buf : buf.slice(start);
    this.buffer = buf;
    return out;
  }

  /** Ends the input; a final event without its blank line is still delivered. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    const rest = this.buffer + this.decoder.decode();
    this.buffer = '';
    if (rest) this.line(rest, 0, rest.length, out);
    this.dispatch(out);
    return out;
  }

  private line(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) return this.dispatch(out);
    const first = buf.charCodeAt(start);
    if (first === 58 /* ':' comment */) return;
    const colon = buf.indexOf(':', start);
    let field: string;
    let value: string;
    if (colon === -1 || colon > end) {
      field = buf.slice(start, end);
      value = '';
    } else {
      field = buf.slice(start, colon);
      const v = buf.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
      value = v >= end ? '' : buf.slice(v, end);
    }
    switch (field) {
      case 'data':
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
    if (this.data.length === 0) {
      this.event = undefined;
      return;
    }
    const ev: SseEvent = { data: this.data.length === 1 ? this.data[0] : this.data.join('\n') };
    if (this.event !== undefined) ev.event = this.event;
    if (this.id !== undefined) ev.id = this.id;
    out.push(ev);
    this.data = [];
    this.event = undefined;
  }
}
