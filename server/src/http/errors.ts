/**
 * The one place where failures become HTTP answers. A TallyError becomes
 * `{error, code}` with its contract status; a full cart pool 503; anything
 * else is logged and answered 500 server_error (the process never crashes on a request).
 */
import { TallyError } from '@tally/engine';
import type { Logger } from 'pino';
import type { Reply } from './types.js';

/**
 * invalid_request naming the field, the one wording of each kind of message about paired fields (both sent,
 * neither sent, one sent without the field it needs) and of what a value must be (`mustBe`: a type; `mustBeIn`: a
 * number's range): the engine's helpers, so both raise the same errors. `atMostOne` and `exactlyOne` (http/params.ts)
 * use them.
 */
export { atMostOf, cannotBeSentWith, counted, inRange, invalidRequest, mustBe, mustBeAnyOf, mustBeIn, requiredOr, requiredWith, typeName, type JsonType } from '@tally/engine';

/** Authentication failures have their own body (Authentication rule 1). */
export const FORBIDDEN: Reply = { status: 403, body: { message: 'Forbidden' } };

export function errorBody(code: string, message: string): { error: string; code: string } {
  return { error: message, code };
}

/**
 * A cart pool holds its limit of carts (`CART_QUEUE_LIMIT`, pool/pool.ts): the cart is shed before any work.
 * 503 with the contract's server_error, whose client back-off (1 s, doubling up to 32) is the one wanted;
 * Retry-After says the same (docs/http.md, "Load shedding"). Not logged here: the pool counts them.
 */
export class Overloaded extends Error {}

/** The one instance the pool rejects with (no stack captured per shed cart). */
export const OVERLOADED = new Overloaded('cart pool full');

const SHED: Reply = {
  status: 503,
  headers: { 'Retry-After': '1' },
  body: errorBody('server_error', 'The server is busy: retry after 1 second, then back off'),
};

export function errorReply(err: unknown, log: Logger): Reply {
  if (err instanceof TallyError) return { status: err.status, body: errorBody(err.code, err.message) };
  if (err instanceof Overloaded) return SHED;
  log.error({ err }, 'unexpected error');
  return { status: 500, body: errorBody('server_error', 'Internal server error') };
}
