/**
 * The contract's wire types (common rule 3), as pure normalizers: each
 * returns the canonical value, or undefined when the input is not of the type.
 * Used by the `wire` schema keyword (bodies) and by params.ts (path, query).
 */
import { MAX_POINTS } from '@tally/engine';
import { inRange } from './errors.js';

const INT64_MAX = '9223372036854775807';

/**
 * Integer 1..9223372036854775807 as a canonical decimal string (leading zeros
 * dropped). Accepts a JSON number, a bigint, or a string of digits.
 */
export function toInt64(value: unknown): string | undefined {
  let digits: string;
  if (typeof value === 'number') {
    // A safe positive integer has no sign, no leading zero and fewer digits than the maximum.
    return Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
  } else if (typeof value === 'bigint') {
    digits = value.toString();
  } else if (typeof value === 'string' && /^\d+$/.test(value)) {
    digits = value;
  } else {
    return undefined;
  }
  if (digits.startsWith('-')) return undefined;
  const canonical = digits.replace(/^0+/, '');
  if (canonical === '') return undefined;
  if (canonical.length > INT64_MAX.length) return undefined;
  if (canonical.length === INT64_MAX.length && canonical > INT64_MAX) return undefined;
  return canonical;
}

/**
 * An int64 of the contract that counts points (a reward redemption's score_overwrite): 1..MAX_POINTS, the largest
 * points amount, in toInt64's forms, so a value out of it is refused with its real range whichever bound fails.
 */
export function toPoints(value: unknown): string | undefined {
  const canonical = toInt64(value);
  return canonical !== undefined && BigInt(canonical) <= BigInt(MAX_POINTS) ? canonical : undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` (any year 0000..9999; ranges are a field's rule). */
export function toDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE.exec(value);
  if (!m) return undefined;
  return isCalendarDate(+m[1], +m[2], +m[3]) ? value : undefined;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]);
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An ISO 8601 datetime converted to UTC, written `YYYY-MM-DDThh:mm:ssZ`
 * (a fraction of a second is dropped). Offsets `-0500` and `-05:00` are
 * accepted; no offset means UTC, which the contract requires anyway.
 */
export function toDatetime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATETIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  if (!isCalendarDate(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return undefined;
  // Already canonical (UTC, whole seconds, as every Tally client sends it): nothing to convert.
  if (zone === 'Z' && fraction === undefined) return value;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const hh = +zone.slice(1, 3);
    const mm = +zone.slice(-2);
    if (hh > 23 || mm > 59) return undefined;
    offsetMinutes = sign * (hh * 60 + mm);
  }
  const ms = fraction ? Math.floor(+`0${fraction}` * 1000) : 0;
  const local = new Date(Date.UTC(2000, +mo - 1, +d, +h, +mi, +s, ms));
  local.setUTCFullYear(+y); // Date.UTC reads the years 0 to 99 as 1900 to 1999
  const instant = new Date(local.getTime() - offsetMinutes * 60_000);
  // Outside years 0000..9999 toISOString writes a sign and six digits.
  if (/^[+-]/.test(instant.toISOString())) return undefined;
  return wireDatetime(instant);
}

/**
 * An instant as the contract writes datetimes: UTC, whole seconds
 * (`YYYY-MM-DDThh:mm:ssZ`). A fraction of a second in a request is dropped.
 */
export function wireDatetime(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

export const DAY_MS = 86_400_000;
/** The first and last instants a wire datetime can write (years 0000..9999). */
const FIRST_WIRE_MS = Date.parse('0000-01-01T00:00:00Z');
const LAST_WIRE_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * `ms` as a Date no later than 9999-12-31T23:59:59Z; NaN (date arithmetic
 * overflowing JavaScript's dates) is that last instant too. Counts of days
 * and months are bounded on write, but records stored before may hold any.
 * No earlier than 0000-01-01T00:00:00Z either: the Company's 0000-01-01
 * starts before it east of UTC.
 */
export function boundedInstant(ms: number): Date {
  return new Date(Number.isNaN(ms) || ms > LAST_WIRE_MS ? LAST_WIRE_MS : Math.max(ms, FIRST_WIRE_MS));
}

const SLUG = /^[A-Za-z0-9_-]+$/;

/** Letters, digits, underscores and hyphens. */
export function toSlug(value: unknown): string | undefined {
  return typeof value === 'string' && SLUG.test(value) ? value : undefined;
}

/**
 * An integer beyond 2^53, as the lossless body parser gives it (a bigint), kept with every digit: what a free JSON number
 * (an attribute) may be beside the numbers ajv's `number` takes, which stop at 2^53 there.
 */
export function toBigInteger(value: unknown): bigint | undefined {
  return typeof value === 'bigint' ? value : undefined;
}

export const WIRE_TYPES = {
  int64: toInt64,
  points: toPoints,
  date: toDate,
  datetime: toDatetime,
  slug: toSlug,
  big_integer: toBigInteger,
} as const;

export type WireType = keyof typeof WIRE_TYPES;
/** The wire types of text a path or query parameter may be. */
export type TextWireType = Exclude<WireType, 'big_integer'>;

/** What each wire type is, as a message says what a value must be (`mustBeAnyOf`): also the `date` and `date-time` formats' words. */
export const WIRE_DESCRIPTIONS: Record<WireType, string> = {
  int64: inRange('integer', { minimum: 1, maximum: BigInt(INT64_MAX) }),
  points: inRange('integer', { minimum: 1, maximum: MAX_POINTS }),
  date: 'a date YYYY-MM-DD',
  datetime: 'an ISO 8601 datetime (YYYY-MM-DDThh:mm:ssZ or with an offset such as -0500)',
  slug: 'a slug (letters, digits, underscores, hyphens)',
  // Said as `number`'s type is, so an error listing the alternatives of an attribute names "a number" once.
  big_integer: 'a number',
};

/** An int64 id (canonical decimal string) for a reply: a number when exact, else a bigint. */
export function wireInt(id: string): number | bigint {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : BigInt(id);
}
