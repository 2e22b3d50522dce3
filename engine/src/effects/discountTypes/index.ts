/** The registry of discount effect types (combo_price has its own path: it needs bundles). */
import type { DiscountType } from './discountType.js';
import { directValue } from './directValue.js';
import { percentage } from './percentage.js';

export const DISCOUNT_TYPES: Readonly<Record<'percentage' | 'direct_value', DiscountType>> = {
  percentage,
  direct_value: directValue,
};
export type { DiscountType } from './discountType.js';
