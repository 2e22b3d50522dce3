/**
 * The kinds of value a condition compares, each parsing a rule's `value` once
 * at compile time into the form the facts hold (cents, canonical id strings).
 */
import { Decimal } from 'decimal.js';
import { invalidRequest } from '../errors.js';
import type { Scalar } from './operators/index.js';

export interface ValueKind {
  /** Whether gt/gte/lt/lte apply to fields of this kind. */
  readonly ordered: boolean;
  /** The compiled value, or a TallyError naming `path`. `ordering` tells an ordering operator compares it. */
  parse(raw: unknown, path: string, ordering: boolean): Scalar;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;
const INT64_MAX = '9223372036854775807';

/** Currency units in the rule, integer cents in the facts: exact, through the decimal text. */
export const money: ValueKind = {
  ordered: true,
  parse(raw, path) {
    const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
    if (typeof text !== 'string' || !NUMERIC.test(text)) throw invalidRequest(path, 'must be an amount');
    const cents = new Decimal(text).times(100);
    if (!cents.isInteger()) throw invalidRequest(path, 'must have at most two decimals');
    if (!Number.isSafeInteger(cents.toNumber())) throw invalidRequest(path, 'is too large');
    return cents.toNumber() || 0;
  },
};

/** int64 ids as canonical decimal strings (leading zeros dropped, as the contract says). */
export const id: ValueKind = {
  ordered: false,
  parse(raw, path) {
    if (typeof raw === 'number') {
      if (!Number.isSafeInteger(raw)) throw invalidRequest(path, 'must be an integer id (send ids above 2^53 as strings)');
      raw = String(raw);
    }
    if (typeof raw !== 'string' || !DIGITS.test(raw)) throw invalidRequest(path, 'must be an id');
    const canonical = raw.replace(/^0+(?=\d)/, '');
    if (canonical === '0' || canonical.length > INT64_MAX.length || (canonical.length === INT64_MAX.length && canonical > INT64_MAX)) {
      throw invalidRequest(path, 'must be an id from 1 to 9223372036854775807');
    }
    return canonical;
  },
};

/** Codes and names; numbers are accepted and compared as their text (an EAN sent as a number). */
export function text(options: { upperCase?: boolean } = {}): ValueKind {
  return {
    ordered: false,
    parse(raw, path) {
      if (typeof raw === 'number' && Number.isFinite(raw)) raw = String(raw);
      if (typeof raw !== 'string') throw invalidRequest(path, 'must be a string');
      return options.upperCase ? raw.toUpperCase() : raw;
    },
  };
}

export const number: ValueKind = {
  ordered: true,
  parse(raw, path) {
    if (typeof raw === 'string' && NUMERIC.test(raw)) raw = Number(raw);
    if (typeof raw !== 'number' || !Number.isFinite(raw)) throw invalidRequest(path, 'must be a number');
    return raw;
  },
};

export const boolean: ValueKind = {
  ordered: false,
  parse(raw, path) {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    if (typeof raw !== 'boolean') throw invalidRequest(path, 'must be true or false');
    return raw;
  },
};

/** Attributes hold any flat JSON value: compared strictly (no coercion); orderings need a number. */
export const attribute: ValueKind = {
  ordered: true,
  parse(raw, path, ordering) {
    if (ordering) {
      if (typeof raw !== 'number' || !Number.isFinite(raw)) throw invalidRequest(path, 'must be a number for an ordering operator');
      return raw;
    }
    if (typeof raw === 'string' || typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw))) return raw;
    throw invalidRequest(path, 'must be a string, a number or a boolean');
  },
};
