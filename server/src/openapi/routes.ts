/**
 * GET /openapi.json: the API description, public like GET /check (credentials
 * are validated only when sent). Built once, on the first request, and sent
 * as the bytes of docs/openapi.json.
 */
import type { ServerContext } from '../context.js';
import type { Reply, Routes } from '../http/types.js';
import { buildOpenApi, openApiText } from './document.js';

export function openapiRoutes(_ctx: ServerContext): Routes {
  let reply: Reply | undefined;
  const build = (): Reply => {
    const document = buildOpenApi();
    return { body: document, raw: openApiText(document) };
  };
  return {
    openapi: async () => (reply ??= build()),
  };
}
