/**
 * What the listener keeps on disk: the webhook-ids it processed (so a redelivery after a restart
 * is still a duplicate) and the received deliveries (capped, oldest dropped first). Both append a
 * line per change, in order, batched per turn of the event loop, so nothing acknowledged waits
 * long for the disk.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { IdWindow, type DedupeStore, type DeliveryRecord } from './records';

/**
 * An append-only file of lines. Lines added while a write is under way go out together in the
 * next one (one write per batch, not per line, at thousands of deliveries a second); when the
 * file holds `compactAt` lines it is rewritten with only what `current()` returns.
 */
class AppendLog {
  private pending: string[] = [];
  private writing: Promise<void> | undefined;
  private lines = 0;
  private dirReady = false;
  /** Set by clear(): the next write replaces the file. */
  private truncate = false;

  constructor(
    private readonly path: string,
    private readonly compactAt: number,
    private readonly current: () => string[],
  ) {}

  /** Lines already in the file (read at start-up). */
  setLineCount(n: number): void {
    this.lines = n;
  }

  /** Resolves once the line is on disk. */
  append(line: string): Promise<void> {
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
      // Let the appends of this turn of the event loop join the batch.
      await new Promise<void>((r) => setImmediate(r));
      while (this.pending.length || this.truncate) {
        const batch = this.pending;
        this.pending = [];
        try {
          if (!this.dirReady) {
            await mkdir(dirname(this.path), { recursive: true });
            this.dirReady = true;
          }
          if (this.truncate || this.lines + batch.length >= this.compactAt) {
            const lines = this.current();
            await rewrite(this.path, lines);
            this.lines = lines.length;
            this.truncate = false;
          } else {
            await appendFile(this.path, `${batch.join('\n')}\n`);
            this.lines += batch.length;
          }
        } catch {
          // Disk trouble must not stop the listener: keep the lines for the next append to retry.
          this.pending = batch.concat(this.pending);
          this.dirReady = false;
          return;
        }
      }
    } finally {
      // In the same step as the loop's last check, so no append can slip in between and wait for nothing.
      this.writing = undefined;
    }
  }
}

async function rewrite(path: string, lines: string[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  await writeFile(tmp, lines.length ? `${lines.join('\n')}\n` : '');
  await rename(tmp, path);
}

export class FileDedupeStore implements DedupeStore {
  private readonly window: IdWindow;
  private readonly log: AppendLog;

  constructor(path: string, cap = 10_000) {
    this.window = new IdWindow(cap);
    this.log = new AppendLog(path, cap * 2, () => this.window.ids());
    let lines = 0;
    try {
      for (const id of readFileSync(path, 'utf8').split('\n')) {
        if (!id) continue;
        lines++;
        this.window.add(id);
      }
    } catch {
      /* first run */
    }
    this.log.setLineCount(lines);
  }

  has(id: string): boolean {
    return this.window.has(id);
  }

  add(id: string): void {
    if (this.window.add(id)) void this.log.append(id.replace(/\n/g, ''));
  }

  flush(): Promise<void> {
    return this.log.flush();
  }
}

export class EventStore {
  /** Oldest first. */
  private records: DeliveryRecord[] = [];
  private readonly byId = new Map<string, DeliveryRecord>();
  /** Each record as stored, so compacting the file does not serialise everything again. */
  private readonly lines = new Map<string, string>();
  private readonly log: AppendLog;

  constructor(
    private readonly path: string,
    private readonly cap = 1000,
  ) {
    this.log = new AppendLog(path, cap * 2, () => this.records.map((r) => this.lines.get(r.id) ?? JSON.stringify(r)));
  }

  /** Reads what was stored; the last line for an id wins (updates are appended). */
  async load(): Promise<DeliveryRecord[]> {
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      /* first run */
    }
    const byId = new Map<string, DeliveryRecord>();
    let lines = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      lines++;
      try {
        const r = JSON.parse(line) as DeliveryRecord;
        if (r && typeof r.id === 'string') {
          byId.delete(r.id);
          byId.set(r.id, r);
        }
      } catch {
        /* a torn last line after a crash */
      }
    }
    this.log.setLineCount(lines);
    this.records = [...byId.values()].slice(-this.cap);
    this.byId.clear();
    this.lines.clear();
    for (const r of this.records) this.byId.set(r.id, r);
    return this.list();
  }

  /** Newest first. */
  list(): DeliveryRecord[] {
    return [...this.records].reverse();
  }

  get size(): number {
    return this.records.length;
  }

  get(id: string): DeliveryRecord | undefined {
    return this.byId.get(id);
  }

  /** Adds or updates a record; resolves once it is on disk. */
  put(record: DeliveryRecord): Promise<void> {
    const old = this.byId.get(record.id);
    if (old) {
      // Updates are of recent records: look from the newest end.
      if (old !== record) this.records[this.records.lastIndexOf(old)] = record;
    } else {
      this.records.push(record);
      if (this.records.length > this.cap) {
        const dropped = this.records.shift()!.id;
        this.byId.delete(dropped);
        this.lines.delete(dropped);
      }
    }
    const line = JSON.stringify(record);
    this.byId.set(record.id, record);
    this.lines.set(record.id, line);
    return this.log.append(line);
  }

  clear(): Promise<void> {
    this.records = [];
    this.byId.clear();
    this.lines.clear();
    return this.log.clear();
  }

  flush(): Promise<void> {
    return this.log.flush();
  }
}
