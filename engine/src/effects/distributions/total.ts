/** total: one amount for the applied lines, taken from them in line order (each down to zero at most). */
import { fillInOrder, sum } from '../split.js';
import { coveredCents, coveredUnits } from '../units.js';
import type { Distribute } from './distribution.js';

export const total: Distribute = ({ effect, type, lines, eligible }) => {
  const units = coveredUnits(lines, eligible, effect.limits);
  const capacities = lines.map((line, i) => (units[i] > 0 ? coveredCents(line, units[i]) : 0));
  const base = sum(capacities);
  return { perLine: fillInOrder(Math.min(type.onAmount(effect, base), base), capacities, lines), cartLevel: false };
};
