/**
 * Traces on their way to the user's collector: gathered for a moment and sent together (one
 * OTLP request carries many traces; one request a trace would cost each chat request a fifth of
 * its own time in CPU), one send at a time, a bounded queue (traces past it are dropped, counted,
 * never retried forever). The sender is given as a function, so the exporter's bundle is loaded
 * only when the first trace is sent.
 */
import type { Trace } from './types';

export interface ExportQueueOptions {
  send: (traces: readonly Trace[]) => Promise<void>;
  /** How long a trace waits for others (default 2 s). */
  delayMs?: number;
  /** A batch this full goes at once (default 256). */
  maxBatch?: number;
  /** Traces waiting past this many are dropped (the collector is down or slow; default 1,024). */
  maxQueue?: number;
  /** A send failed: the reason, for the log (the traces are not sent again). */
  onError?: (err: unknown) => void;
}

export class TraceExportQueue {
  private queue: Trace[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  dropped = 0;

  constructor(private readonly options: ExportQueueOptions) {}

  add(trace: Trace): void {
    if (this.queue.length >= (this.options.maxQueue ?? 1024)) {
      this.dropped++;
      return;
    }
    this.queue.push(trace);
    if (this.queue.length >= (this.options.maxBatch ?? 256)) void this.flush();
    // A trace waiting must not keep a process alive.
    else this.timer ??= setTimeout(() => void this.flush(), this.options.delayMs ?? 2000).unref();
  }

  /** Sends what waits; resolves once every send so far has ended. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.sending) await this.sending;
    if (!this.queue.length) return;
    const batch = this.queue.splice(0, this.options.maxBatch ?? 256);
    this.sending = this.options
      .send(batch)
      .catch((err: unknown) => this.options.onError?.(err))
      .finally(() => (this.sending = undefined));
    await this.sending;
    if (this.queue.length) await this.flush();
  }
}
