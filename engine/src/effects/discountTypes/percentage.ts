/** percentage: `value` percent of the amount, rounded half up to the cent. */
import { percentOf } from '../../money.js';
import type { DiscountType } from './discountType.js';

export const percentage: DiscountType = {
  onUnits: (effect, cents) => percentOf(cents, effect.rate, effect.rateInt),
  onAmount: (effect, cents) => percentOf(cents, effect.rate, effect.rateInt),
};
