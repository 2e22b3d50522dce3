/** A rule as received (object, JSON string, or nothing) down to its `conditions` group. */
import { invalidRequest } from '../errors.js';
import { parseJson as parseJsonLosslessly } from '../json.js';
import { isPlainObject } from './compile-leaf.js';

/** Lossless: an integer literal beyond 2^53 is a bigint, compared exactly (an id, an attribute), as in a request body. */
function parseJson(text: string, field: string): unknown {
  try {
    return parseJsonLosslessly(text);
  } catch (error) {
    throw invalidRequest(field, `is not valid JSON (${(error as Error).message})`);
  }
}

/** The rule's `{and|or}` group, or undefined for an absent rule (`undefined`, `null`, `''`, `{}`): always true. */
export function readRule(raw: unknown, field: string): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return undefined;
    raw = parseJson(raw, field);
  }
  if (!isPlainObject(raw)) throw invalidRequest(field, 'must be an object or a JSON string');
  for (const key of Object.keys(raw)) {
    if (key !== 'conditions') throw invalidRequest(`${field}.${key}`, 'is not an accepted field');
  }
  const conditions = raw.conditions;
  if (conditions === undefined || conditions === null) return undefined;
  if (!isPlainObject(conditions) || !('and' in conditions || 'or' in conditions)) {
    throw invalidRequest(`${field}.conditions`, 'must be {"and": [...]} or {"or": [...]}');
  }
  return conditions;
}
