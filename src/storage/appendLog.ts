/**
 * An append-only file of lines, shared safely: two VS Code windows use the same global storage,
 * and a crash can leave a torn last line.
 *
 * - Lines added while a write is under way go out together in the next one (one write per batch);
 *   with `gatherMs`, a burst is gathered that long before each write (each write takes a lock
 *   file: a thousand webhook deliveries in a second were two thousand locked writes).
 * - Each write starts on a fresh line, so a torn line never swallows the next record.
 * - Compaction rebuilds the file from the file itself (what every process appended), under a lock
 *   file, through a temporary file of its own; lines appended to the old file while it ran are
 *   carried over after the rename.
 * - Files are created readable by the user only.
 */
import { createReadStream } from 'node:fs';
import { appendFile, chmod, mkdir, open, rename, stat, unlink, utimes, writeFile, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

const MODE = 0o600;
/** A lock untouched for this long was left by a process that died while holding it. */
const STALE_LOCK_MS = 30_000;
/** How often the holder touches its lock, so that a long compaction never looks stale. */
const LOCK_HEARTBEAT_MS = 1_000;
/** How long a write waits for another window's compaction, and how often it looks. */
const MAX_LOCK_WAIT_MS = 5_000;
const LOCK_RETRY_MS = 5;

/** Given every line of the file, oldest first, returns the lines to keep. */
export type Compactor = (lines: AsyncIterable<string>) => Promise<string[]>;

export class AppendLog {
  private pending: Array<string | Uint8Array> = [];
  private writing: Promise<void> | undefined;
  private lines = 0;
  private dirReady = false;
  /** Unknown until the first write looks at the file's last byte. */
  private endsWithNewline: boolean | undefined;
  /** Set by clear(): the next write replaces the file. */
  private truncate = false;

  constructor(
    readonly path: string,
    private readonly compactAt: number,
    private readonly compact: Compactor,
    /** How long lines wait for others to join their write; 0: only those of the same turn of the event loop. */
    private readonly gatherMs = 0,
  ) {}

  /** Lines already in the file (read at start-up). */
  setLineCount(n: number): void {
    this.lines = n;
  }

  /** Resolves once the line is on disk (bytes: already UTF-8, written as they are). */
  append(line: string | Uint8Array): Promise<void> {
    this.pending.push(line);
    return this.kick();
  }

  clear(): Promise<void> {
    this.pending = [];
    this.truncate = true;
    return this.kick();
  }

  /** Resolves when everything appended so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private kick(): Promise<void> {
    this.writing ??= this.drain();
    return this.writing;
  }

  private async drain(): Promise<void> {
    try {
      await this.gather();
      while (this.pending.length || this.truncate) {
        const batch = this.pending;
        this.pending = [];
        try {
          // Stryker disable next-line ConditionalExpression,BooleanLiteral: only spares a mkdir per write
          if (!this.dirReady) {
            await mkdir(dirname(this.path), { recursive: true });
            // Stryker disable next-line BooleanLiteral: only spares a mkdir per write
            this.dirReady = true;
          }
          if (this.truncate) {
            // Cleared for every window.
            await withLock(this.path, () => replace(this.path, batch), true);
            this.lines = batch.length;
            this.truncate = false;
            this.endsWithNewline = true;
            continue;
          }
          // Stryker disable next-line ConditionalExpression: looking again finds the newline this log wrote
          if (this.endsWithNewline === undefined) {
            // A file from an older version may be readable by others.
            await chmod(this.path, MODE).catch(() => undefined);
            this.endsWithNewline = await endsWithNewline(this.path);
          }
          // Under the lock: an append to the file a compaction is about to replace would be lost.
          const parts = linesOut(batch, !this.endsWithNewline);
          await withLock(this.path, () => appendParts(this.path, parts), true);
          this.endsWithNewline = true;
          this.lines += batch.length;
          if (this.lines >= this.compactAt) {
            const kept = await withLock(this.path, () => this.rebuild());
            if (kept !== undefined) this.lines = kept;
          }
          // A burst still arriving: its next lines gather too, rather than a write each.
          if (this.gatherMs && this.pending.length) await this.gather();
        } catch {
          // Disk trouble must not stop the listener: keep the lines for the next append to retry.
          this.pending = batch.concat(this.pending);
          this.dirReady = false;
          this.endsWithNewline = undefined;
          return;
        }
      }
    } finally {
      // In the same step as the loop's last check, so no append can slip in between and wait for nothing.
      this.writing = undefined;
    }
  }

  /** Lets the appends of this turn of the event loop (or of the next `gatherMs`) join the batch. */
  private gather(): Promise<void> {
    return new Promise<void>((r) => (this.gatherMs ? setTimeout(r, this.gatherMs) : setImmediate(r)));
  }

  /** Rewrites the file with what the compactor keeps; returns how many lines it holds. */
  private async rebuild(): Promise<number> {
    let old: FileHandle;
    try {
      old = await open(this.path, 'r');
    } catch {
      return 0;
    }
    try {
      const size = (await old.stat()).size;
      const kept = size ? await this.compact(readLines(old, size)) : [];
      await replace(this.path, kept);
      // Another process may have appended to the old file while this one read it.
      const late = (await old.stat()).size - size;
      if (late > 0) {
        const { buffer } = await old.read(Buffer.alloc(late), 0, late, size);
        const text = buffer.toString('utf8');
        // Stryker disable next-line ObjectLiteral: the file exists (just renamed into place), so no mode applies
        await appendFile(this.path, text.endsWith('\n') ? text : `${text}\n`, { mode: MODE });
        return kept.length + text.split('\n').filter(Boolean).length;
      }
      return kept.length;
    } finally {
      await old.close();
    }
  }
}

async function* readLines(file: FileHandle, size: number): AsyncIterable<string> {
  // Stryker disable next-line StringLiteral: the path is ignored when an fd is given
  const stream = createReadStream('', { fd: file.fd, start: 0, end: size - 1, autoClose: false, encoding: 'utf8' });
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) if (line) yield line;
}

/** Every line of a file, oldest first (none when it does not exist), read as a stream. */
export async function* fileLines(path: string): AsyncIterable<string> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch {
    return;
  }
  try {
    const size = (await file.stat()).size;
    if (size) yield* readLines(file, size);
  } finally {
    await file.close();
  }
}

/** Whether a file's last byte is a newline (an empty or missing file starts a fresh line too). */
export async function endsWithNewline(path: string): Promise<boolean> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch {
    return true;
  }
  try {
    const size = (await file.stat()).size;
    if (!size) return true;
    const { buffer } = await file.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 10;
  } finally {
    await file.close();
  }
}

const NEWLINE = Buffer.from('\n');

/**
 * The batch as the bytes to append, each line copied once outside the JavaScript heap: joining
 * them into one string first cost the extension host's young generation three copies of every
 * record (the join, and flattening it with its newlines for the write).
 */
function linesOut(batch: Array<string | Uint8Array>, newlineFirst: boolean): Uint8Array[] {
  const parts: Uint8Array[] = newlineFirst ? [NEWLINE] : [];
  for (const line of batch) parts.push(typeof line === 'string' ? Buffer.from(line, 'utf8') : line, NEWLINE);
  return parts;
}

/** Appends in one write (creating the file for the user only). */
async function appendParts(path: string, parts: Uint8Array[]): Promise<void> {
  const file = await open(path, 'a', MODE);
  try {
    await file.writev(parts);
  } finally {
    await file.close();
  }
}

/** Replaces the file at once, through a temporary file no other process uses. */
async function replace(path: string, lines: Array<string | Uint8Array>): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, Buffer.concat(linesOut(lines, false)), { mode: MODE });
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Runs `fn` holding `<path>.lock`. When another writer holds it: `wait` retries for a while
 * (then runs anyway rather than lose the write); otherwise gives up and returns undefined.
 */
// Stryker disable next-line BooleanLiteral: waiting instead of skipping a compaction only compacts again after the other window
async function withLock<T>(path: string, fn: () => Promise<T>, wait = false): Promise<T | undefined> {
  const lock = `${path}.lock`;
  let handle: FileHandle;
  for (let waited = 0; ; waited += LOCK_RETRY_MS) {
    try {
      handle = await open(lock, 'wx', MODE);
      break;
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: any other error recurs, and the wait ends by running `fn`, which meets it too
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (await stat(lock).then((s) => s.mtimeMs, () => Date.now()));
      // Stryker disable next-line EqualityOperator: the boundary is one millisecond wide
      if (age >= STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      // Stryker disable next-line ConditionalExpression: see `wait` above
      else if (!wait) return undefined;
      else if (waited >= MAX_LOCK_WAIT_MS) return fn();
      else await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
    }
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lock, now, now).catch(() => undefined);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  try {
    await handle.close();
    return await fn();
  } finally {
    clearInterval(heartbeat);
    await unlink(lock).catch(() => undefined);
  }
}
