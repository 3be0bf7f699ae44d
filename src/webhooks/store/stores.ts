/**
 * What the listener keeps on disk: the webhook-ids it processed (so a redelivery after a restart
 * is still a duplicate) and the received deliveries (capped, oldest dropped first). Both append a
 * line per change, in order, batched for WRITE_GATHER_MS, so nothing acknowledged waits long for
 * the disk and a burst of deliveries is a few writes, not two for each.
 */
import { readFileSync } from 'node:fs';
import { AppendLog, fileLines } from '../../storage/appendLog';
import { ArrivalWindow } from '../receive/arrivalWindow';
import type { Delivered } from './delivered';
import { RecordPacker, webhookIdHash, type PackedRecord } from './packed';
import type { DedupeStore, DeliveryRecord } from './records';

/** How long a change waits for others to join its write (see AppendLog). */
const WRITE_GATHER_MS = 20;

/**
 * The newest `cap` distinct ids of `lines` (oldest first): an id keeps the place it first took,
 * as the listener's window keeps it.
 */
function newestIds(lines: Iterable<string>, cap: number): Set<string> {
  const kept = new Set<string>();
  for (const id of lines) {
    if (!id || kept.has(id)) continue;
    kept.add(id);
    if (kept.size > cap) kept.delete(kept.values().next().value!);
  }
  return kept;
}

/**
 * The webhook-ids processed, on disk, and a lookup of the newest `cap` of them. The extension
 * host's (`lazy`) builds its lookup only when asked: the listener's process checks ids in a window
 * of its own (seeded from `ids()` when it starts), so the host holds none while only it listens.
 */
export class FileDedupeStore implements DedupeStore {
  private readonly log: AppendLog;
  private seen: Set<string> | undefined;

  constructor(
    private readonly path: string,
    private readonly cap = 10_000,
    lazy = false,
  ) {
    this.log = new AppendLog(path, cap * 2, async (lines) => {
      // What every window processed, not only this one.
      const all: string[] = [];
      for await (const id of lines) all.push(id);
      return [...newestIds(all, cap)];
    }, WRITE_GATHER_MS);
    this.log.setLineCount(this.lines().length);
    if (!lazy) this.lookup();
  }

  has(id: string): boolean {
    return this.lookup().has(id);
  }

  /** Processed: written once (without a lookup yet, the listener that tells it has checked it is new). */
  add(id: string): void {
    const seen = this.seen;
    if (seen?.has(id)) return;
    if (seen && seen.add(id).size > this.cap) seen.delete(seen.values().next().value!);
    void this.log.append(id.replace(/\n/g, ''));
  }

  /** The newest ids on disk, oldest first (`flush` first for those just added). */
  ids(): string[] {
    return [...newestIds(this.lines(), this.cap)];
  }

  flush(): Promise<void> {
    return this.log.flush();
  }

  private lookup(): Set<string> {
    return (this.seen ??= newestIds(this.ids(), this.cap));
  }

  private lines(): string[] {
    try {
      return readFileSync(this.path, 'utf8').split('\n').filter(Boolean);
    } catch {
      return []; // first run
    }
  }
}

/**
 * Rejected deliveries, and duplicates whose original is gone, have a cap of their own: a flood of
 * them never pushes out a verified one.
 */
const isMetadata = (r: Pick<DeliveryRecord, 'verdict'>) => r.verdict === 'rejected' || r.verdict === 'duplicate';

/** A record's kind decides its window; an update stays in the window of the record it updates. */
function windowFor<T>(id: string, verdict: DeliveryRecord['verdict'], signed: ArrivalWindow<T>, rejected: ArrivalWindow<T>): ArrivalWindow<T> {
  // Stryker disable next-line ConditionalExpression: only matters if an update changed a record's verdict, which none does
  if (signed.has(id)) return signed;
  // Stryker disable next-line ConditionalExpression: as the line above
  if (rejected.has(id)) return rejected;
  return isMetadata({ verdict }) ? rejected : signed;
}

/**
 * Replays stored lines (the last one for an id wins: updates are appended) through the same
 * windows the store keeps in memory, so memory stays bounded by the caps. Torn lines are skipped.
 */
async function readRecords<T>(lines: AsyncIterable<string>, cap: number, rejectedCap: number, pick: (r: DeliveryRecord, line: string) => T) {
  const signed = new ArrivalWindow<T>(cap);
  const rejected = new ArrivalWindow<T>(rejectedCap);
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
    windowFor(r.id, r.verdict, signed, rejected).put(r.id, r.receivedAt, pick(r, line));
  }
  return { signed, rejected, lines: count };
}

/**
 * The received deliveries, each kept as its JSON bytes outside the JS heap (see packed.ts) and
 * decoded when asked for: `get` and `list` give a new frozen object each call.
 */
export class EventStore {
  private signed: ArrivalWindow<PackedRecord>;
  private rejected: ArrivalWindow<PackedRecord>;
  private readonly log: AppendLog;
  private readonly packer = new RecordPacker();

  constructor(
    private readonly path: string,
    private readonly cap = 1000,
    private readonly rejectedCap = 200,
  ) {
    this.signed = new ArrivalWindow(cap);
    this.rejected = new ArrivalWindow(rejectedCap);
    this.log = new AppendLog(path, (cap + rejectedCap) * 2, async (lines) => {
      // The kept lines wait as bytes outside the JS heap: a line read is a slice of the 64 KiB piece
      // of the file it came in, so holding it held the whole file in the young generation while
      // the compaction ran between deliveries, and each scavenge then copied or promoted it all.
      const kept = await readRecords(lines, cap, rejectedCap, (_, line) => Buffer.from(line, 'utf8'));
      return [...kept.signed.values(), ...kept.rejected.values()].map((bytes) => bytes.toString('utf8'));
    }, WRITE_GATHER_MS);
  }

  async load(): Promise<DeliveryRecord[]> {
    const { signed, rejected, lines } = await readRecords(fileLines(this.path), this.cap, this.rejectedCap, (r, line) => this.packer.pack(r, line));
    this.log.setLineCount(lines);
    this.signed = signed;
    this.rejected = rejected;
    return this.list();
  }

  /** Newest first (by arrival; at the same time, the verified one first), decoded. */
  list(): DeliveryRecord[] {
    return this.summaries().map((p) => p.record());
  }

  /** Newest first, as `list`, without decoding the records. */
  summaries(): PackedRecord[] {
    const signed = this.signed.values();
    const rejected = this.rejected.values();
    const out: PackedRecord[] = [];
    let i = signed.length - 1;
    let j = rejected.length - 1;
    while (i >= 0 || j >= 0) {
      if (j < 0 || (i >= 0 && signed[i]!.receivedAt >= rejected[j]!.receivedAt)) out.push(signed[i--]!);
      else out.push(rejected[j--]!);
    }
    return out;
  }

  get size(): number {
    return this.signed.size + this.rejected.size;
  }

  get(id: string): DeliveryRecord | undefined {
    return this.summary(id)?.record();
  }

  summary(id: string): PackedRecord | undefined {
    return this.signed.get(id) ?? this.rejected.get(id);
  }

  /** The newest record with this webhook-id that `accept`s it (compared whole: the hash only picks candidates). */
  findByWebhookId(webhookId: string | undefined, accept: (s: PackedRecord) => boolean): DeliveryRecord | undefined {
    const hook = webhookIdHash(webhookId);
    for (const s of this.summaries()) {
      if (s.hook !== hook || !accept(s)) continue;
      const r = s.record();
      if (r.webhookId === webhookId) return r;
    }
    return undefined;
  }

  /** Adds or updates a record; resolves once it is on disk. */
  put(record: DeliveryRecord): Promise<void> {
    const json = JSON.stringify(record);
    this.keep(record, json);
    return this.log.append(json);
  }

  /** Adds a record from its JSON bytes as the listener's process sent them: stored and written as they are, not decoded. */
  putBytes(d: Delivered): Promise<void> {
    windowFor(d.id, d.verdict, this.signed, this.rejected).put(d.id, d.receivedAt, this.packer.pack(d, d.json));
    // The store holds its own copy: the batch's bytes may go once this line is written.
    return this.log.append(d.json);
  }

  /** Adds or updates a record in memory only; `put` it later to keep it (a burst of counts is written once). */
  hold(record: DeliveryRecord): void {
    this.keep(record, JSON.stringify(record));
  }

  clear(): Promise<void> {
    this.signed = new ArrivalWindow(this.cap);
    this.rejected = new ArrivalWindow(this.rejectedCap);
    return this.log.clear();
  }

  flush(): Promise<void> {
    return this.log.flush();
  }

  private keep(record: DeliveryRecord, json: string): void {
    windowFor(record.id, record.verdict, this.signed, this.rejected).put(record.id, record.receivedAt, this.packer.pack(record, json));
  }
}
