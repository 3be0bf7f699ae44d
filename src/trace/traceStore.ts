/**
 * The last N traces, kept on disk with the usage log's care: one JSON line per trace in an
 * append-only file created readable by the user only (src/storage/appendLog.ts), compacted to the
 * newest N, so the traces survive a reload and the file never grows past its cap. The store owns
 * the traces: it fires `onDidAdd` for each one added. A trace may be handed over still to be built
 * (TraceBuilder.end): it is built after the caller's turn, or at once when the traces are read.
 */
import { AppendLog, fileLines } from '../storage/appendLog';
import { Emitter } from '../service/emitter';
import type { Trace } from './span';

/** A trace line past this many bytes is kept in memory only (a turn with content captured can be large). */
export const MAX_TRACE_BYTES = 512 * 1024;
export const DEFAULT_MAX_TRACES = 200;
/** How long a trace waits for others before they are written together. */
const WRITE_AFTER_MS = 250;

function parse(line: string): Trace | undefined {
  try {
    const t = JSON.parse(line) as Trace;
    return typeof t?.traceId === 'string' && Array.isArray(t.spans) ? t : undefined;
  } catch {
    // A torn last line (a crash mid-write) is skipped.
    return undefined;
  }
}

export class TraceStore {
  private readonly log: AppendLog;
  private traces: Trace[] = [];
  private unwritten: Trace[] = [];
  /** Handed over, not built yet (`settle` builds them). */
  private unbuilt: Array<Trace | (() => Trace | undefined)> = [];
  private timer: NodeJS.Timeout | undefined;
  /** The wake-up after a caller's turn that builds what was handed over (`wake`). */
  private waking: NodeJS.Immediate | undefined;
  private readonly added = new Emitter<Trace>();
  readonly onDidAdd = this.added.event;

  private constructor(
    readonly path: string,
    readonly maxTraces: number,
  ) {
    const max = maxTraces;
    // Compaction rewrites the file: let it grow a tenth past the cap first.
    this.log = new AppendLog(path, max + Math.max(8, Math.floor(max / 10)), async (lines) => {
      const kept: string[] = [];
      for await (const line of lines) {
        kept.push(line);
        if (kept.length > max) kept.shift();
      }
      return kept;
    });
  }

  static async open(path: string, maxTraces = DEFAULT_MAX_TRACES): Promise<TraceStore> {
    const store = new TraceStore(path, Math.max(1, Math.floor(maxTraces)));
    let lines = 0;
    for await (const line of fileLines(path)) {
      lines++;
      const t = parse(line);
      if (t) store.keep(t);
    }
    store.log.setLineCount(lines);
    return store;
  }

  /** Newest last. */
  all(): readonly Trace[] {
    this.settle();
    return this.traces;
  }

  get(traceId: string): Trace | undefined {
    return this.all().find((t) => t.traceId === traceId);
  }

  /**
   * Keeps the trace. The caller pays a push (and the first of a moment, a wake-up): the trace (or
   * its building: a function, which gives undefined for nothing to keep) is built after the
   * caller's turn, or when the traces are read, and written a moment later with the others of
   * that moment (`flush()` writes now and resolves once they are on disk). Hand over a trace you
   * no longer change.
   */
  add(trace: Trace | (() => Trace | undefined)): void {
    this.unbuilt.push(trace);
    // The first trace of a moment wakes the store once its caller's turn is over (an immediate
    // costs the caller half what a timer does); with a write already due, the write builds it.
    if (!this.timer) this.waking ??= setImmediate(this.wake);
  }

  private readonly wake = (): void => {
    this.waking = undefined;
    this.settle();
    if (this.unwritten.length) this.timer ??= setTimeout(() => void this.flush(), WRITE_AFTER_MS).unref();
  };

  /** Builds and keeps what was handed over, in order (a building that throws loses its trace only). */
  private settle(): void {
    if (!this.unbuilt.length) return;
    for (const item of this.unbuilt.splice(0)) {
      let trace: Trace | undefined;
      try {
        trace = typeof item === 'function' ? item() : item;
      } catch {
        continue;
      }
      if (!trace) continue;
      this.keep(trace);
      this.added.fire(trace);
      this.unwritten.push(trace);
    }
  }

  async flush(): Promise<void> {
    this.settle();
    clearTimeout(this.timer);
    this.timer = undefined;
    const traces = this.unwritten.splice(0);
    for (const t of traces) {
      const line = JSON.stringify(t);
      if (Buffer.byteLength(line) <= MAX_TRACE_BYTES) void this.log.append(line);
    }
    await this.log.flush();
  }

  private keep(trace: Trace): void {
    this.traces.push(trace);
    if (this.traces.length > this.maxTraces) this.traces.splice(0, this.traces.length - this.maxTraces);
  }

  dispose(): void {
    clearImmediate(this.waking);
    clearTimeout(this.timer);
    this.added.dispose();
  }
}
