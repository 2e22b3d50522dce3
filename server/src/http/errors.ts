/**
 * The one place where failures become HTTP answers. A TallyError becomes
 * `{error, code}` with its contract status; anything else is logged and
 * answered 500 server_error (the process never crashes on a request).
 */
import { TallyError } from '@tally/engine';
import type { Logger } from 'pino';
import type { Reply } from './types.js';

/** Authentication failures have their own body (Authentication rule 1). */
export const FORBIDDEN: Reply = { status: 403, body: { message: 'Forbidden' } };

/**
 * invalid_request naming the field. The engine has the same helper but does not
 * export it; when it does, this becomes a re-export (one line).
 */
export function invalidRequest(field: string, message: string): TallyError {
  return new TallyError('invalid_request', `${field}: ${message}`, field);
}

export function errorBody(code: string, message: string): { error: string; code: string } {
  return { error: message, code };
}

export function errorReply(err: unknown, log: Logger): Reply {
  if (err instanceof TallyError) return { status: err.status, body: errorBody(err.code, err.message) };
  log.error({ err }, 'unexpected error');
  return { status: 500, body: errorBody('server_error', 'Internal server error') };
}
