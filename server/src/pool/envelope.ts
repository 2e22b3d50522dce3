/**
 * What crosses the thread boundary back from a worker. Errors lose their
 * class and properties between threads (piscina issues #141, #1143), so a
 * failure travels as a typed value and is rebuilt as a TallyError here.
 */
import { TallyError, type ErrorCode } from '@tally/engine';

/** What a worker posts once its module has loaded (pool.ts: exiting before that can abort the process). */
export const WORKER_LOADED = 'tally: worker loaded';

export type Envelope = { ok: true; raw: string } | { ok: false; code: ErrorCode; message: string; field?: string };

/** Runs `work` and wraps its answer or its TallyError; any other error is a server_error (logged by `onUnexpected`). */
export async function envelop(work: () => Promise<string>, onUnexpected: (err: unknown) => void): Promise<Envelope> {
  try {
    return { ok: true, raw: await work() };
  } catch (err) {
    if (err instanceof TallyError) return { ok: false, code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) };
    onUnexpected(err);
    return { ok: false, code: 'server_error', message: 'Internal server error' };
  }
}

/** The answer's JSON text, or the TallyError it carried. */
export function unwrap(envelope: Envelope): string {
  if (envelope.ok) return envelope.raw;
  throw rebuildError(envelope);
}

/** The TallyError a failed envelope carried. */
export function rebuildError(envelope: Extract<Envelope, { ok: false }>): TallyError {
  return new TallyError(envelope.code, envelope.message, envelope.field);
}
