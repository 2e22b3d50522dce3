/**
 * Query parameters an operation does not accept are refused (400 naming the
 * first), as unknown body fields are, before anything is written; the ones
 * it accepts (openapi/parameters.ts, and the page's on a paged list) pass,
 * a repeatable one also as `name[]`. Routes may read only the names listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { OperationQuery } from './query.js';

describe('query parameters', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const refused = (res: { status: number; body: unknown }, name: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', error: `${name}: is not an accepted parameter` });
  };

  it('refuses a misspelt filter instead of answering the unfiltered list', async () => {
    refused(await server.client.get('/points/transactions', { query: { customer_idd: '5' } }), 'customer_idd');
    refused(await server.client.get('/carts', { query: { customer_id: '5', form_date: '2026-01-01' } }), 'form_date');
    expect((await server.client.get('/carts', { query: { customer_id: '5', from_date: '2026-01-01' } })).status).toBe(200);
  });

  it('refuses a write with an unknown parameter and writes nothing', async () => {
    const customer = { id: 71, name: 'Ana', registration_location_id: 1, code: 'Q71' };
    refused(await server.client.post('/customers', customer, { query: { dry_run: 'true' } }), 'dry_run');
    expect((await server.client.get('/customers/71', { query: { search_param: 'id' } })).status).toBe(404);
    expect((await server.client.post('/customers', customer, { query: { allow_duplicate_email: 'true' } })).status).toBe(200);
  });

  it('takes the page parameters on paged lists only', async () => {
    expect((await server.client.get('/discounts', { query: { per_page: '5', starting_after: '' } })).status).toBe(200);
    refused(await server.client.get('/customers/71', { query: { search_param: 'id', per_page: '5' } }), 'per_page');
  });

  it('takes a repeatable parameter as name[] too, and no other parameter so', async () => {
    const res = await server.client.request('GET', '/discounts?countries[]=ES&countries[]=PT');
    expect(res.status, res.text).toBe(200);
    expect((await server.client.request('GET', '/carts?countries[]=ES')).status).toBe(200);
    refused(await server.client.request('GET', '/customers?ids[]=71'), 'ids[]');
  });

  it('refuses a parameter without a name, and reads stray separators as nothing', async () => {
    const nameless = await server.client.request('GET', '/discounts?=ES');
    expect([nameless.status, nameless.body]).toEqual([400, { code: 'invalid_request', error: 'query: has a parameter without a name' }]);
    expect((await server.client.request('GET', '/discounts?&&per_page=5&')).status).toBe(200);
  });

  it('refuses parameters on an operation that takes none, public ones included', async () => {
    refused(await server.client.get('/company', { query: { verbose: '1' } }), 'verbose');
    refused(await server.client.get('/check', { query: { probe: '1' }, auth: null }), 'probe');
    expect((await server.client.get('/check', { auth: null })).status).toBe(200);
  });
});

describe('OperationQuery', () => {
  it('lets a route read only the names its operation lists', () => {
    const query = new OperationQuery('search_param=id', 'customers.get');
    expect(query.get('search_param')).toBe('id');
    expect(() => query.get('hard')).toThrow(/customers.get reads the query parameter hard/);
    expect(() => query.getAll('hard')).toThrow();
    expect(() => query.has('hard')).toThrow();
  });
});
