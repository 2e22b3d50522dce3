/**
 * Money arithmetic. Amounts are integer cents on the hot path (exact, fast);
 * decimal.js is used only where a rate or a share applies.
 */
import { Decimal } from 'decimal.js';
import { invalidRequest, mustBe, mustBeIn } from './errors.js';

const DECIMAL_MONEY = /^-?\d+(\.\d+)?$/;

/**
 * The most points one effect grants (a campaign's direct_value, its ratio's
 * points per currency unit, one award on a line or a cart): the contract's
 * largest points amount (redeem, transfer, a reward's points), so every score
 * stays a safe integer and a ledger movement can take it back.
 */
export const MAX_POINTS = 2147483647;

/**
 * The largest amount whose cents are exact (a safe integer), in whole currency units: a bound said as a client sends
 * it (the exact one, 90071992547409.91, is no double), checked before the cents are computed. Every money field of
 * `schemas/` (common#/$defs/money) is bounded by it, so ajv and the engine state one range (schemas/common.test.ts).
 */
export const MAX_AMOUNT = Math.floor(Number.MAX_SAFE_INTEGER / 100);

const outOfRange = (field: string, minimum: number) => invalidRequest(field, mustBeIn('number', { minimum, maximum: MAX_AMOUNT }));

/**
 * Exact integer cents of a wire amount, from `minimum` (-MAX_AMOUNT, or 0 where an amount cannot be negative:
 * common#/$defs/money_non_negative) to MAX_AMOUNT; rejects more than two decimals.
 */
export function toCents(value: unknown, field: string, minimum = -MAX_AMOUNT): number {
  if (typeof value === 'number') {
    // Written so that NaN and the infinities (offline callers') fail it too.
    if (!(value >= minimum && value <= MAX_AMOUNT)) throw outOfRange(field, minimum);
    const cents = Math.round(value * 100);
    // The round trip holds exactly when the number has at most two decimals.
    if (cents / 100 !== value) throw invalidRequest(field, 'must have at most two decimals');
    return cents === 0 ? 0 : cents;
  }
  if (typeof value === 'string' && DECIMAL_MONEY.test(value)) {
    const amount = new Decimal(value);
    if (amount.lessThan(minimum) || amount.greaterThan(MAX_AMOUNT)) throw outOfRange(field, minimum);
    const cents = amount.times(100);
    if (!cents.isInteger()) throw invalidRequest(field, 'must have at most two decimals');
    return cents.isZero() ? 0 : cents.toNumber();
  }
  // An integer beyond 2^53 (lossless JSON) is a number, and beyond MAX_AMOUNT.
  if (typeof value === 'bigint') throw outOfRange(field, minimum);
  throw invalidRequest(field, mustBe('number'));
}

/** Cents back to a wire number: the nearest double of an exact two-decimal value. */
export function toMoney(cents: number): number {
  return cents / 100;
}

/** A rate or share (percentage, ratio, weight, point value) as an exact decimal. */
export function toDecimal(value: unknown, field: string): Decimal {
  if (typeof value === 'number' && Number.isFinite(value)) return new Decimal(String(value));
  if (typeof value === 'string' && DECIMAL_MONEY.test(value)) return new Decimal(value);
  throw invalidRequest(field, mustBe('number'));
}

/** cents × rate, rounded half away from zero to whole cents. */
export function centsTimesRate(cents: number, rate: Decimal): number {
  return new Decimal(cents).times(rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** cents × percent / 100, rounded half away from zero; integer arithmetic when the percent is an integer. */
export function percentOf(cents: number, percent: Decimal, percentInt: number | null): number {
  if (percentInt !== null) {
    const scaled = cents * percentInt;
    if (Number.isSafeInteger(scaled)) return Math.sign(scaled) * Math.floor((Math.abs(scaled) + 50) / 100);
  }
  return new Decimal(cents).times(percent).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/**
 * Points for an amount at `perUnit` points per currency unit, rounded towards
 * zero exactly (0.29 at 100 = 29, where binary floats give 28).
 */
export function pointsFor(cents: number, perUnit: Decimal, perUnitInt: number | null): number {
  if (perUnitInt !== null) {
    const scaled = cents * perUnitInt;
    // Integer over 100: Math.trunc of an exact integer quotient is exact below 2^53.
    if (Number.isSafeInteger(scaled)) return Math.trunc(scaled / 100) || 0;
  }
  return new Decimal(cents).times(perUnit).div(100).trunc().toNumber() || 0;
}

/** Money value, in cents, of a number of points (rounded half up to the cent). */
export function pointsToCents(points: number, pointValue: Decimal, pointValueCents: number | null): number {
  if (pointValueCents !== null && Number.isSafeInteger(points * pointValueCents)) return points * pointValueCents;
  return centsTimesRate(points * 100, pointValue);
}

/** Integer cents of a non-negative decimal share of an amount, rounded down (never above the share). */
export function floorShare(cents: number, share: Decimal): number {
  return new Decimal(cents).times(share).floor().toNumber();
}

/** The decimal as an exact integer when it is one (fast paths), else null. */
export function asSafeInteger(d: Decimal): number | null {
  if (!d.isInteger()) return null;
  const n = d.toNumber();
  return Number.isSafeInteger(n) ? n : null;
}
