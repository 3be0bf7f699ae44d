/**
 * The dedupe window: the last `cap` webhook-ids processed, oldest forgotten first, every operation
 * O(1). Each id outlives thousands of deliveries, so it is kept as bytes outside the JS heap (see
 * slabs.ts): a hash table of slot numbers in typed arrays finds it, and ids are compared whole, byte
 * for byte (UTF-16, so any string compares exactly), never by their hash alone.
 */
import { Slabs } from './slabs';

/** FNV-1a over the UTF-16 code units, then mixed (murmur3's finalizer) so the low bits spread. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export class IdWindow {
  private readonly slabs = new Slabs();
  /** Per slot (a ring, `next` is the oldest): the Buffer its id is in, where, how many bytes, its hash. */
  private readonly slabOf: Array<Buffer | undefined>;
  private readonly startOf: Int32Array;
  private readonly bytesOf: Int32Array;
  private readonly hashes: Int32Array;
  /** Open addressing, linear probing: slot + 1, 0 for an empty place. At most half full. */
  private readonly table: Int32Array;
  private readonly mask: number;
  private next = 0;
  /** The id looked up last, as bytes to compare. */
  private scratch = Buffer.allocUnsafeSlow(256);

  constructor(readonly cap = 10_000) {
    this.slabOf = new Array<Buffer | undefined>(cap).fill(undefined);
    this.startOf = new Int32Array(cap);
    this.bytesOf = new Int32Array(cap);
    this.hashes = new Int32Array(cap);
    let size = 16;
    while (size < cap * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  has(id: string): boolean {
    return this.find(id, hashOf(id)) >= 0;
  }

  /** False when the id was already there. */
  add(id: string): boolean {
    const hash = hashOf(id);
    if (this.find(id, hash) >= 0) return false;
    const slot = this.next;
    if (this.slabOf[slot] !== undefined) this.forget(slot);
    this.slabOf[slot] = this.slabs.place(id, 'utf16le');
    this.startOf[slot] = this.slabs.start;
    this.bytesOf[slot] = this.slabs.bytes;
    this.hashes[slot] = hash;
    let at = hash & this.mask;
    while (this.table[at] !== 0) at = (at + 1) & this.mask;
    this.table[at] = slot + 1;
    this.next = (slot + 1) % this.cap;
    return true;
  }

  /** Oldest first. */
  ids(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.cap; i++) {
      const slot = (this.next + i) % this.cap;
      const slab = this.slabOf[slot];
      if (slab) out.push(slab.toString('utf16le', this.startOf[slot], this.startOf[slot]! + this.bytesOf[slot]!));
    }
    return out;
  }

  /** The id's place in the table, or -1. */
  private find(id: string, hash: number): number {
    const bytes = id.length * 2;
    let encoded = false;
    for (let at = hash & this.mask; ; at = (at + 1) & this.mask) {
      const entry = this.table[at]!;
      if (entry === 0) return -1;
      const slot = entry - 1;
      if (this.hashes[slot] !== hash || this.bytesOf[slot] !== bytes) continue;
      if (!encoded) {
        if (this.scratch.length < bytes) this.scratch = Buffer.allocUnsafeSlow(bytes);
        this.scratch.write(id, 0, bytes, 'utf16le');
        encoded = true;
      }
      const start = this.startOf[slot]!;
      if (this.slabOf[slot]!.compare(this.scratch, 0, bytes, start, start + bytes) === 0) return at;
    }
  }

  /** Takes the oldest slot's id out of the table, moving back the entries probed past it. */
  private forget(slot: number): void {
    let hole = this.hashes[slot]! & this.mask;
    while (this.table[hole] !== slot + 1) hole = (hole + 1) & this.mask;
    for (let at = (hole + 1) & this.mask; this.table[at] !== 0; at = (at + 1) & this.mask) {
      const home = this.hashes[this.table[at]! - 1]! & this.mask;
      // An entry stays where it is when its home lies cyclically in (hole, at]: moving it would hide it.
      const stays = hole < at ? hole < home && home <= at : hole < home || home <= at;
      if (stays) continue;
      this.table[hole] = this.table[at]!;
      hole = at;
    }
    this.table[hole] = 0;
    this.slabOf[slot] = undefined;
  }
}
