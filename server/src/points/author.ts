/**
 * The author of a transfer or a trigger (common rule 9: an email header; the
 * contract does not name it). Tally reads `X-Author-Email` and records it on
 * the points transactions the request writes.
 */
import { invalidRequest, mustBeAnyOf } from '../http/errors.js';
import { FORMAT_DESCRIPTIONS } from '../http/formats.js';
import type { TallyRequest } from '../http/types.js';

export const AUTHOR_HEADER = 'x-author-email';
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function authorOf(req: TallyRequest): string | undefined {
  const value = req.header(AUTHOR_HEADER);
  if (value === undefined || value === '') return undefined;
  if (value.length > 254 || !EMAIL.test(value)) throw invalidRequest('X-Author-Email', mustBeAnyOf(FORMAT_DESCRIPTIONS.email));
  return value.toLowerCase();
}
