/**
 * A customer's standing in a tier program: the highest level whose threshold
 * the measured value reaches (none below the first threshold), and the next
 * level with the amount still missing (exact decimal arithmetic).
 */
import { Decimal } from 'decimal.js';
import type { CustomerRecord } from '../customers/types.js';
import { ownCountry } from '../locations/registration.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { TierLevel, TierProgram } from './types.js';

export interface Standing {
  /** A bigint when the attribute is an integer beyond 2^53 (kept with every digit). */
  value: number | bigint;
  current?: TierLevel;
  next?: TierLevel;
  /** next.threshold - value. */
  toNext?: number | bigint;
}

/** The measured attribute (0 when absent or not numeric); bodies keep integers beyond 2^53 as bigints. */
export function measuredValue(program: TierProgram, customer: CustomerRecord): number | bigint {
  const value = customer.attributes[program.attribute];
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function standing(program: TierProgram, customer: CustomerRecord): Standing {
  const value = measuredValue(program, customer);
  return withLevel(program, value, levelOf(program, value));
}

/** The highest level whose threshold `value` reaches (undefined below the first). */
export function levelOf(program: TierProgram, value: number | bigint | Decimal): TierLevel | undefined {
  // Compared as decimals: a bigint beyond 2^53 must not round onto a threshold.
  const exact = new Decimal(value.toString());
  return byThreshold(program).filter((level) => exact.gte(level.threshold)).pop();
}

/**
 * The standing of `value` at the level held, `current`: the measured one, or a level won and retained above it
 * (held.ts); the next level is the one above the level held.
 */
export function withLevel(program: TierProgram, value: number | bigint, current: TierLevel | undefined): Standing {
  const exact = new Decimal(value.toString());
  const next = byThreshold(program).find((level) => (current === undefined ? exact.lt(level.threshold) : level.threshold > current.threshold));
  return {
    value,
    current,
    next,
    toNext: next === undefined ? undefined : distance(new Decimal(next.threshold).minus(exact), value),
  };
}

/** A distance to a threshold, exact for a bigint value (an integer beyond 2^53: its distance may be one too). */
function distance(difference: Decimal, value: number | bigint): number | bigint {
  const approximate = difference.toNumber();
  return typeof value === 'bigint' && difference.isInteger() && !Number.isSafeInteger(approximate) ? BigInt(difference.toFixed()) : approximate;
}

function byThreshold(program: TierProgram): TierLevel[] {
  return [...program.levels].sort((a, b) => a.threshold - b.threshold);
}

/**
 * Active programs of the customer's country or of no country (contract rule); the customer's country is its own,
 * else the Company's, as carts, rewards and challenges read it.
 */
export function appliesTo(program: TierProgram, customer: CustomerRecord, settings: CompanySettings): boolean {
  return program.active && (program.countries.length === 0 || program.countries.includes(ownCountry(customer.profile, settings)));
}
