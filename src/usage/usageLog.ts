/**
 * The usage log: one JSON line per request in the extension's global storage, shared by every
 * window. The append-only file of the event store does the safe part (a fresh line after a torn
 * write, compaction under a lock, 0600, two windows at once); this adds the caps: records older
 * than `maxAgeDays` are never read and leave the file at the next compaction, which keeps the
 * newest `maxRecords` records within `maxBytes`. The view's tables read the whole file as a
 * stream each time: 32 MB (the default cap) in about 0.3 s of CPU (`npm run bench`).
 */
import { open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { AppendLog } from '../storage/appendLog';
import { aggregateUsage, type AggregateOptions, type UsageSummary } from './aggregate';
import { createUsageRecord, parseUsageLine, serializeUsageRecord, type UsageInput, type UsageRecord } from './record';

export interface UsageCaps {
  maxAgeDays: number;
  maxRecords: number;
  maxBytes: number;
}

/** A year of a busy day's requests fits; a month's chart needs 30 days, the default keeps 90. */
export const DEFAULT_USAGE_CAPS: UsageCaps = { maxAgeDays: 90, maxRecords: 100_000, maxBytes: 32 * 1024 * 1024 };
const BOUNDS: Record<keyof UsageCaps, [number, number]> = { maxAgeDays: [1, 3650], maxRecords: [100, 10_000_000], maxBytes: [64 * 1024, 1024 ** 3] };

/** Caps from settings: a missing or non-numeric value takes the default, others are kept within bounds. */
export function usageCaps(partial: Partial<Record<keyof UsageCaps, unknown>> = {}): UsageCaps {
  const caps = { ...DEFAULT_USAGE_CAPS };
  for (const key of Object.keys(BOUNDS) as Array<keyof UsageCaps>) {
    const v = partial[key];
    // Stryker disable next-line ConditionalExpression: Number.isFinite alone decides; typeof tells TypeScript
    if (typeof v === 'number' && Number.isFinite(v)) caps[key] = Math.min(BOUNDS[key][1], Math.max(BOUNDS[key][0], Math.floor(v)));
  }
  return caps;
}

const DAY_MS = 86_400_000;
/**
 * Records wait this long, or until this many wait, then go to disk in one write: a burst of
 * requests (a compare, Run again ×N, a batch's results) costs one write, and a request's caller
 * pays only a push. A crash loses at most this moment's records; a normal shutdown flushes.
 */
export const FLUSH_MS = 250;
export const FLUSH_AT = 256;

/**
 * Keeps the newest lines within the caps, reading the file as a stream. Bytes are kept within 90 %
 * of their cap, so that the appends after a compaction do not each compact again.
 */
function compactor(caps: UsageCaps, now: () => number) {
  return async (lines: AsyncIterable<string>): Promise<string[]> => {
    const cutoff = now() - caps.maxAgeDays * DAY_MS;
    const budget = caps.maxBytes * 0.9;
    const kept: string[] = [];
    let head = 0;
    let bytes = 0;
    for await (const line of lines) {
      const r = parseUsageLine(line);
      if (!r || r.at < cutoff) continue;
      kept.push(line);
      bytes += Buffer.byteLength(line) + 1;
      while (kept.length - head > caps.maxRecords || bytes > budget) bytes -= Buffer.byteLength(kept[head++]) + 1;
      // Stryker disable next-line all: only reclaims memory early
      if (head > 4096) {
        kept.splice(0, head);
        head = 0;
      }
    }
    return kept.slice(head);
  };
}

export class UsageLog {
  private readonly log: AppendLog;
  private readonly compactAt: number;
  /** The file's size as this window knows it: what it found plus what it appended. */
  private bytes = 0;
  /** Records handed over and not yet written, and the timer that writes them (`armed` while it runs). */
  private queue: UsageInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private armed = false;

  private constructor(
    readonly path: string,
    readonly caps: UsageCaps,
    private readonly now: () => number,
  ) {
    // Compaction rewrites the file: let it grow a tenth past the cap first.
    this.compactAt = caps.maxRecords + Math.max(64, Math.floor(caps.maxRecords / 10));
    this.log = new AppendLog(path, this.compactAt, compactor(caps, now));
  }

  /** Opens the log, counting what the file holds; a file over a cap is compacted at the first append. */
  static async open(path: string, caps: UsageCaps = DEFAULT_USAGE_CAPS, now: () => number = Date.now): Promise<UsageLog> {
    const log = new UsageLog(path, caps, now);
    // Earlier builds kept day summaries beside the log (`usage.jsonl.days`): nothing reads them now.
    await unlink(`${path}.days`).catch(() => undefined);
    const { lines, bytes, first } = await surveyUsageFile(path);
    log.bytes = bytes;
    // A file over the byte cap compacts at the first append anyway: the count of bytes starts from its size.
    const tooOld = (first ?? Infinity) < now() - caps.maxAgeDays * DAY_MS;
    log.log.setLineCount(tooOld ? log.compactAt : lines);
    return log;
  }

  /**
   * Records one request. The caller pays a push: the record is built from `input` (field by
   * field, so nothing else it carries reaches the disk) and written a moment later (`FLUSH_MS`,
   * or at once when `FLUSH_AT` wait), with the others of that moment in one write. Hand over an
   * object you no longer change. `flush()` writes now and resolves once the records are on disk:
   * call it before the process ends (the extension's deactivate does).
   */
  append(input: UsageInput): void {
    this.queue.push(input);
    if (this.queue.length >= FLUSH_AT) void this.writeQueue();
    else if (!this.armed) {
      this.armed = true;
      // One timer, armed again (cheaper than a new one per record); a record waiting must not keep a process alive.
      // Stryker disable next-line ConditionalExpression: a new timer each time does the same, only dearer
      if (this.timer) this.timer.refresh();
      // Stryker disable next-line MethodExpression: unref only lets a process with nothing else to do end
      else this.timer = setTimeout(() => this.onTimer(), FLUSH_MS).unref();
    }
  }

  private onTimer(): void {
    this.armed = false;
    void this.writeQueue();
  }

  /** Writes the records waiting, in one batch; resolves once they are on disk (the append log retries after disk trouble). */
  private writeQueue(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    // Each line is handed to the append log at once: the batch goes out in one write.
    return Promise.all(batch.map((r) => this.write(serializeUsageRecord(createUsageRecord(r))))).then(() => undefined);
  }

  private async write(line: string): Promise<void> {
    this.bytes += Buffer.byteLength(line) + 1;
    // Stryker disable next-line EqualityOperator: at the cap exactly, compacting keeps the same lines
    if (this.bytes <= this.caps.maxBytes) return this.log.append(line);
    // Over the size cap: this write compacts, then the size is read again.
    this.log.setLineCount(this.compactAt);
    this.bytes = 0;
    await this.log.append(line);
    // Stryker disable next-line ArrowFunction: a file that went missing is empty
    this.bytes = await stat(this.path).then((s) => s.size, () => 0);
  }

  /** Writes the records appended so far and resolves when they are on disk. */
  async flush(): Promise<void> {
    await this.writeQueue();
    await this.log.flush();
  }

  /** Empties the log, for every window (records handed over before are written first). */
  async clear(): Promise<void> {
    await this.flush();
    return this.log.clear();
  }

  /** The records within the age cap, oldest first (torn and foreign lines skipped). */
  async records(): Promise<UsageRecord[]> {
    const out: UsageRecord[] = [];
    const cutoff = this.now() - this.caps.maxAgeDays * DAY_MS;
    for await (const chunk of usageLines(this.path)) for (const r of chunk) if (r && r.at >= cutoff) out.push(r);
    return out;
  }

  /** The usage view's tables, every line read as a stream (records past the age cap left out). */
  async summarize(options: AggregateOptions = {}): Promise<UsageSummary> {
    const now = this.now();
    return aggregateUsage(usageLines(this.path), { now, notBefore: now - this.caps.maxAgeDays * DAY_MS, ...options });
  }
}

/**
 * The non-empty lines of a file, read as a stream (a line is what lies between two newlines;
 * the last may lack its own), each as a record or undefined when it is not one, given a read
 * (64 KiB) at a time: an await per line would cost a sixth of the reading. A file that does not
 * exist has none.
 */
export async function* usageLines(path: string): AsyncGenerator<Array<UsageRecord | undefined>> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    let rest = '';
    for await (const chunk of file.createReadStream({ encoding: 'utf8', autoClose: false })) {
      const lines = (rest + (chunk as string)).split('\n');
      rest = lines.pop()!;
      yield lines.filter((line) => line).map(parseUsageLine);
    }
    if (rest) yield [parseUsageLine(rest)];
  } finally {
    await file.close();
  }
}

/** How many lines and bytes a log file holds, and when its first record was made (nothing when it does not exist). */
export async function surveyUsageFile(path: string): Promise<{ lines: number; bytes: number; first?: number }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return { lines: 0, bytes: 0 };
  }
  try {
    const bytes = (await handle.stat()).size;
    const buf = Buffer.alloc(1 << 16);
    let lines = 0;
    let first: number | undefined;
    // Stryker disable next-line EqualityOperator: one more read at the end reads nothing
    for (let pos = 0; pos < bytes; ) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      // Stryker disable next-line ConditionalExpression: only a file cut short while it is read ends here
      if (!bytesRead) break;
      const chunk = buf.subarray(0, bytesRead);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      if (pos === 0) first = parseUsageLine(chunk.toString('utf8').split('\n')[0])?.at;
      pos += bytesRead;
    }
    return { lines, bytes, first };
  } finally {
    await handle.close();
  }
}
