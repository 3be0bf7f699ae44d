/**
 * Where each line of a large JSONL file starts, found by streaming it once (nothing parsed, nothing
 * held but two numbers a line), so any page of lines can be read without reading the rest. The
 * index fills in the background: a page waits only for its own lines.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { eachLine, isBlank } from './lines';

export class LineIndex {
  /** Each line's byte offset and length (numbers in a plain array take 8 bytes each, no object a line). */
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  /** The fewest lines any waiting page needs (pages wait in any order: not just the first one's). */
  private nextWake = Infinity;
  private failure: unknown;
  private finished = false;
  /** Settles when the whole file is indexed. */
  readonly done: Promise<number>;

  private constructor(
    readonly path: string,
    signal?: AbortSignal,
  ) {
    this.done = eachLine(
      path,
      ({ bytes, offset }) => {
        // Blank lines are no rows: a trailing newline or a spacer means nothing in the results.
        if (isBlank(bytes)) return;
        this.starts.push(offset);
        this.lengths.push(bytes.length);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: waking more often, or a line later, changes when a page is read, not what it reads
        if (this.nextWake <= this.starts.length) this.wake();
      },
      { signal },
    ).then(
      () => this.finish(),
      (err: unknown) => {
        this.failure = err;
        this.finish();
        throw err;
      },
    );
    // Whoever reads the index sees the failure; an unread one must not crash the process.
    this.done.catch(() => {});
  }

  static open(path: string, signal?: AbortSignal): LineIndex {
    return new LineIndex(path, signal);
  }

  private finish(): number {
    this.finished = true;
    this.wake();
    return this.starts.length;
  }

  private wake(): void {
    // Stryker disable next-line EqualityOperator: a page woken a line later reads the same lines
    const ready = this.waiters.filter((w) => this.finished || w.count <= this.starts.length);
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    this.nextWake = Math.min(Infinity, ...this.waiters.map((w) => w.count));
    for (const w of ready) w.resolve();
  }

  /** Lines indexed so far (all of them once `complete`). */
  get count(): number {
    return this.starts.length;
  }

  get complete(): boolean {
    return this.finished;
  }

  /** Waits until `count` lines are indexed or the file has fewer; rejects if indexing failed. */
  async ready(count: number): Promise<void> {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: waiting for lines already indexed only waits for the next line
    if (!this.finished && count > this.starts.length) {
      this.nextWake = Math.min(this.nextWake, count);
      await new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** Lines `from` to `from + count` (fewer at the end), read with one read of their span. */
  async read(from: number, count: number, handle?: FileHandle): Promise<Buffer[]> {
    await this.ready(from + count);
    const end = Math.min(from + count, this.starts.length);
    if (from >= end) return [];
    const first = this.starts[from];
    const span = this.starts[end - 1] + this.lengths[end - 1] - first;
    const fh = handle ?? (await open(this.path, 'r'));
    try {
      const buf = Buffer.alloc(span);
      await fh.read(buf, 0, span, first);
      const lines: Buffer[] = [];
      for (let i = from; i < end; i++) lines.push(buf.subarray(this.starts[i] - first, this.starts[i] - first + this.lengths[i]));
      return lines;
    } finally {
      if (!handle) await fh.close();
    }
  }
}
