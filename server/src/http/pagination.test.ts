/**
 * Common rule 4 across the list operations: an empty `starting_after` is the
 * first page (as absent), a `per_page` outside 1..100 is refused, and one
 * helper (params.ts readPage) reads both for every list. A forged token
 * (store/paginate.ts decodeCursor) is refused, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const LISTS = ['/discounts', '/points', '/rewards', '/games', '/instant_wins', '/challenges', '/custom_event_definitions', '/carts'];

describe('pagination of the lists', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('answers an empty starting_after with the first page', async () => {
    for (const path of LISTS) {
      const first = await server.client.get(path);
      expect(first.status, `${path}: ${first.text}`).toBe(200);
      const empty = await server.client.get(path, { query: { starting_after: '' } });
      expect(empty.status, `${path}: ${empty.text}`).toBe(200);
      expect(empty.body, path).toEqual(first.body);
    }
  });

  it('refuses per_page outside 1..100 and a starting_after it did not issue', async () => {
    for (const path of LISTS) {
      for (const query of [{ per_page: '0' }, { per_page: '101' }, { starting_after: 'not-a-token' }] as Record<string, string>[]) {
        const res = await server.client.get(path, { query });
        expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
    }
  });

  it('states the real range of per_page on every list, whatever the value (not the int64 range)', async () => {
    expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1, code: 'C1' })).status).toBe(200);
    const lists = [
      ...LISTS,
      '/audit_log',
      '/webhooks',
      '/custom_events',
      '/points/transactions',
      '/discounts/transactions',
      '/rewards/transactions',
      '/vouchers?customer_id=1',
      '/customers/1/attributes',
      '/customers/1/challenges',
    ];
    for (const path of lists) {
      for (const per_page of ['0', '101', '-1', '2.5', 'ten', '99999999999999999999']) {
        const res = await server.client.get(`${path}${path.includes('?') ? '&' : '?'}per_page=${per_page}`);
        expect(res.status, `${path} per_page=${per_page}: ${res.text}`).toBe(400);
        expect(res.body, `${path} per_page=${per_page}`).toEqual({ code: 'invalid_request', error: 'per_page: must be an integer between 1 and 100' });
      }
    }
  });

  it('refuses forged tokens of the right list and tenant: parts that are not strings or numbers, huge keys, not base64, another list', async () => {
    // A token is [the list's database, its prefix length, ...key] (store/paginate.ts); these lists read the tenant's range of one database.
    const databases = { '/discounts': 'campaigns', '/points': 'campaigns', '/points/transactions': 'points_transactions', '/custom_events': 'custom_events', '/carts': 'carts' };
    const tenant = 'default/sandbox';
    const encode = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const [path, database] of Object.entries(databases)) {
      const token = (key: unknown[]) => encode([database, 1, ...key]);
      const forged = [
        token([tenant, { a: 1 }]),
        token([tenant, ['x', ['y']]]),
        token([tenant, null]),
        token([tenant, true]),
        token([tenant, '0000000000000000001', { a: 1 }]),
        token([tenant, 'a'.repeat(5000)]),
        token([tenant, ...Array.from({ length: 2000 }, () => 1)]),
        '!!!!',
        'e30',
        // The old form (the key alone), another database's key, a longer prefix's (another filter value of an index).
        encode([tenant, 'a']),
        encode([`${database}_by_customer`, 1, tenant, 'a']),
        encode([database, 2, tenant, 'a', 'b']),
      ];
      for (const starting_after of forged) {
        const res = await server.client.get(path, { query: { starting_after } });
        expect(res.status, `${path} ${starting_after.slice(0, 60)}: ${res.text}`).toBe(400);
        expect(res.body).toMatchObject({ code: 'invalid_request' });
        expect(res.body.error).toContain('starting_after');
      }
      // A key of the list's shape, however unlikely, is a position in it.
      const plausible = await server.client.get(path, { query: { starting_after: token([tenant, 'a'.repeat(2500)]) } });
      expect(plausible.status, `${path}: ${plausible.text}`).toBe(200);
    }
  });
});
