/** The registry of distributions, by the contract's distribution name. */
import type { Distribution } from '../../compile/program.js';
import type { Distribute } from './distribution.js';
import { individualItems } from './individualItems.js';
import { individualItemsProRata } from './individualItemsProRata.js';
import { total } from './total.js';
import { totalCart } from './totalCart.js';

export const DISTRIBUTIONS: Readonly<Record<Distribution, Distribute>> = {
  individual_items: individualItems,
  individual_items_pro_rata: individualItemsProRata,
  total,
  total_cart: totalCart,
};
export type { Allocation, DistributionInput } from './distribution.js';
