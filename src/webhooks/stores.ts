/**
 * What the listener keeps on disk: the webhook-ids it processed (so a redelivery after a restart
 * is still a duplicate) and the received deliveries (capped, oldest dropped first). Both append a
 * line per change, in order, so nothing acknowledged is lost if the process ends.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { IdWindow, type DedupeStore, type DeliveryRecord } from './listener';

/** Serialises writes to one file. */
class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  run(job: () => Promise<void>): Promise<void> {
    this.tail = this.tail.then(job, job).catch(() => undefined);
    return this.tail;
  }
  flush(): Promise<void> {
    return this.tail;
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
  private readonly queue = new WriteQueue();
  /** Lines in the file; it is rewritten with only the remembered ids when it reaches twice the cap. */
  private lines = 0;

  constructor(
    private readonly path: string,
    cap = 10_000,
  ) {
    this.window = new IdWindow(cap);
    try {
      for (const id of readFileSync(path, 'utf8').split('\n')) {
        if (!id) continue;
        this.lines++;
        this.window.add(id);
      }
    } catch {
      /* first run */
    }
  }

  has(id: string): boolean {
    return this.window.has(id);
  }

  add(id: string): void {
    if (!this.window.add(id)) return;
    const line = `${id.replace(/\n/g, '')}\n`;
    void this.queue.run(async () => {
      this.lines++;
      if (this.lines >= this.window.cap * 2) {
        const ids = this.window.ids();
        this.lines = ids.length;
        await rewrite(this.path, ids);
      } else {
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(this.path, line);
      }
    });
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }
}

export class EventStore {
  private records: DeliveryRecord[] = [];
  private readonly queue = new WriteQueue();
  private lines = 0;

  constructor(
    private readonly path: string,
    private readonly cap = 1000,
  ) {}

  /** Reads what was stored; the last line for an id wins (updates are appended). */
  async load(): Promise<DeliveryRecord[]> {
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      /* first run */
    }
    const byId = new Map<string, DeliveryRecord>();
    for (const line of text.split('\n')) {
      if (!line) continue;
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
    this.lines = text.split('\n').filter(Boolean).length;
    this.records = [...byId.values()].slice(-this.cap);
    return this.list();
  }

  /** Newest first. */
  list(): DeliveryRecord[] {
    return [...this.records].reverse();
  }

  /** Adds or updates a record, on disk too. */
  put(record: DeliveryRecord): Promise<void> {
    const i = this.records.findIndex((r) => r.id === record.id);
    if (i >= 0) this.records[i] = record;
    else {
      this.records.push(record);
      if (this.records.length > this.cap) this.records.shift();
    }
    const line = JSON.stringify(record);
    return this.queue.run(async () => {
      this.lines++;
      if (this.lines > this.cap * 2) {
        this.lines = this.records.length;
        await rewrite(this.path, this.records.map((r) => JSON.stringify(r)));
      } else {
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(this.path, `${line}\n`);
      }
    });
  }

  clear(): Promise<void> {
    this.records = [];
    this.lines = 0;
    return this.queue.run(() => rewrite(this.path, []));
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }
}
