import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationSpec } from '../http/operations.js';
import { startServer, type TestServer } from '../testing/server.js';
import { buildOpenApi } from './document.js';

type Json = Record<string, any>;
const document = buildOpenApi() as Json;
const operations = Object.entries(OPERATIONS) as [string, OperationSpec][];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the three credential headers required together', () => {
    expect(document.openapi).toBe('3.1.0');
    const schemes = document.components.securitySchemes;
    expect(Object.values(schemes).map((s: any) => [s.type, s.in, s.name])).toEqual([
      ['apiKey', 'header', 'X-Api-Key'], ['apiKey', 'header', 'X-Api-Secret'], ['apiKey', 'header', 'X-Api-Version'],
    ]);
    expect(document.security).toEqual([{ ApiKey: [], ApiSecret: [], ApiVersion: [] }]);
  });

  it('has every operation of the routing table at its method and path, with its tier', () => {
    for (const [id, spec] of operations) {
      const op = document.paths[spec.path]?.[spec.method.toLowerCase()];
      expect(op?.operationId, `${spec.method} ${spec.path}`).toBe(id);
      expect(op['x-tally-tier'], id).toBe(spec.tier);
      expect(op.deprecated, id).toBeUndefined();
      expect(op.responses['403'], id).toBeDefined();
    }
    const ids = Object.values(document.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists each legacy alias as a deprecated path of the same operation', () => {
    const withAliases = operations.filter(([, spec]) => spec.aliases?.length);
    expect(withAliases.length).toBeGreaterThan(10);
    for (const [id, spec] of withAliases) {
      for (const alias of spec.aliases!) {
        const op = document.paths[alias]?.[spec.method.toLowerCase()];
        expect(op?.operationId, alias).toMatch(new RegExp(`^${id.replace('.', '\\.')}\\.legacy\\d*$`));
        expect(op.deprecated, alias).toBe(true);
        expect(op.description, alias).toContain(spec.path);
      }
    }
    expect(document.paths['/activities'].get.operationId).toBe('carts.list.legacy');
    expect(document.paths['/activities'].post.operationId).toBe('carts.create.legacy');
  });

  it('has every legacy path of the contract (part 1, Versioning 2), deprecated, and marks the deprecated request fields', () => {
    const legacy: [string, string, string][] = [
      ['post', '/activities', 'carts.create'], ['get', '/activities', 'carts.list'], ['post', '/activities/realtime', 'carts.realtime'],
      ['post', '/activities/simulate', 'carts.simulate'], ['get', '/activities/{id}', 'carts.get'],
      ['post', '/custom_entities', 'custom_events.create'], ['get', '/custom_entities', 'custom_events.list'], ['get', '/custom_entities/{id}', 'custom_events.get'],
      ['post', '/scores/trigger', 'triggers.trigger'], ['get', '/scores/transactions', 'points.transactions'],
      ['get', '/customers/{value}/scores', 'points.balance'], ['get', '/customers/{value}/scores_expiring', 'points.expiring'],
      ['post', '/scores/subtract', 'points.redeem'], ['post', '/scores/activity_redeem', 'points.redeem_cart'], ['post', '/scores/transfer', 'points.transfer'],
      ['get', '/redemptions', 'rewards.transactions'], ['post', '/redemptions/{id}/rollback', 'rewards.rollback'],
      ['get', '/customers/{id}/segment_validation', 'customers.audience_validation'], ['get', '/customers/{id}/segments', 'customers.audiences'],
    ];
    for (const [method, path, id] of legacy) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toMatchObject({ operationId: `${id}.legacy`, deprecated: true });
    }
    // Versioning 3, and the fields part 1 and 2 call deprecated where they list them.
    const customFields = [...Array.from({ length: 11 }, (_, i) => `custom${i + 1}`), ...Array.from({ length: 8 }, (_, i) => `custom${i + 1}f`)];
    const deprecatedFields: [string, string[]][] = [
      ['customers.create', customFields], ['customers.update', [...customFields, 'updated_at']],
      ['carts.cart', ['vouchers_desired', ...Array.from({ length: 8 }, (_, i) => `custom${i + 1}`)]],
      ['triggers.trigger', ['loyalty_score_id']], ['points.transfer', ['country']],
    ];
    for (const [schema, fields] of deprecatedFields) {
      for (const field of fields) expect(document.components.schemas[schema].properties[field]?.deprecated, `${schema}.${field}`).toBe(true);
    }
    expect(document.components.schemas['carts.cart'].properties.coupons_desired.deprecated).toBeUndefined();
    expect(document.components.schemas['carts.cart.line'].properties.custom1.deprecated).toBeUndefined();
  });

  it('offers PUT wherever PATCH is (common rule 5)', () => {
    for (const [id, spec] of operations.filter(([, s]) => s.method === 'PATCH')) {
      expect(document.paths[spec.path].put?.operationId, id).toBe(`${id}.put`);
    }
  });

  it('marks the public operations, the extra limit and the Content-Type rule', () => {
    expect(document.paths['/check'].get.security).toEqual([{}, { ApiKey: [], ApiSecret: [], ApiVersion: [] }]);
    expect(document.paths['/openapi.json'].get.security).toEqual([{}, { ApiKey: [], ApiSecret: [], ApiVersion: [] }]);
    expect(document.paths['/customers/{value}'].get.security).toBeUndefined();
    expect(document.paths['/discounts/trigger'].post['x-tally-extra-limit']).toEqual({ name: 'discounts_trigger', requests_per_second: 50 });
    expect(document.paths['/customers/{value}'].delete['x-tally-json-content-type']).toBe(true);
    expect(document.paths['/customers/{value}'].get['x-tally-tier']).toBe('tier_1');
  });

  it('answers 503 with Retry-After everywhere (stopping), naming the full cart pool on the cart pool operations only', () => {
    for (const [path, method] of [['/carts/simulate', 'post'], ['/carts/realtime', 'post'], ['/carts', 'post'], ['/activities/realtime', 'post']]) {
      expect(document.paths[path][method].responses['503'].headers['Retry-After'], path).toBeDefined();
      expect(document.paths[path][method].responses['503'].description, path).toContain('CART_QUEUE_LIMIT');
    }
    for (const [path, method] of [['/carts', 'get'], ['/customers', 'post'], ['/check', 'get']]) {
      expect(document.paths[path][method].responses['503'].headers['Retry-After'], path).toBeDefined();
      expect(document.paths[path][method].responses['503'].description, path).not.toContain('CART_QUEUE_LIMIT');
    }
  });

  it('declares the error statuses each operation answers, each with the {error, code} body', () => {
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    expect(statuses('/check', 'get')).toEqual(['200', '400', '403', '503', 'default']);
    expect(statuses('/customers/{value}', 'get')).toEqual(['200', '400', '403', '404', '429', '503', 'default']);
    expect(statuses('/customers/{value}', 'delete')).toEqual(['200', '400', '403', '404', '409', '429', '503', 'default']);
    expect(statuses('/points/transfer', 'post')).toEqual(['200', '400', '402', '403', '404', '409', '429', '503', 'default']);
    expect(statuses('/products/{id}', 'delete')).not.toContain('409');
    for (const status of ['400', '402', '404', '409', '429', '503']) {
      expect(document.paths['/points/transfer'].post.responses[status].content['application/json'].schema, status).toEqual({ $ref: '#/components/schemas/responses.error' });
    }
  });

  it('names path parameters, known query parameters, request and response bodies', () => {
    const get = document.paths['/customers/{value}'].get;
    expect(get.parameters).toEqual(expect.arrayContaining([
      { name: 'value', in: 'path', required: true, schema: { type: 'string' } },
      expect.objectContaining({ name: 'search_param', in: 'query', required: true }),
    ]));
    expect(get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/responses.customer' });
    const simulate = document.paths['/carts/simulate'].post;
    expect(simulate.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/carts.cart' } } } });
    expect(simulate.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    // A body is required when the schema requires a field, also through allOf or in every branch of oneOf.
    expect(document.paths['/challenges'].post.requestBody.required).toBe(true);
    expect(document.paths['/games/{id}/play'].post.requestBody.required).toBe(true);
    expect(document.paths['/customers/{value}'].patch.requestBody.required).toBe(false);
    const page = document.paths['/points/transactions'].get;
    expect(page.parameters.map((p: Json) => p.name)).toEqual(expect.arrayContaining(['starting_after', 'per_page']));
    expect(page.responses['200'].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/responses.points_transaction' });
    expect(document.paths['/customers/{value}'].get.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/responses.error' });
  });

  it('describes the answer of every operation but its own with a response schema', () => {
    const answer = (spec: OperationSpec) => document.paths[spec.path][spec.method.toLowerCase()].responses['200'].content['application/json'].schema;
    const generic = operations.filter(([, spec]) => !answer(spec).$ref && !answer(spec).properties).map(([id]) => id);
    expect(generic).toEqual(['openapi']);
  });

  it('resolves every $ref inside the document and keeps no ajv-only keyword', () => {
    const text = JSON.stringify(document);
    const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref));
    expect(refs.size).toBeGreaterThan(20);
    for (const ref of refs) {
      const [, , kind, name, ...rest] = ref.split('/');
      expect(rest, ref).toEqual([]);
      expect(document.components[kind]?.[name], ref).toBeDefined();
    }
    expect(text).not.toContain('"wire"');
    expect(text).not.toContain('"$id"');
    expect(document.components.schemas['common.int64']).toMatchObject({ type: ['integer', 'string'], format: 'int64', minimum: 1 });
  });

  it('uses every schema of schemas/: an unused one is a request or answer not named in bodies.ts', () => {
    const used = (text: string) => new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(([, name]) => name));
    const fromPaths = used(JSON.stringify(document.paths));
    const fromSchemas = used(JSON.stringify(document.components.schemas));
    expect(Object.keys(document.components.schemas).filter((name) => !fromPaths.has(name) && !fromSchemas.has(name))).toEqual([]);
  });

  it('has schemas that are valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1) and compile', () => {
    // ajv checks each against the 2020-12 meta-schema and refuses unknown keywords.
    const ajv = new Ajv2020({ strictTypes: false, formats: { int64: true, date: true } });
    const text = JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/');
    ajv.addSchema({ $id: 'openapi', $defs: JSON.parse(text) });
    for (const name of Object.keys(document.components.schemas)) {
      expect(typeof ajv.getSchema(`openapi#/$defs/${name}`), name).toBe('function');
    }
    const customer = ajv.getSchema('openapi#/$defs/responses.customer')!;
    expect(customer({ id: 1, status: 'active' })).toBe(true);
    expect(customer({ id: 0, status: 'active' })).toBe(false);
  });
});

describe('GET /openapi.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('serves the committed docs/openapi.json, byte for byte, without credentials', async () => {
    const res = await server.client.get('/openapi.json', { auth: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.text === readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'), 'the bytes of docs/openapi.json').toBe(true);
  });

  it('answers with valid credentials too, and 403 when the credentials sent are wrong', async () => {
    expect((await server.client.get('/openapi.json')).status).toBe(200);
    const wrong = await server.client.get('/openapi.json', { auth: { key: 'test-key', secret: 'wrong' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: 'Forbidden' });
  });
});
