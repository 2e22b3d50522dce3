/**
 * GET /check: availability, and a low-risk way to validate credentials
 * (the pipeline answers 403 when credentials are sent and wrong).
 */
import type { ServerContext } from '../context.js';
import { ok, type Routes } from '../http/types.js';

export function checkRoutes(_ctx: ServerContext): Routes {
  return {
    check: async (req) => ok(req.tenant ? { status: 'ok', environment: req.tenant.environment } : { status: 'ok' }),
  };
}
