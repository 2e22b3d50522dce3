/** individual_items: each applied line is discounted on its own (per unit for direct_value). */
import { coveredCents, coveredUnits } from '../units.js';
import type { Distribute } from './distribution.js';

export const individualItems: Distribute = ({ effect, type, lines, eligible }) => {
  const units = coveredUnits(lines, eligible, effect.limits);
  const perLine = lines.map((line, i) =>
    units[i] > 0 ? Math.min(line.current, type.onUnits(effect, coveredCents(line, units[i]), units[i])) : 0,
  );
  return { perLine, cartLevel: false };
};
