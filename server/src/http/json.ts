/**
 * JSON on the wire with exact int64 values. Integers beyond 2^53 parse as
 * bigint (JSON.parse would round them) and bigint values serialize back as
 * bare JSON numbers, so an id like 9223372036854775807 survives a round trip.
 */
import { parseJson } from '@tally/engine';
import { invalidRequest, mustBe } from './errors.js';

export { parseJson };

/** How deep a request body may nest objects and arrays (the body itself is level 1): deeper, 400 naming `body`. */
export const MAX_BODY_DEPTH = 64;

/**
 * A field's JSON text (a rule object, a game's config) parsed losslessly: text that is not JSON is 400 naming the field,
 * and so is the JSON of another kind than `kind` (`"\"str\""` where an object is wanted), said in the words of the text;
 * the text `null` is null when `nullable` (a rule object sent as "null" is absent), else of another kind.
 */
export function parseJsonText(text: string, field: string, kind: 'object' | 'array', nullable: boolean): unknown {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw invalidRequest(field, 'is not valid JSON');
  }
  const ofKind = value !== null && typeof value === 'object' && Array.isArray(value) === (kind === 'array');
  if (!ofKind && !(nullable && value === null)) throw invalidRequest(field, `must be the JSON text of an ${kind}`);
  return value;
}

/** A surrogate that is not half of a pair: in `u` mode a pair is one code point, outside the category. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a string or key of the parsed value holds a lone surrogate. Only a `\ud800`-`\udfff` escape writes one
 * (such bytes are not UTF-8, refused as the body is read), so bodies without a `\u` escape, nearly all, are not walked.
 */
function holdsLoneSurrogate(text: string, root: unknown): boolean {
  if (!text.includes('\\u')) return false;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) pending.push(value[i]); // not push(...value): a long array exceeds the arguments a call takes
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (LONE_SURROGATE.test(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Finds the first character that is not white space (where `trim` would copy the whole body). */
const NOT_SPACE = /\S/;

/**
 * A request body: an absent body is an empty object; anything else must be a
 * JSON object, else invalid_request naming `body`. The pipeline calls it, or
 * for `workerParsesBody` operations the worker does.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (!NOT_SPACE.test(text)) return {};
  let value: unknown;
  try {
    value = parseJson(text, MAX_BODY_DEPTH);
  } catch (err) {
    // RangeError: deeper than the limit (JSON.parse's own stack overflow would be one too).
    if (err instanceof RangeError) throw invalidRequest('body', `nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays`);
    throw invalidRequest('body', `is not valid JSON (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest('body', mustBe('object'));
  }
  // No text: stored as UTF-8 it would become U+FFFD, and read back other than it was answered.
  if (holdsLoneSurrogate(text, value)) throw invalidRequest('body', 'is not valid Unicode (a \\ud800 to \\udfff escape without its pair)');
  return value as Record<string, unknown>;
}

/**
 * A request body's parameters as one text, whatever the formatting: the
 * canonical form of the JSON object (`canonicalJson`), or the text itself
 * when it is not one. What "the same request" compares (common rules 6, 8).
 */
export function canonicalBody(text: string): string {
  try {
    return canonicalJson(parseJsonObject(text));
  } catch {
    return text;
  }
}

/** A parsed JSON value as text with object keys sorted and no white space (recursive: request bodies nest at most MAX_BODY_DEPTH levels). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return stringifyJson(value);
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/**
 * JSON.stringify, except that bigint values are written as JSON numbers.
 * JSON.stringify throws on a bigint, so the slower walk runs only for the
 * rare reply that holds one (see wireInt in params.ts).
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return write(value) ?? 'null';
  }
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const text = write(item);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
