/** individual_items_pro_rata: one amount for the applied lines, split in proportion to their totals. */
import { splitProRata, sum } from '../split.js';
import { coveredCents, coveredUnits } from '../units.js';
import type { Distribute } from './distribution.js';

export const individualItemsProRata: Distribute = ({ effect, type, lines, eligible }) => {
  const units = coveredUnits(lines, eligible, effect.limits);
  const weights = lines.map((line, i) => (units[i] > 0 ? coveredCents(line, units[i]) : 0));
  const base = sum(weights);
  return { perLine: splitProRata(Math.min(type.onAmount(effect, base), base), weights, lines), cartLevel: false };
};
