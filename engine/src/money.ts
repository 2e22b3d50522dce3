/**
 * Money arithmetic. Amounts are integer cents on the hot path (exact, fast);
 * decimal.js is used only where a rate or a share applies.
 */
import { Decimal } from 'decimal.js';
import { invalidRequest, mustBe } from './errors.js';

const DECIMAL_MONEY = /^-?\d+(\.\d+)?$/;

/**
 * The most points one effect grants (a campaign's direct_value, its ratio's
 * points per currency unit, one award on a line or a cart): the contract's
 * largest points amount (redeem, transfer, a reward's points), so every score
 * stays a safe integer and a ledger movement can take it back.
 */
export const MAX_POINTS = 2147483647;

/** Exact integer cents of a wire amount; rejects more than two decimals. */
export function toCents(value: unknown, field: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidRequest(field, 'must be a finite number');
    const cents = Math.round(value * 100);
    // Cents beyond 2^53 are no longer exact, whatever the decimals (1e16 has none): the string form's message.
    if (!Number.isSafeInteger(cents)) throw invalidRequest(field, 'is too large');
    // The round trip holds exactly when the number has at most two decimals.
    if (cents / 100 !== value) throw invalidRequest(field, 'must have at most two decimals');
    return cents === 0 ? 0 : cents;
  }
  if (typeof value === 'string' && DECIMAL_MONEY.test(value)) {
    const d = new Decimal(value).times(100);
    if (!d.isInteger()) throw invalidRequest(field, 'must have at most two decimals');
    const cents = d.toNumber();
    if (!Number.isSafeInteger(cents)) throw invalidRequest(field, 'is too large');
    return cents === 0 ? 0 : cents;
  }
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
