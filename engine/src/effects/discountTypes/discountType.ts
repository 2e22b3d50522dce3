import type { CompiledEffect } from '../../compile/program.js';

/** How an effect type turns into cents: per unit of a line, or on an amount. */
export interface DiscountType {
  /** The discount on `units` units of a line whose covered part is worth `cents`. */
  onUnits(effect: CompiledEffect, cents: number, units: number): number;
  /** The discount on an amount (the applied lines' or the cart's total). */
  onAmount(effect: CompiledEffect, cents: number): number;
}
