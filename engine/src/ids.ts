/** int64 ids: compared and keyed as decimal strings so that 9223372036854775807 survives. */
import { invalidRequest, mustBe } from './errors.js';

const DIGITS = /^\d+$/;

/** The canonical decimal string of an id (leading zeros dropped, as the contract says). */
export function idString(value: unknown, field: string): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw invalidRequest(field, mustBe('integer'));
    if (!Number.isSafeInteger(value)) throw invalidRequest(field, 'is above 2^53: send it as a string or bigint');
    return String(value);
  }
  if (typeof value === 'string' && value.length > 0) {
    return DIGITS.test(value) ? value.replace(/^0+(?=\d)/, '') : value;
  }
  throw invalidRequest(field, 'must be an id');
}

/** Numeric order for decimal ids (length, then digits), plain string order otherwise. */
export function compareIds(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
