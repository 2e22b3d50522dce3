/** A rule as received (object, JSON string, or nothing) down to its `conditions` group. */
import { invalidRequest } from '../errors.js';
import { isPlainObject } from './compile-leaf.js';

/** Integer literals beyond 2^53 (outside strings) would lose digits in JSON.parse: they are read as strings. */
const STRING_OR_BIG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<=[:[,\s])-?\d{16,}(?![\d.eE])/g;

function parseJson(text: string, field: string): unknown {
  const safe = text.replace(STRING_OR_BIG_INTEGER, (token) =>
    token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`,
  );
  try {
    return JSON.parse(safe);
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
