/**
 * individual_items: each applied line is discounted on its own, per unit, in whole steps of the line (a line
 * partly covered by `limits`, or weighed, loses the cents its quantity does not divide).
 */
import { wholeSteps } from '../split.js';
import { coveredCents, coveredUnits } from '../units.js';
import type { Distribute } from './distribution.js';

export const individualItems: Distribute = ({ effect, type, lines, eligible }) => {
  const units = coveredUnits(lines, eligible, effect.limits);
  const perLine = lines.map((line, i) =>
    units[i] > 0 ? Math.min(line.current, wholeSteps(type.onUnits(effect, coveredCents(line, units[i]), units[i]), line.step)) : 0,
  );
  return { perLine, cartLevel: false };
};
