/** direct_value: a fixed amount per unit (individual items) or once (on an amount). */
import type { DiscountType } from './discountType.js';

export const directValue: DiscountType = {
  onUnits: (effect, _cents, units) => Math.round(effect.amount * units),
  onAmount: (effect) => effect.amount,
};
