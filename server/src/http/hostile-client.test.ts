/**
 * A hostile or careless client, over HTTP against one real server: headers
 * (credentials, Idempotency-Key, Accept-Language, Content-Type), methods the
 * routing table does not list, and query parameters sent twice. Bad bodies,
 * path values and query values are property-tests/bad-input.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../testing/server.js';

describe('a hostile or careless client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  describe('credentials', () => {
    // An X-Api-Key longer than an LMDB key was looked up as one: ordered-binary threw, answered 500 server_error.
    it('refuses an X-Api-Key of any length as 403 {"message":"Forbidden"}, never 500', async () => {
      for (const key of ['k'.repeat(2000), 'k'.repeat(10_000), 'é'.repeat(3000), 'k'.repeat(60_000)]) {
        for (const path of ['/company', '/check']) {
          const res = await server.client.get(path, { auth: null, headers: { 'X-Api-Key': key, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' } });
          expect(res.status, `${path}, a key of ${key.length} characters`).toBe(403);
          expect(res.text).toBe('{"message":"Forbidden"}');
        }
      }
      expect((await server.client.get('/company')).status).toBe(200);
    });
  });
});
