/**
 * LMDB discards a named database whose first open happened inside a write
 * transaction that then aborted, and lmdb-js kept its handle: every later
 * read of it failed with "dbi ... out of range" (500). On a fresh store, the
 * first request of each resource is refused inside its transaction (after
 * validation, where the store first opens its database); the resource must
 * then work as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('a resource whose first request is refused inside its transaction', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  /** The refusal, its status, then requests that must all answer 200. */
  const cases: [string, () => Promise<{ status: number; text: string }>, number, (() => Promise<{ status: number; text: string }>)[]][] = [
    ['taxonomies', () => server.client.delete('/taxonomies/none'), 404, [
      () => server.client.post('/taxonomies', { slug: 'family', name: 'Family' }),
      () => server.client.patch('/taxonomies/family', { name: 'Families' }),
    ]],
    ['campaigns', () => server.client.patch('/discounts/9999', { rule_params: { name: 'x' } }), 404, [
      () => server.client.get('/discounts'),
    ]],
    ['challenges', () => server.client.post('/challenges/1/enroll', { customer_id: 1 }), 404, [
      () => server.client.get('/challenges'),
    ]],
    ['rewards', () => server.client.post('/rewards/1/redeem', { customer_id: 1, location_id: 1 }), 404, [
      () => server.client.get('/rewards'),
    ]],
    ['vouchers', () => server.client.post('/vouchers/redeem', { codes: ['NONE'], customer_id: 1, location_id: 1 }), 404, [
      () => server.client.get('/vouchers', { query: { customer_id: '1' } }),
    ]],
  ];
  for (const [resource, refused, status, after] of cases) {
    it(`${resource}: answers as usual after it`, async () => {
      const refusal = await refused();
      expect(refusal.status, refusal.text).toBe(status);
      for (const request of after) {
        const res = await request();
        expect(res.status, res.text).toBe(200);
      }
    });
  }
});
