/** Units an effect covers on each line, honouring the effect's `limits` (a cap on units, in line order). */
import type { LineState } from '../evaluate/cartInput.js';

/** A weighed line (fractional quantity) counts as one unit. */
export function lineUnits(line: LineState): number {
  return line.units ?? 1;
}

export function coveredUnits(lines: readonly LineState[], eligible: readonly boolean[], limits: number | null): number[] {
  let left = limits ?? Number.POSITIVE_INFINITY;
  return lines.map((line, i) => {
    if (!eligible[i] || line.current <= 0) return 0;
    const units = Math.min(lineUnits(line), left);
    left -= units;
    return units;
  });
}

/**
 * The part of the line's current total that `units` of its units make up, in cents: whole units of a line with an
 * integer quantity, whose current total is a whole number of unit prices (its step, cart rule 4).
 */
export function coveredCents(line: LineState, units: number): number {
  const all = lineUnits(line);
  return units >= all ? line.current : (line.current / all) * units;
}
