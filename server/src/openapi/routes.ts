/**
 * GET /openapi.json: the API description, public like GET /check (credentials
 * are validated only when sent). Built once, on the first request.
 */
import type { ServerContext } from '../context.js';
import { ok, type Routes } from '../http/types.js';
import { buildOpenApi } from './document.js';

export function openapiRoutes(_ctx: ServerContext): Routes {
  let document: Record<string, unknown> | undefined;
  return {
    openapi: async () => ok((document ??= buildOpenApi())),
  };
}
