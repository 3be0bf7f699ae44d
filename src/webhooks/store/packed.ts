/**
 * A stored record as its JSON bytes outside the JS heap (see slabs.ts), with what a row of the
 * Events view needs beside them, so that listing rows decodes nothing. The record itself is
 * decoded when asked for (the inspector, a command, the top rows drawn), frozen, and let go.
 */
import type { DeliveryRecord, Verdict } from './records';
import { Slabs } from './slabs';

/** What a row shows and filters by, without decoding its record. */
export interface EventSummary {
  readonly id: string;
  readonly receivedAt: number;
  readonly verdict: Verdict;
  readonly eventType: string | undefined;
  /** The record as stored when this summary was made, decoded afresh (a new frozen object each call). */
  record(): DeliveryRecord;
}

const VERDICTS: readonly Verdict[] = ['verified', 'duplicate', 'rejected', 'malformed'];

/** FNV-1a over the UTF-16 code units: finds a webhook-id's candidates, which are then compared whole. */
export function webhookIdHash(id: string | undefined): number {
  if (id === undefined) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h;
}

export class PackedRecord implements EventSummary {
  constructor(
    readonly id: string,
    readonly receivedAt: number,
    readonly verdict: Verdict,
    readonly eventType: string | undefined,
    /** webhookIdHash of the record's webhook-id. */
    readonly hook: number,
    private readonly slab: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  record(): DeliveryRecord {
    return Object.freeze(JSON.parse(this.slab.toString('utf8', this.start, this.end)) as DeliveryRecord);
  }
}

/** Packs records into slabs of their own; the strings every row repeats are kept once. */
export class RecordPacker {
  private readonly slabs = new Slabs();
  private readonly types = new Map<string, string>();

  /** `json` is the record's JSON (the line its file holds), as text or as its UTF-8 bytes. */
  pack(r: Pick<DeliveryRecord, 'id' | 'receivedAt' | 'verdict' | 'eventType' | 'webhookId'>, json: string | Uint8Array): PackedRecord {
    const slab = typeof json === 'string' ? this.slabs.place(json, 'utf8') : this.slabs.placeBytes(json);
    const start = this.slabs.start;
    // A record read from disk has strings of its own: the verdict and the type are shared ones.
    const verdict = VERDICTS.find((v) => v === r.verdict) ?? r.verdict;
    return new PackedRecord(r.id, r.receivedAt, verdict, this.type(r.eventType), webhookIdHash(r.webhookId), slab, start, start + this.slabs.bytes);
  }

  private type(t: string | undefined): string | undefined {
    if (typeof t !== 'string') return undefined;
    const held = this.types.get(t);
    if (held !== undefined) return held;
    // Bounded: a sender that varies its types only refills it.
    if (this.types.size >= 256) this.types.clear();
    this.types.set(t, t);
    return t;
  }
}
