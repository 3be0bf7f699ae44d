/**
 * The one owner of received webhook events: the event store (on disk), the webhook-ids processed,
 * and who is told what changed. Records are kept as bytes and decoded on access: each `get` or
 * `list` gives new frozen objects, equal to the ones recorded. A record is frozen when the listener hands it over; a forward's
 * answer, a replay or a count of duplicates is a new version of it, written here and nowhere else.
 *
 * Duplicates (a webhook-id processed already: a redelivery, or someone replaying a signed delivery
 * they hold) are counted on the record they repeat, or on one body-less row when that record is
 * gone; they never take a row of their own in the verified window, so replays cannot push out
 * real events. Counts are written at most once per `countWriteMs` per record, not once per replay.
 */
import { Emitter, type Event } from '../../service/emitter';
import { MAX_REPLAYS, type DedupeStore, type DeliveryRecord, type ForwardResult } from './records';
import type { Delivered } from './delivered';
import type { EventSummary } from './packed';
import { EventStore, FileDedupeStore } from './stores';

export type { EventSummary } from './packed';

export interface WebhookEventsOptions {
  /** The events file and the processed-ids file. */
  eventsPath: string;
  idsPath: string;
  /** Verified (signed) deliveries kept, newest first. */
  maxStored?: number;
  /** Rejected deliveries and orphaned duplicate counts kept (a cap of their own). */
  maxMetadata?: number;
  /** How long a burst of duplicate counts waits before the record is written again. */
  countWriteMs?: number;
}

export class WebhookEvents {
  /** The webhook-ids processed: the listener asks it whether a delivery is a duplicate. */
  readonly dedupe: DedupeStore & { flush(): Promise<void> };
  private readonly store: EventStore;
  private readonly countWriteMs: number;
  private readonly unwritten = new Set<string>();
  private writeTimer: NodeJS.Timeout | undefined;
  private readonly recorded = new Emitter<DeliveryRecord>();
  /** Subscribers of `onDidRecord`: with none, a delivery that came as bytes is not decoded to tell them. */
  private recordListeners = 0;
  private readonly arrived = new Emitter<EventSummary>();
  private readonly updated = new Emitter<string>();
  private readonly reset = new Emitter<void>();
  private loaded: Promise<void> | undefined;

  /** A new row: a delivery arrived (or a new duplicate count, its original gone). Decodes each: prefer `onDidArrive`. */
  readonly onDidRecord: Event<DeliveryRecord> = (listener) => {
    this.recordListeners++;
    const sub = this.recorded.event(listener);
    let subscribed = true;
    return {
      dispose: () => {
        if (subscribed) this.recordListeners--;
        subscribed = false;
        sub.dispose();
      },
    };
  };
  /** A new row, as `onDidRecord`, with its summary: `record()` decodes it for those that need more. */
  readonly onDidArrive: Event<EventSummary> = this.arrived.event;
  /** A row has a new version (the app's answer, a replay, a duplicate counted): its id. */
  readonly onDidUpdate: Event<string> = this.updated.event;
  /** Every row may have changed: loaded from disk, or cleared. */
  readonly onDidReset: Event<void> = this.reset.event;

  constructor(options: WebhookEventsOptions) {
    const maxStored = options.maxStored ?? 1000;
    const maxMetadata = options.maxMetadata ?? 200;
    this.store = new EventStore(options.eventsPath, maxStored, maxMetadata);
    // No lookup of ids in the host until a listener in this process asks: the listener's process has its own.
    this.dedupe = new FileDedupeStore(options.idsPath, undefined, true);
    this.countWriteMs = options.countWriteMs ?? 1000;
  }

  async load(): Promise<void> {
    await this.store.load();
    this.reset.fire();
  }

  /** Resolves once the events on disk are loaded (loading them when nobody has yet). */
  ready(): Promise<void> {
    return (this.loaded ??= this.load());
  }

  get size(): number {
    return this.store.size;
  }

  get(id: string): DeliveryRecord | undefined {
    return this.store.get(id);
  }

  /** A row's summary: its record's newest version, not decoded. */
  summary(id: string): EventSummary | undefined {
    return this.store.summary(id);
  }

  /** Newest first. Each record is decoded from its stored bytes: for rows, `summaries` decodes none. */
  list(): DeliveryRecord[] {
    return this.store.list();
  }

  /** Newest first, as `list`: each row's id, arrival, verdict and type, and its record when asked. */
  summaries(): readonly EventSummary[] {
    return this.store.summaries();
  }

  /** A delivery the listener answered: kept as it is (frozen), or counted when it is a duplicate. */
  record(r: DeliveryRecord): void {
    if (r.verdict === 'duplicate') return this.countDuplicate(r);
    const kept = Object.freeze(r);
    void this.store.put(kept);
    this.told(kept);
  }

  /** The same, for a delivery as the listener's process sent it: stored and written as bytes, decoded only for who asks. */
  recordBytes(d: Delivered): void {
    if (d.verdict === 'duplicate') return this.countDuplicate(d.record());
    void this.store.putBytes(d);
    const summary = this.store.summary(d.id);
    if (this.recordListeners) this.recorded.fire(d.record());
    if (summary) this.arrived.fire(summary);
  }

  /** The app's answer to the forward made on arrival. */
  forwarded(id: string, forward: ForwardResult): DeliveryRecord | undefined {
    return this.revise(id, (r) => ({ ...r, forward }));
  }

  /** The app's answer to a replay from the inspector (the newest MAX_REPLAYS are kept). */
  replayed(id: string, answer: ForwardResult): DeliveryRecord | undefined {
    return this.revise(id, (r) => ({ ...r, replays: [...(r.replays ?? []), answer].slice(-MAX_REPLAYS) }));
  }

  async clear(): Promise<void> {
    await this.store.clear();
    this.reset.fire();
  }

  /** Resolves when every record and id so far is on disk (counts waiting for their write included). */
  async flush(): Promise<void> {
    this.writeCounts();
    await Promise.all([this.store.flush(), this.dedupe.flush()]);
  }

  dispose(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    this.recorded.dispose();
    this.arrived.dispose();
    this.updated.dispose();
    this.reset.dispose();
  }

  /** Writes a new version of a held record; nothing when it is no longer stored. */
  private revise(id: string, change: (r: DeliveryRecord) => DeliveryRecord, write = true): DeliveryRecord | undefined {
    const held = this.store.get(id);
    if (!held) return undefined;
    const next = Object.freeze(change(held));
    if (write) {
      this.unwritten.delete(id);
      void this.store.put(next);
    } else {
      this.store.hold(next);
      this.unwritten.add(id);
      this.writeTimer ??= setTimeout(() => this.writeCounts(), this.countWriteMs).unref();
    }
    this.updated.fire(id);
    return next;
  }

  private countDuplicate(r: DeliveryRecord): void {
    // Newest first: the row that counts this webhook-id (never a rejected delivery's: its id was not processed).
    const held = this.store.findByWebhookId(r.webhookId, (x) => x.verdict !== 'rejected');
    if (held) {
      const count = (h: DeliveryRecord) => (h.verdict === 'duplicate' ? { ...h, count: (h.count ?? 1) + 1 } : { ...h, duplicates: { count: (h.duplicates?.count ?? 0) + 1, lastAt: r.receivedAt } });
      this.revise(held.id, count, false);
      return;
    }
    // What it repeats is gone (older than the store, or cleared): one body-less row counts them all.
    const row = Object.freeze({ ...r, body: '', count: 1 });
    void this.store.put(row);
    this.told(row);
  }

  private told(r: DeliveryRecord): void {
    this.recorded.fire(r);
    const summary = this.store.summary(r.id);
    if (summary) this.arrived.fire(summary);
  }

  private writeCounts(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    for (const id of this.unwritten) {
      const r = this.store.get(id);
      if (r) void this.store.put(r);
    }
    this.unwritten.clear();
  }
}
