/**
 * The streamed events of one response, numbered by `sequence_number`. A stream reads the log from
 * a position and waits for more, so a background stream can be resumed with `starting_after`
 * without repeating or losing an event.
 */
import { EventEmitter, once } from 'node:events';

export interface LoggedEvent {
  type: string;
  /** Serialised when logged: later changes to the response do not leak into earlier events. */
  json: string;
}

export class EventLog {
  private readonly events: LoggedEvent[] = [];
  /** Fires 'change' at each event and at the end; any number of readers may wait on it. */
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private ended = false;

  append(type: string, body: Record<string, unknown>): void {
    if (this.ended) return;
    const seq = this.events.length;
    this.events.push({ type, json: JSON.stringify({ type, ...body, sequence_number: seq }) });
    this.wake();
  }

  /** No more events will come (final state, cancelled, or the run stopped). */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Drops the events once nobody can ask for them again (a finished foreground response). */
  forget(): void {
    this.events.length = 0;
  }

  /** Events after `after` (-1: all), waiting for new ones until the log ends or `signal` aborts. */
  async *read(after: number, signal: AbortSignal): AsyncGenerator<LoggedEvent> {
    let next = Math.max(0, after + 1);
    for (;;) {
      while (next < this.events.length) yield this.events[next++];
      if (this.ended || signal.aborted) return;
      await once(this.changes, 'change', { signal }).catch(() => undefined);
    }
  }

  private wake(): void {
    this.changes.emit('change');
  }
}
