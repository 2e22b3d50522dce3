/**
 * The OpenAPI 3.1 document of Tally's API, built from the routing table
 * (operations.ts), the request and response schemas (`schemas/`) and the
 * tables of bodies.ts and parameters.ts. Served at GET /openapi.json and
 * committed as docs/openapi.json (`npm run schemas`; a test keeps them equal).
 */
import { OPERATIONS, type OperationId, type OperationSpec } from '../http/operations.js';
import { SCHEMA_DOCUMENTS } from '../http/validation.js';
import { DEFAULT_RATE_LIMITS } from '../http/rate-limit.js';
import { REQUEST_SCHEMAS, RESPONSE_BODIES, responseBodySchema } from './bodies.js';
import { schemaComponents, toOpenApiSchema } from './components.js';
import { errorStatuses } from './error-statuses.js';
import { PAGE_PARAMETERS, QUERY_PARAMETERS } from './parameters.js';

type Json = Record<string, unknown>;

const TIERS = (['tier_1', 'tier_2', 'tier_3'] as const).map((tier) => `${tier} ${DEFAULT_RATE_LIMITS[tier]}`).join(', ');
const CREDENTIALS = { ApiKey: [], ApiSecret: [], ApiVersion: [] };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function requestSchema(id: OperationId): string | undefined {
  const named = REQUEST_SCHEMAS[id];
  if (named) return named;
  return SCHEMA_DOCUMENTS.has(id) ? id : undefined;
}

/** Whether a request schema requires some field, so a body must be sent. */
function requiresFields(schema: Json | undefined): boolean {
  if (!schema) return false;
  const branches = (key: string) => (schema[key] as Json[] | undefined) ?? [];
  return (
    ((schema.required as unknown[] | undefined)?.length ?? 0) > 0 ||
    branches('allOf').some(requiresFields) ||
    ['anyOf', 'oneOf'].some((key) => branches(key).length > 0 && branches(key).every(requiresFields))
  );
}

function parameters(id: OperationId, spec: OperationSpec, path: string, method: string): Json[] {
  const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const query = [...(QUERY_PARAMETERS[id] ?? []), ...(RESPONSE_BODIES[id]?.wrap === 'page' ? PAGE_PARAMETERS : [])].map(
    ({ name, required, schema, description }) => ({
      name, in: 'query', ...(required ? { required } : {}), ...(description ? { description } : {}), schema: toOpenApiSchema(schema),
    }),
  );
  const headers = [
    ...(method === 'get' || method === 'delete' ? [] : [ref('parameters', 'IdempotencyKey')]),
    ...(spec.public ? [] : [ref('parameters', 'AcceptLanguage')]),
  ];
  return [...inPath, ...query, ...headers];
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_request: a parameter or field is missing or malformed (the message starts with the field).',
  402: 'The request is valid but does not complete: customer_inactive, customer_not_enough_score or voucher_*.',
  404: 'A record the request names does not exist: <resource>_not_found.',
  409: 'Conflict: the record\'s state refuses it (conflict, customer_merging, duplicate_id), or the Idempotency-Key was used with another request (idempotency_key_reused).',
};
const RETRY_AFTER = { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } };

function responses(id: OperationId, spec: OperationSpec): Json {
  const body = RESPONSE_BODIES[id];
  const error = (description: string, extra: Json = {}) => ({ description, ...extra, content: json(ref('schemas', 'responses.error')) });
  const answers: Json = {
    200: { description: 'Success.', content: json(body ? toOpenApiSchema(responseBodySchema(body)) : { type: 'object' }) },
  };
  for (const status of errorStatuses(id, spec)) {
    if (status === 403) {
      answers[403] = { description: spec.public ? 'Credentials were sent and are not valid.' : 'Credentials missing or not valid.', content: json(ref('schemas', 'responses.forbidden')) };
    } else if (status === 429) {
      answers[429] = error(`Rate limit of ${spec.extraLimit ? `${spec.tier} or ${spec.extraLimit}` : spec.tier} exceeded (too_many_requests); Retry-After gives the seconds to wait.`, { headers: RETRY_AFTER });
    } else if (status === 503) {
      // The operations whose body goes to the cart pools: a full pool sheds (docs/http.md, Load shedding).
      const shed = spec.workerParsesBody ? ' or the cart pool is full (CART_QUEUE_LIMIT)' : '';
      answers[503] = error(`server_error: the server is stopping${shed}; nothing was done. Retry after Retry-After seconds, then back off.`, { headers: RETRY_AFTER });
    } else answers[status] = error(ERROR_DESCRIPTIONS[status]!);
  }
  answers.default = error('Any other failure (500 server_error, 501 not_implemented): the HTTP status and a code of the contract.');
  return answers;
}

function operation(id: OperationId, spec: OperationSpec, path: string, method: string, extra: Json): Json {
  const request = requestSchema(id);
  return {
    operationId: id,
    tags: [id.split('.')[0]],
    ...extra,
    'x-tally-tier': spec.tier,
    ...(spec.extraLimit ? { 'x-tally-extra-limit': { name: spec.extraLimit, requests_per_second: DEFAULT_RATE_LIMITS[spec.extraLimit] } } : {}),
    ...(spec.jsonContentType ? { 'x-tally-json-content-type': true } : {}),
    // The document's security (the three headers) applies unless the operation is public.
    ...(spec.public ? { security: [{}, CREDENTIALS] } : {}),
    parameters: parameters(id, spec, path, method),
    ...(request ? { requestBody: { required: requiresFields(SCHEMA_DOCUMENTS.get(request)), content: json(ref('schemas', request)) } } : {}),
    responses: responses(id, spec),
  };
}

function paths(): Json {
  const all: Record<string, Json> = {};
  const put = (path: string, method: string, op: Json) => {
    all[path] ??= {};
    if (method in all[path]) throw new Error(`two operations at ${method.toUpperCase()} ${path}`);
    all[path][method] = op;
  };
  for (const [id, spec] of Object.entries(OPERATIONS) as [OperationId, OperationSpec][]) {
    const method = spec.method.toLowerCase();
    const methods = spec.method === 'PATCH' ? ['patch', 'put'] : [method];
    const at = [{ path: spec.path, suffix: '', extra: {} }, ...(spec.aliases ?? []).map((alias, i) => ({
      path: alias,
      suffix: i === 0 ? '.legacy' : `.legacy${i + 1}`,
      extra: { deprecated: true, description: `Legacy path of ${spec.method} ${spec.path} (contract part 1, Versioning).` },
    }))];
    for (const { path, suffix, extra } of at) {
      for (const m of methods) {
        const viaPut = m !== method ? { description: `Same as PATCH ${spec.path} (common rule 5).` } : {};
        const op = operation(id, spec, path, m, { ...extra, ...viaPut });
        put(path, m, { ...op, operationId: `${id}${suffix}${m !== method ? '.put' : ''}` });
      }
    }
  }
  return all;
}

/** The OpenAPI 3.1 document (a plain JSON value; equal on every call). */
export function buildOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tally',
      version: '1',
      summary: 'Loyalty and promotions engine: customers, carts, campaigns, points, games, rewards, vouchers.',
      description: `Every operation but the public ones needs X-Api-Key, X-Api-Secret and X-Api-Version: 1. x-tally-tier is an operation's rate tier (default requests per second: ${TIERS}). See docs/api.md.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Self-hosted: a client sets its own base URL; this is the default of a local start (PORT, HOST).
    servers: [{ url: 'http://127.0.0.1:8080', description: 'A local Tally with the default HOST and PORT; replace with where yours listens.' }],
    security: [CREDENTIALS],
    paths: paths(),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Public identifier of the API key.' },
        ApiSecret: { type: 'apiKey', in: 'header', name: 'X-Api-Secret', description: 'The secret paired with the key.' },
        ApiVersion: { type: 'apiKey', in: 'header', name: 'X-Api-Version', description: 'The API version: 1.' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 },
          description: 'The same key and request answer the first answer again for 24 hours; the key with another request: 409 idempotency_key_reused.',
        },
        AcceptLanguage: {
          name: 'Accept-Language', in: 'header', required: false, schema: { type: 'string' },
          description: 'Language of multi-language content (coupons, vouchers, rewards, points transactions, challenges).',
        },
      },
      schemas: schemaComponents(SCHEMA_DOCUMENTS.values()),
    },
  };
}

/** The document as committed in docs/openapi.json (and served). */
export function openApiText(document: Json = buildOpenApi()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
