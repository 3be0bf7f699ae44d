/** A seeded PRNG so randomised tests are reproducible: a failure prints its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts bytes into 1..maxPiece-sized pieces at random places (inside characters too). */
export function randomSplit(bytes: Uint8Array, rnd: () => number, maxPiece = 17): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(rnd() * maxPiece);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}
