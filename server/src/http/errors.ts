/**
 * The one place where failures become HTTP answers. A TallyError becomes
 * `{error, code}` with its contract status; anything else is logged and
 * answered 500 server_error (the process never crashes on a request).
 */
import { TallyError } from '@tally/engine';
import type { Logger } from 'pino';
import type { Reply } from './types.js';

/** invalid_request naming the field: the engine's helper, so both raise the same error. */
export { invalidRequest } from '@tally/engine';

/** Authentication failures have their own body (Authentication rule 1). */
export const FORBIDDEN: Reply = { status: 403, body: { message: 'Forbidden' } };

export function errorBody(code: string, message: string): { error: string; code: string } {
  return { error: message, code };
}

export function errorReply(err: unknown, log: Logger): Reply {
  if (err instanceof TallyError) return { status: err.status, body: errorBody(err.code, err.message) };
  log.error({ err }, 'unexpected error');
  return { status: 500, body: errorBody('server_error', 'Internal server error') };
}
