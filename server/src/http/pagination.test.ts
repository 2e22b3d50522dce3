/**
 * Common rule 4 across the list operations: an empty `starting_after` is the
 * first page (as absent), a `per_page` outside 1..100 is refused, and one
 * helper (params.ts readPage) reads both for every list.
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
});
