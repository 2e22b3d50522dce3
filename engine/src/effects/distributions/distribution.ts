import type { CompiledEffect } from '../../compile/program.js';
import type { LineState } from '../../evaluate/cartInput.js';
import type { DiscountType } from '../discountTypes/index.js';

export interface DistributionInput {
  effect: CompiledEffect;
  type: DiscountType;
  lines: readonly LineState[];
  /** Lines the campaign may discount: not locked by an exclusive discount (and, for exclusive campaigns, untouched). */
  available: readonly boolean[];
  /** Available lines that rule_application selects. */
  eligible: readonly boolean[];
}

/** Cents per line, a whole number of its steps, never above its current total; cartLevel effects are reported on line -1. */
export interface Allocation {
  perLine: number[];
  cartLevel: boolean;
}

export type Distribute = (input: DistributionInput) => Allocation;
