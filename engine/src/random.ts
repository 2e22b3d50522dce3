/**
 * The seeded source of instant-win draws. A seed string is hashed (xmur3) into
 * the 128-bit state of pure-rand's xoroshiro128plus, so a draw is replayable
 * from its seed alone: no Math.random, no clock.
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

/** Draws are integers in [0, DRAW_SCALE): prize weights are compiled to this scale. */
export const DRAW_SCALE = 1_000_000_000;

function xmur3(text: string): () => number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

/** One uniform draw in [0, DRAW_SCALE) from a seed string. */
export function drawFromSeed(seed: string): number {
  const next = xmur3(seed);
  const state = [next() | 0, next() | 0, next() | 0, next() | 0];
  // xoroshiro's all-zero state is degenerate; xmur3 never yields four zeros in practice, but guard anyway.
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  return uniformInt(xoroshiro128plusFromState(state), 0, DRAW_SCALE - 1);
}
