/** Exact splits of an amount of cents (or points) over lines. */

/**
 * Split `amount` in proportion to `weights` so the parts add up exactly:
 * each part is floored, and the leftover units go to the largest remainders
 * (ties to the earlier line), the largest remainder method.
 */
export function splitProRata(amount: number, weights: readonly number[]): number[] {
  const parts = zeros(weights.length);
  let total = 0;
  for (const w of weights) total += w;
  if (amount === 0 || total === 0) return parts;
  const exact = Number.isSafeInteger(amount * total);
  const remainders = zeros(weights.length);
  let given = 0;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    if (exact) {
      const scaled = amount * weights[i];
      parts[i] = Math.floor(scaled / total);
      remainders[i] = scaled - parts[i] * total;
      // A float quotient can round up to the next integer right below it: step back.
      if (remainders[i] < 0) {
        parts[i] -= 1;
        remainders[i] += total;
      }
    } else {
      const scaled = BigInt(amount) * BigInt(weights[i]);
      const big = BigInt(total);
      parts[i] = Number(scaled / big);
      remainders[i] = Number(scaled % big);
    }
    given += parts[i];
  }
  // Fewer leftover units than positive weights: give each to the largest remainder not yet served.
  for (; given < amount; given++) {
    let best = -1;
    for (let i = 0; i < weights.length; i++) {
      if (weights[i] > 0 && remainders[i] >= 0 && (best === -1 || remainders[i] > remainders[best])) best = i;
    }
    parts[best] += 1;
    remainders[best] = -1;
  }
  return parts;
}

/** A packed array of zeros (faster to read than a holey `new Array(n)`). */
export function zeros(length: number): number[] {
  const values: number[] = [];
  for (let i = 0; i < length; i++) values.push(0);
  return values;
}

/** Give `amount` to lines in line order, each up to its capacity. */
export function fillInOrder(amount: number, capacities: readonly number[]): number[] {
  let left = amount;
  return capacities.map((capacity) => {
    const part = Math.max(0, Math.min(capacity, left));
    left -= part;
    return part;
  });
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
