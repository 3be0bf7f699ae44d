/** Randomised tests use a seeded PRNG so a failure names a seed that reproduces it. */
export { seededRandom } from '../../src/emulator/responder';

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
