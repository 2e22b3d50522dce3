/**
 * total_cart: one amount on the whole cart (rule_application does not narrow
 * it), reported as one effect on line -1 and spread over the lines pro rata
 * so that the adjusted line totals add up.
 */
import { splitProRata, sum } from '../split.js';
import type { Distribute } from './distribution.js';

export const totalCart: Distribute = ({ effect, type, lines, available }) => {
  const weights = lines.map((line, i) => (available[i] && line.current > 0 ? line.current : 0));
  const base = sum(weights);
  return { perLine: splitProRata(Math.min(type.onAmount(effect, base), base), weights, lines), cartLevel: true };
};
