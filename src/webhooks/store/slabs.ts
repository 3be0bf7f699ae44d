/**
 * Bytes kept outside the JavaScript heap, for what the listener must keep across a burst (issue
 * #35): the stored records and the dedupe window's ids. V8 doubles the extension host's young
 * generation once the bytes that survive its scavenges pass its size, and a kept record's
 * objects and strings outlived one or two scavenges each (1.2–1.5 KB a delivery, copied then
 * promoted). Held as bytes, what survives is a small wrapper, and the bytes are never copied.
 *
 * Small texts share slabs of SLAB_BYTES (a Buffer each, one allocation for many texts); a slab is
 * freed once nothing placed in it is kept. Both users drop their oldest first, so the slabs go in
 * order too, and at most the newest few hold bytes no longer used.
 */

const SLAB_BYTES = 64 * 1024;

export class Slabs {
  private slab: Buffer | undefined;
  private used = 0;
  /** Where the last `place` put its text: `slab` from `start` for `bytes`. */
  start = 0;
  bytes = 0;

  constructor(private readonly slabBytes = SLAB_BYTES) {}

  /** Encodes `text` outside the heap; returns the Buffer holding it (see `start` and `bytes`). */
  place(text: string, encoding: 'utf8' | 'utf16le'): Buffer {
    const n = Buffer.byteLength(text, encoding);
    const slab = this.room(n);
    slab.write(text, this.start, n, encoding);
    return slab;
  }

  /** Copies bytes already encoded (a record as the listener's process sent it): no string is made. */
  placeBytes(bytes: Uint8Array): Buffer {
    const slab = this.room(bytes.length);
    slab.set(bytes, this.start);
    return slab;
  }

  private room(n: number): Buffer {
    this.bytes = n;
    // A big one gets a Buffer of its own: it would leave most of a slab unused.
    if (n > this.slabBytes / 4) {
      this.start = 0;
      return Buffer.allocUnsafeSlow(n);
    }
    if (!this.slab || this.used + n > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(this.slabBytes);
      this.used = 0;
    }
    this.start = this.used;
    this.used += n;
    return this.slab;
  }
}
