/**
 * The contract's error codes, each with its HTTP status. The engine throws
 * TallyError; the server turns any TallyError into `{error, code}` with this
 * status in one place (server/src/http/errors.ts).
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  forbidden_request: 403,
  not_implemented: 501,
  server_error: 500,
  conflict: 409,
  too_many_requests: 429,
  idempotency_key_reused: 409,
  duplicate_id: 409,
  customer_merging: 409,
  customer_not_enough_score: 402,
  customer_inactive: 402,
  voucher_redeemed: 402,
  voucher_expired: 402,
  voucher_inactive: 402,
  voucher_deleted: 402,
  voucher_out_location: 402,
  voucher_out_date: 402,
  voucher_not_found: 404,
  exchange_not_found: 404,
} as const;

export type KnownErrorCode = keyof typeof ERROR_STATUS;
/** `<resource>_not_found` codes are open-ended (customer_not_found, cart_not_found, ...). */
export type ErrorCode = KnownErrorCode | `${string}_not_found`;

export class TallyError extends Error {
  readonly code: ErrorCode;
  /** The request field the error is about, when there is one (dotted path). */
  readonly field?: string;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'TallyError';
    this.code = code;
    this.field = field;
  }

  get status(): number {
    return statusOf(this.code);
  }
}

export function statusOf(code: ErrorCode): number {
  if (code in ERROR_STATUS) return ERROR_STATUS[code as KnownErrorCode];
  if (code.endsWith('_not_found')) return 404;
  return 400;
}

/** Shorthand for the most common error: a missing or malformed field. */
export function invalidRequest(field: string, message: string): TallyError {
  return new TallyError('invalid_request', `${field}: ${message}`, field);
}

/**
 * Two fields sent where one is allowed (a customer by id or by code, ...): the later one, as the contract lists
 * them, is named, `customer_code: cannot be sent with customer_id`. The one wording of the engine and the server.
 */
export function cannotBeSentWith(field: string, other: string): TallyError {
  return invalidRequest(field, `cannot be sent with ${other}`);
}

/** None of alternative fields sent: the first is named, `customer_id: is required (or customer_code or associate_id)`. */
export function requiredOr(field: string, ...alternatives: string[]): TallyError {
  return invalidRequest(field, `is required (or ${alternatives.join(' or ')})`);
}

/**
 * A field that only means something with another sent without it: the missing one is named, as a missing field
 * always is, `loyalty_rule_id: is required with score_overwrite`; one of alternatives, the first with the others in
 * brackets, `customer_id: is required (or customer_code) with restricted_by`.
 */
export function requiredWith(fields: string | readonly [string, ...string[]], sent: string): TallyError {
  const [field, ...alternatives] = typeof fields === 'string' ? [fields] : fields;
  const or = alternatives.length > 0 ? ` (or ${alternatives.join(' or ')})` : '';
  return invalidRequest(field, `is required${or} with ${sent}`);
}

/** A JSON value's type, as JSON Schema names it. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

const TYPE_NAMES: Readonly<Record<JsonType, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** A JSON type as the messages name it: `a string`, `an integer`, `null`. */
export function typeName(type: JsonType): string {
  return TYPE_NAMES[type];
}

/**
 * What a value must be, in phrases that carry their article, its alternatives listed one way: `must be an email
 * address`, `must be a date YYYY-MM-DD or an ISO 8601 datetime`, `must be all, selected or an array`; null last
 * (the value that clears a field), each phrase once.
 */
export function mustBeAnyOf(...phrases: readonly string[]): string {
  const unique = [...new Set(phrases)];
  const listed = [...unique.filter((phrase) => phrase !== 'null'), ...unique.filter((phrase) => phrase === 'null')];
  const last = listed.pop();
  return `must be ${listed.length > 0 ? `${listed.join(', ')} or ${last}` : last}`;
}

/**
 * The one wording of a type error, whoever finds it (the engine, a route, a schema): each type with its article,
 * null last, `must be a string`, `must be an integer or null`, `must be a string, a number, a boolean or null`.
 */
export function mustBe(...types: readonly JsonType[]): string {
  return mustBeAnyOf(...types.map(typeName));
}

/**
 * The bounds of a number, as JSON Schema names them (inclusive unless exclusive); a bigint for a bound beyond 2^53
 * (int64).
 */
export interface Bounds {
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly exclusiveMinimum?: number | bigint;
  readonly exclusiveMaximum?: number | bigint;
}

interface Bound {
  readonly value: number | bigint;
  readonly exclusive: boolean;
}

/**
 * The stricter of an inclusive and an exclusive bound on one side (`sign` 1 below, -1 above). An integer's exclusive
 * bound is the inclusive one it means (> 0 is at least 1; < 1.5 is at most 1), so an integer's bounds are always said
 * inclusive.
 */
function boundOf(inclusive: number | bigint | undefined, exclusive: number | bigint | undefined, sign: 1 | -1, integer: boolean): Bound | undefined {
  let bound = inclusive === undefined ? undefined : { value: inclusive, exclusive: false };
  if (exclusive === undefined) return bound;
  const next = (value: number | bigint) => (typeof value === 'bigint' ? value + BigInt(sign) : sign === 1 ? Math.floor(value) + 1 : Math.ceil(value) - 1);
  const strict = integer ? { value: next(exclusive), exclusive: false } : { value: exclusive, exclusive: true };
  if (bound === undefined || (sign === 1 ? strict.value >= bound.value : strict.value <= bound.value)) bound = strict;
  return bound;
}

/**
 * A number of a range, as a phrase with its article (the range kin of `typeName`): `an integer between 1 and 100`,
 * `an integer of at least 0`, `a number of at most 36500`, `a number greater than 0`, `a number greater than 0 and
 * at most 100`; both bounds inclusive read `between`, the only form of an integer's two bounds. No bound: the type.
 * A value the range leaves out (a schema's `not: {const: 0}`) comes last: `a number between -9007199254740991 and
 * 9007199254740991 other than 0`.
 */
export function inRange(type: 'integer' | 'number', bounds: Bounds, otherThan?: number): string {
  const phrase = boundsPhrase(type, bounds);
  return otherThan === undefined ? phrase : `${phrase} other than ${otherThan}`;
}

function boundsPhrase(type: 'integer' | 'number', bounds: Bounds): string {
  const integer = type === 'integer';
  const lower = boundOf(bounds.minimum, bounds.exclusiveMinimum, 1, integer);
  const upper = boundOf(bounds.maximum, bounds.exclusiveMaximum, -1, integer);
  if (lower && upper && !lower.exclusive && !upper.exclusive) return `${typeName(type)} between ${lower.value} and ${upper.value}`;
  const words = [
    lower && `${lower.exclusive ? 'greater than' : 'at least'} ${lower.value}`,
    upper && `${upper.exclusive ? 'less than' : 'at most'} ${upper.value}`,
  ].filter(Boolean).join(' and ');
  if (words === '') return typeName(type);
  return `${typeName(type)} ${words.startsWith('at ') ? 'of ' : ''}${words}`;
}

/**
 * The one wording of a number's range, whoever checks it (a schema's minimum or maximum, an integer beyond 2^53, a
 * route, the engine): `must be an integer between 1 and 2147483647`, `must be an integer of at least 0`, `must be a
 * number greater than 0 and at most 100`, `must be a number between -9007199254740991 and 9007199254740991 other
 * than 0` (`inRange`).
 */
export function mustBeIn(type: 'integer' | 'number', bounds: Bounds, otherThan?: number): string {
  return mustBeAnyOf(inRange(type, bounds, otherThan));
}

/** `n` things, the noun plural but for 1: `50 fields`, `1 item`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The one wording of a list or an object over its size, whoever checks it (a schema's maxItems or maxProperties, a
 * route, the engine): `must have at most 10 items`, `must have at most 50 fields`, `must have at most 500 conditions`.
 */
export function atMostOf(max: number, noun: 'item' | 'field' | 'condition'): string {
  return `must have at most ${counted(max, noun)}`;
}
