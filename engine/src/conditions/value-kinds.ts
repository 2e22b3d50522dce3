/**
 * The kinds of value a condition compares, each parsing a rule's `value` once
 * at compile time into the form the facts hold (cents, canonical id strings).
 */
import { invalidRequest, mustBe, mustBeIn } from '../errors.js';
import { idString } from '../ids.js';
import { toCents } from '../money.js';
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

/** Currency units in the rule, integer cents in the facts. */
export const money: ValueKind = {
  ordered: true,
  parse: (raw, path) => toCents(raw, path),
};

/** int64 ids as canonical decimal strings (leading zeros dropped), as the facts hold them. */
export const id: ValueKind = {
  ordered: false,
  parse(raw, path) {
    if (typeof raw !== 'number' && typeof raw !== 'string' && typeof raw !== 'bigint') throw invalidRequest(path, 'must be an id');
    const canonical = idString(raw, path);
    // A rule names real ids: a typo such as '12a' or 0 would make a campaign that never applies.
    if (!DIGITS.test(canonical) || canonical === '0' || canonical.length > INT64_MAX.length || (canonical.length === INT64_MAX.length && canonical > INT64_MAX)) {
      throw invalidRequest(path, mustBeIn('integer', { minimum: 1, maximum: BigInt(INT64_MAX) }));
    }
    return canonical;
  },
};

/** Codes and names; numbers are accepted and compared as their text (an EAN sent as a number). */
export function text(options: { upperCase?: boolean } = {}): ValueKind {
  return {
    ordered: false,
    parse(raw, path) {
      if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'bigint') raw = String(raw);
      if (typeof raw !== 'string') throw invalidRequest(path, mustBe('string'));
      return options.upperCase ? raw.toUpperCase() : raw;
    },
  };
}

/** A number, or an integer beyond 2^53 as a bigint (compared exactly). */
export const number: ValueKind = {
  ordered: true,
  parse(raw, path) {
    if (typeof raw === 'bigint') return raw;
    if (typeof raw === 'string' && NUMERIC.test(raw)) raw = Number(raw);
    if (typeof raw !== 'number' || !Number.isFinite(raw)) throw invalidRequest(path, mustBe('number'));
    return raw;
  },
};

/** A whole number from `minimum` to `maximum` (a weekday, an hour): a value outside could never be met. */
export function wholeNumber(minimum: number, maximum: number): ValueKind {
  return {
    ordered: true,
    parse(raw, path, ordering) {
      const value = number.parse(raw, path, ordering);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum) throw invalidRequest(path, mustBeIn('integer', { minimum, maximum }));
      return value;
    },
  };
}

export const boolean: ValueKind = {
  ordered: false,
  parse(raw, path) {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    if (typeof raw !== 'boolean') throw invalidRequest(path, 'must be true or false');
    return raw;
  },
};

/**
 * Attributes hold any flat JSON value: compared strictly (no coercion); orderings need a number. An integer beyond
 * 2^53 is a bigint in the rule as in the facts (lossless JSON), so it compares exactly.
 */
export const attribute: ValueKind = {
  ordered: true,
  parse(raw, path, ordering) {
    const isNumber = (typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'bigint';
    if (ordering) {
      if (!isNumber) throw invalidRequest(path, 'must be a number for an ordering operator');
      return raw;
    }
    if (typeof raw === 'string' || typeof raw === 'boolean' || isNumber) return raw;
    throw invalidRequest(path, mustBe('string', 'number', 'boolean'));
  },
};
