/**
 * What the listener keeps on disk: the webhook-ids it processed (so a redelivery after a restart
 * is still a duplicate) and the received deliveries (capped, oldest dropped first). Both append a
 * line per change, in order, batched per turn of the event loop, so nothing acknowledged waits
 * long for the disk.
 */
import { readFileSync } from 'node:fs';
import { AppendLog, fileLines } from './appendLog';
import { IdWindow, type DedupeStore, type DeliveryRecord } from './records';

export class FileDedupeStore implements DedupeStore {
  private readonly window: IdWindow;
  private readonly log: AppendLog;

  constructor(path: string, cap = 10_000) {
    this.window = new IdWindow(cap);
    this.log = new AppendLog(path, cap * 2, async (lines) => {
      // What every window processed, not only this one.
      const all = new IdWindow(cap);
      for await (const id of lines) all.add(id);
      return all.ids();
    });
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

/** Rejected deliveries have a cap of their own: a flood of them never pushes out a verified one. */
const isRejected = (r: Pick<DeliveryRecord, 'verdict'>) => r.verdict === 'rejected';

type Entry<T> = [id: string, entry: { rejected: boolean; value: T }];

/**
 * The newest `cap` signed and `rejectedCap` rejected entries of a list in arrival order (the
 * last line for an id wins), oldest first.
 */
function newest<T>(byId: Map<string, Entry<T>[1]>, cap: number, rejectedCap: number): Entry<T>[] {
  const kept: Entry<T>[] = [];
  let signed = 0;
  let rejected = 0;
  for (const e of [...byId].reverse()) {
    if (e[1].rejected ? rejected++ < rejectedCap : signed++ < cap) kept.push(e);
  }
  return kept.reverse();
}

/** Reads stored lines: the last one for an id wins (updates are appended); torn lines are skipped. */
async function readRecords<T>(lines: AsyncIterable<string>, cap: number, rejectedCap: number, pick: (r: DeliveryRecord, line: string) => T): Promise<{ kept: T[]; lines: number }> {
  let byId = new Map<string, Entry<T>[1]>();
  let count = 0;
  for await (const line of lines) {
    count++;
    let r: DeliveryRecord;
    try {
      r = JSON.parse(line) as DeliveryRecord;
    } catch {
      continue;
    }
    if (!r || typeof r.id !== 'string') continue;
    byId.delete(r.id);
    byId.set(r.id, { rejected: isRejected(r), value: pick(r, line) });
    // An old, oversized file is read in bounded memory.
    if (byId.size > 4 * (cap + rejectedCap)) byId = new Map(newest(byId, cap, rejectedCap));
  }
  return { kept: newest(byId, cap, rejectedCap).map(([, e]) => e.value), lines: count };
}

export class EventStore {
  /** Oldest first, each class under its own cap. */
  private signed: DeliveryRecord[] = [];
  private rejected: DeliveryRecord[] = [];
  private readonly byId = new Map<string, DeliveryRecord>();
  private readonly log: AppendLog;

  constructor(
    private readonly path: string,
    private readonly cap = 1000,
    private readonly rejectedCap = 200,
  ) {
    this.log = new AppendLog(path, (cap + rejectedCap) * 2, async (lines) => (await readRecords(lines, cap, rejectedCap, (_, line) => line)).kept);
  }

  async load(): Promise<DeliveryRecord[]> {
    const { kept, lines } = await readRecords(fileLines(this.path), this.cap, this.rejectedCap, (r) => r);
    this.log.setLineCount(lines);
    // The file holds records in write order (an update is written again): the view is by arrival.
    kept.sort((a, b) => a.receivedAt - b.receivedAt);
    this.signed = kept.filter((r) => !isRejected(r));
    this.rejected = kept.filter(isRejected);
    this.byId.clear();
    for (const r of kept) this.byId.set(r.id, r);
    return this.list();
  }

  /** Newest first (by arrival). */
  list(): DeliveryRecord[] {
    const out: DeliveryRecord[] = [];
    let i = this.signed.length - 1;
    let j = this.rejected.length - 1;
    while (i >= 0 || j >= 0) {
      if (j < 0 || (i >= 0 && this.signed[i].receivedAt >= this.rejected[j].receivedAt)) out.push(this.signed[i--]);
      else out.push(this.rejected[j--]);
    }
    return out;
  }

  get size(): number {
    return this.signed.length + this.rejected.length;
  }

  get(id: string): DeliveryRecord | undefined {
    return this.byId.get(id);
  }

  /** Adds or updates a record; resolves once it is on disk. */
  put(record: DeliveryRecord): Promise<void> {
    const old = this.byId.get(record.id);
    const list = isRejected(old ?? record) ? this.rejected : this.signed;
    if (old) {
      // Updates are of recent records: look from the newest end.
      if (old !== record) list[list.lastIndexOf(old)] = record;
    } else {
      list.push(record);
      if (list.length > (list === this.rejected ? this.rejectedCap : this.cap)) this.byId.delete(list.shift()!.id);
    }
    this.byId.set(record.id, record);
    return this.log.append(JSON.stringify(record));
  }

  clear(): Promise<void> {
    this.signed = [];
    this.rejected = [];
    this.byId.clear();
    return this.log.clear();
  }

  flush(): Promise<void> {
    return this.log.flush();
  }
}
