/**
 * A seeded pseudo-random generator (mulberry32) for randomized tests and benchmark data
 * sets: the same seed gives the same sequence, so a failing run can be replayed from it.
 * Returns numbers in [0, 1), like Math.random.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
