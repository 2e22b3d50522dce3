/**
 * Exact splits of an amount of cents over lines, in whole steps of each line (LineState.step, cart rule 4: a line's
 * total stays divisible by its quantity). When every step is a cent the parts add up to the amount; otherwise what
 * no line can take in whole steps is not given, so a split is never above its amount.
 */
import type { LineState } from '../evaluate/cartInput.js';

/** The most cents, up to `cents` (not negative), that are a whole number of `step`s. */
export function wholeSteps(cents: number, step: number): number {
  return cents - (cents % step);
}

/**
 * Split `amount` in proportion to `weights`, each line's part at most its weight, in whole steps: each part is its
 * exact share floored to the line's step; the cents left go a step at a time to the largest remainders (ties to the
 * earlier line), one step a line, then in line order as many steps as a line still holds. What is then left is
 * smaller than every step a line could still take. With steps of a cent this is the largest remainder method.
 */
export function splitProRata(amount: number, weights: readonly number[], lines: readonly LineState[]): number[] {
  const parts = zeros(weights.length);
  let total = 0;
  for (const w of weights) total += w;
  if (amount === 0 || total === 0) return parts;
  const exact = Number.isSafeInteger(amount * total);
  const remainders = zeros(weights.length);
  let left = amount;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    const step = lines[i].step;
    if (exact) {
      const scaled = amount * weights[i];
      let share = Math.floor(scaled / total);
      // A float quotient can round up to the next integer right below it: step back.
      if (share * total > scaled) share -= 1;
      parts[i] = wholeSteps(share, step);
      remainders[i] = scaled - parts[i] * total;
    } else {
      const scaled = BigInt(amount) * BigInt(weights[i]);
      const big = BigInt(total);
      const share = scaled / big;
      const whole = share - (share % BigInt(step));
      parts[i] = Number(whole);
      remainders[i] = Number(scaled - whole * big);
    }
    left -= parts[i];
  }
  // One step each to the largest remainders whose step fits in what is left and in the line's weight.
  while (left > 0) {
    let best = -1;
    for (let i = 0; i < weights.length; i++) {
      const step = lines[i].step;
      // Served already, or its step does not fit.
      if (remainders[i] < 0 || step > left || parts[i] + step > weights[i]) continue;
      if (best === -1 || remainders[i] > remainders[best]) best = i;
    }
    if (best === -1) break;
    parts[best] += lines[best].step;
    left -= lines[best].step;
    remainders[best] = -1;
  }
  // Left only when steps are above a cent: in line order, as many steps as fit.
  for (let i = 0; i < weights.length && left > 0; i++) {
    const more = wholeSteps(Math.min(left, weights[i] - parts[i]), lines[i].step);
    parts[i] += more;
    left -= more;
  }
  return parts;
}

/** A packed array of zeros (faster to read than a holey `new Array(n)`). */
export function zeros(length: number): number[] {
  const values: number[] = [];
  for (let i = 0; i < length; i++) values.push(0);
  return values;
}

/** Give `amount` to lines in line order, each up to its capacity, in whole steps. */
export function fillInOrder(amount: number, capacities: readonly number[], lines: readonly LineState[]): number[] {
  let left = amount;
  return capacities.map((capacity, i) => {
    const part = wholeSteps(Math.max(0, Math.min(capacity, left)), lines[i].step);
    left -= part;
    return part;
  });
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
