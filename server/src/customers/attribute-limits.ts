/** The size rules of custom attributes (contract part 1): customers', and carts' and their lines', which follow the same rules. */
import { atMostOf, invalidRequest } from '../http/errors.js';
import { stringifyJson } from '../http/json.js';

export const MAX_ATTRIBUTES = 50;
export const MAX_ATTRIBUTES_BYTES = 10 * 1024;

/** At most 50 attributes and 10 KB in total; throws invalid_request naming `field`. */
export function checkLimits(attributes: Record<string, unknown>, field = 'attributes'): Record<string, unknown> {
  if (Object.keys(attributes).length > MAX_ATTRIBUTES) throw invalidRequest(field, atMostOf(MAX_ATTRIBUTES, 'field'));
  if (Buffer.byteLength(stringifyJson(attributes)) > MAX_ATTRIBUTES_BYTES) {
    throw invalidRequest(field, `must be at most ${MAX_ATTRIBUTES_BYTES} bytes in total`);
  }
  return attributes;
}
