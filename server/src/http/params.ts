/**
 * Readers for path and query values: each returns the canonical value,
 * undefined when the value is absent or empty (`optional*`), and throws
 * invalid_request naming the field when it is malformed or required.
 */
import { isCountry } from '@tally/engine';
import { cannotBeSentWith, invalidRequest, mustBeAnyOf, mustBeIn, requiredOr } from './errors.js';
import { toDate, toDatetime, WIRE_DESCRIPTIONS, WIRE_TYPES, type TextWireType } from './wire.js';
import { zonedInstant } from '../calendar/company-days.js';
import type { PageRequest } from '../store/paginate.js';

type Raw = string | null | undefined;

function present(value: Raw): value is string {
  return value !== null && value !== undefined && value !== '';
}

export function optionalWire(type: TextWireType, value: Raw, field: string): string | undefined {
  if (!present(value)) return undefined;
  const canonical = WIRE_TYPES[type](value);
  if (canonical === undefined) throw invalidRequest(field, mustBeAnyOf(WIRE_DESCRIPTIONS[type]));
  return canonical;
}

export function requireWire(type: TextWireType, value: Raw, field: string): string {
  const canonical = optionalWire(type, value, field);
  if (canonical === undefined) throw invalidRequest(field, 'is required');
  return canonical;
}

/**
 * Longest code, slug or path value (characters, as JSON Schema's maxLength
 * counts them): such texts become parts of LMDB keys, and a key part of a
 * few thousand characters makes lmdb-js throw (docs/http.md).
 */
export const KEY_TEXT_MAX = 255;

export function longerThanKeyText(value: string, max = KEY_TEXT_MAX): boolean {
  // Counting code points only when the UTF-16 length could exceed the limit.
  return value.length > max && [...value].length > max;
}

/** The one wording of a text over its length, whoever checks it: a reader here, the router, a schema's maxLength. */
export function atMostCharacters(max: number): string {
  return `must be at most ${max} character${max === 1 ? '' : 's'}`;
}

export const KEY_TEXT_TOO_LONG = atMostCharacters(KEY_TEXT_MAX);

/** A query value that names a record by its code (customer_code, location_code), or by a text at most `max` long. */
export function optionalCode(value: Raw, field: string, max = KEY_TEXT_MAX): string | undefined {
  if (!present(value)) return undefined;
  if (longerThanKeyText(value, max)) throw invalidRequest(field, atMostCharacters(max));
  return value;
}

export const optionalInt64 = (value: Raw, field: string) => optionalWire('int64', value, field);
export const requireInt64 = (value: Raw, field: string) => requireWire('int64', value, field);

/**
 * An ISO 8601 datetime, or a date meaning its start in `timezone` (the Company's: its local midnight, or the instant
 * its clocks jumped to when they skip midnight), as epoch milliseconds (the created_at_gt filters).
 */
export function optionalInstant(value: Raw, field: string, timezone: string): number | undefined {
  if (!present(value)) return undefined;
  const date = toDate(value);
  if (date !== undefined) return zonedInstant(date, '00:00:00', timezone).getTime();
  const datetime = toDatetime(value);
  if (datetime === undefined) throw invalidRequest(field, 'must be an ISO 8601 date or datetime');
  return Date.parse(datetime);
}

export function optionalBoolean(value: Raw, field: string): boolean | undefined {
  if (!present(value)) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidRequest(field, 'must be true or false (or 1 or 0)');
}

export function requireBoolean(value: Raw, field: string): boolean {
  const parsed = optionalBoolean(value, field);
  if (parsed === undefined) throw invalidRequest(field, 'is required');
  return parsed;
}

export function optionalEnum<T extends string>(value: Raw, field: string, allowed: readonly T[]): T | undefined {
  if (!present(value)) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalidRequest(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function requireEnum<T extends string>(value: Raw, field: string, allowed: readonly T[]): T {
  const parsed = optionalEnum(value, field, allowed);
  if (parsed === undefined) throw invalidRequest(field, 'is required');
  return parsed;
}

/**
 * A repeatable query parameter (the contract's "repeatable" and "array" filters), read in every form a
 * client sends one: repeated, as `name[]` (`countries[]=ES&countries[]=PT`) or comma-separated; undefined when absent.
 */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(name), ...query.getAll(`${name}[]`)].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return values.length === 0 ? undefined : values;
}

/** Why two capitals are refused, whoever checks them (a query filter, the schemas' `isoCountry`): `XX is not an ISO 3166-1 alpha-2 country`. */
export const notACountry = (code: string) => `${code} is not an ISO 3166-1 alpha-2 country`;

/** A country filter's code: ISO 3166-1 alpha-2 in capitals, of a country (`isCountry`), else 400 naming `field`. */
export function countryCode(value: string, field: string): string {
  if (!/^[A-Z]{2}$/.test(value)) throw invalidRequest(field, `${value} is not an ISO 3166-1 alpha-2 code in capitals`);
  if (!isCountry(value)) throw invalidRequest(field, notACountry(value));
  return value;
}

/** The `countries` filter of the lists: ISO 3166-1 alpha-2 codes in capitals (listParam's forms); undefined when absent. */
export function optionalCountries(query: URLSearchParams): string[] | undefined {
  return listParam(query, 'countries')?.map((country) => countryCode(country, 'countries'));
}

/**
 * The one of alternative fields (customer_id, customer_code, associate_id, in the contract's order) that is sent
 * (`isSent`), if any; two sent is 400 naming the second, `customer_code: cannot be sent with customer_id`.
 */
export function atMostOne<F extends string>(fields: readonly F[], isSent: (field: F) => boolean): F | undefined {
  const sent = fields.filter(isSent);
  if (sent.length > 1) throw cannotBeSentWith(sent[1], sent[0]);
  return sent[0];
}

/** atMostOne where one is required: none sent is 400 naming the first, `customer_id: is required (or customer_code)`. */
export function exactlyOne<F extends string>(fields: readonly F[], isSent: (field: F) => boolean): F {
  const sent = atMostOne(fields, isSent);
  if (sent === undefined) throw requiredOr(fields[0], ...fields.slice(1));
  return sent;
}

/** Page size limits of cursor pagination (common rule 4; the maximum is Tally's, docs/http.md). */
export const PER_PAGE_DEFAULT = 10;
export const PER_PAGE_MAX = 100;

/** The page a list asks for (common rule 4): `starting_after` (absent or empty: the first page) and `per_page`. */
export function readPage(query: URLSearchParams): PageRequest {
  return { startingAfter: query.get('starting_after') || undefined, perPage: readPerPage(query.get('per_page')) };
}

/** `per_page`: every value outside 1..PER_PAGE_MAX (0, 101, -1, 2.5, abc) gets the one message that states the real range. */
export function readPerPage(value: Raw): number {
  if (!present(value)) return PER_PAGE_DEFAULT;
  const canonical = WIRE_TYPES.int64(value);
  if (canonical === undefined || canonical.length > 3 || Number(canonical) > PER_PAGE_MAX) {
    throw invalidRequest('per_page', mustBeIn('integer', { minimum: 1, maximum: PER_PAGE_MAX }));
  }
  return Number(canonical);
}

/**
 * A query string's parameters as one text whatever their order (a repeated
 * name keeps the order of its values): what "the same request" compares
 * (common rules 6 and 8).
 */
export function canonicalQuery(query: URLSearchParams | string): string {
  const params = new URLSearchParams(query);
  params.sort();
  return params.toString();
}
