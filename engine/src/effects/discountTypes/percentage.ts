/**
 * percentage: `value` percent of the amount, rounded half up to the cent. On a line's units, of the unit price times
 * the units (7% off 3 × 3.33 is 3 × 0.23), so the line's total stays divisible by its quantity (cart rule 4).
 */
import { percentOf } from '../../money.js';
import type { DiscountType } from './discountType.js';

export const percentage: DiscountType = {
  onUnits: (effect, cents, units) => percentOf(cents / units, effect.rate, effect.rateInt) * units,
  onAmount: (effect, cents) => percentOf(cents, effect.rate, effect.rateInt),
};
