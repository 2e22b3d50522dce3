/**
 * A customer's standing in a tier program: the highest level whose threshold
 * the measured value reaches (none below the first threshold), and the next
 * level with the amount still missing (exact decimal arithmetic).
 */
import { Decimal } from 'decimal.js';
import type { CustomerRecord } from '../customers/types.js';
import type { TierLevel, TierProgram } from './types.js';

export interface Standing {
  value: number;
  current?: TierLevel;
  next?: TierLevel;
  /** next.threshold - value. */
  toNext?: number;
}

/** The measured attribute as a number (0 when absent or not numeric). */
export function measuredValue(program: TierProgram, customer: CustomerRecord): number {
  const value = customer.attributes[program.attribute];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function standing(program: TierProgram, customer: CustomerRecord): Standing {
  const value = measuredValue(program, customer);
  const levels = [...program.levels].sort((a, b) => a.threshold - b.threshold);
  const current = levels.filter((level) => level.threshold <= value).pop();
  const next = levels.find((level) => level.threshold > value);
  return {
    value,
    current,
    next,
    toNext: next === undefined ? undefined : new Decimal(next.threshold).minus(value).toNumber(),
  };
}

/** Active programs of the customer's country or of no country (contract rule). */
export function appliesTo(program: TierProgram, customer: CustomerRecord): boolean {
  const country = customer.profile.country;
  return program.active && (program.countries.length === 0 || (typeof country === 'string' && program.countries.includes(country)));
}
