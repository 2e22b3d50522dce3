/**
 * What is generated from schemas/ is committed: these tests fail when a
 * schema (or the routing table) changed and `npm run schemas` was not run.
 * They only compare; they never write.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DOCUMENTS } from '../server/src/http/validation.js';
import { openApiText } from '../server/src/openapi/document.js';
import { wireTypes } from '../scripts/wire-types.mjs';

const committed = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const STALE = 'is stale: run `npm run schemas` and commit the result';

describe('generated from schemas/', () => {
  it(`docs/openapi.json is what the generator makes now (else it ${STALE})`, () => {
    expect(committed('docs/openapi.json') === openApiText(), `docs/openapi.json ${STALE}`).toBe(true);
  });

  it(`server/src/wire/types.ts is what the generator makes now (else it ${STALE})`, async () => {
    expect(committed('server/src/wire/types.ts') === (await wireTypes(SCHEMA_DOCUMENTS)), `server/src/wire/types.ts ${STALE}`).toBe(true);
  });

  it('types every request schema by its $id and every response schema in ResponseBodies', async () => {
    const types = await wireTypes(SCHEMA_DOCUMENTS);
    const block = (name: string) => new RegExp(`export interface ${name} \\{([^}]*)\\}`).exec(types)![1];
    expect(block('RequestBodies')).toContain(`'customers.create': CustomersCreate;`);
    expect(block('RequestBodies')).toContain(`'carts.cart': CartsCart;`);
    expect(block('ResponseBodies')).toContain(`'responses.customer': CustomerResponse;`);
    expect(block('RequestBodies')).not.toContain('responses.');
    // int64 fields are canonical decimal strings after validate().
    expect(/export interface CustomersCreate \{[^}]*\n {2}registration_location_id\?: string;/.test(types)).toBe(true);
  });
});
