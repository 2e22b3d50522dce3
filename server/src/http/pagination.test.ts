/**
 * Common rule 4 across the list operations: an empty `starting_after` is the
 * first page (as absent), a `per_page` outside 1..100 is refused, and one
 * helper (params.ts readPage) reads both for every list. A forged token
 * (store/paginate.ts decodeCursor) is refused, never a 500. A page reads at
 * most LIST_SCAN_LIMIT records its filters leave out, then answers what it
 * found with a token (docs/http.md, Pagination).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyListedPage, type ListedPage } from '../testing/pages.js';
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

describe('a page reads at most LIST_SCAN_LIMIT records its filters leave out', () => {
  let server: TestServer;
  /** Carts 101 to 120 (in id order); these are at location 5, the others at 6. */
  const AT_FIVE = [102, 109, 110, 117];
  const ids = (pages: ListedPage[]) => pages.map((page) => page.data.map((item) => item.id));
  const tokens = (pages: ListedPage[]) => pages.map((page) => page.next_token_starts_after !== undefined);

  beforeAll(async () => {
    server = await startServer({ env: { LIST_SCAN_LIMIT: '3' } });
    const base = { total: 1, lines: [{ order: 1, total: 1, quantity: 1 }], creation_date: '2026-01-10T10:00:00Z' };
    for (let id = 101; id <= 120; id++) {
      const res = await server.client.post('/carts/realtime', { ...base, id, location_id: AT_FIVE.includes(id) ? 5 : 6 });
      expect(res.status, res.text).toBe(200);
    }
    for (const id of [1, 2]) expect((await server.client.post('/customers', { id, name: `C${id}`, registration_location_id: 1 })).status).toBe(200);
    for (let i = 1; i <= 4; i++) {
      for (const id of [1, 2]) expect((await server.client.patch(`/customers/${id}`, { name: `C${id} ${i}` })).status).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  it('a sparse filter answers every match once across the pages, some empty with a token, the last without', async () => {
    // 101 left out, 102 kept, 103 and 104 left out: the third, so 105 waits for the next page, whose token is 104's.
    const pages = await everyListedPage(server.client, '/carts', { location_id: '5', per_page: '10' });
    expect(ids(pages)).toEqual([[102], [], [109, 110], [], [117], []]);
    expect(tokens(pages)).toEqual([true, true, true, true, true, false]);
    for (const per_page of ['1', '2', '3']) {
      const paged = await everyListedPage(server.client, '/carts', { location_id: '5', per_page });
      expect(ids(paged).flat(), per_page).toEqual(AT_FIVE);
      expect(paged.every((page) => page.data.length <= Number(per_page))).toBe(true);
      expect(paged.some((page) => page.data.length === 0 && page.next_token_starts_after !== undefined)).toBe(true);
    }
  });

  it('leaves a list that keeps every record whole: full pages', async () => {
    const pages = await everyListedPage(server.client, '/carts', { per_page: '10' });
    expect(ids(pages)).toEqual([Array.from({ length: 10 }, (_, i) => 101 + i), Array.from({ length: 10 }, (_, i) => 111 + i)]);
  });

  it("a token at a record left out is a position in the unfiltered order, and no other list's", async () => {
    const [, empty] = await everyListedPage(server.client, '/carts', { location_id: '5', per_page: '10' });
    // After 107, the last record the empty page read.
    const after = { starting_after: empty.next_token_starts_after! };
    expect(ids([(await server.client.get('/carts', { query: { ...after, per_page: '2' } })).body])).toEqual([[108, 109]]);
    for (const query of [{ customer_id: '1' }] as Record<string, string>[]) {
      const res = await server.client.get('/carts', { query: { ...query, ...after } });
      expect({ status: res.status, body: res.body }, JSON.stringify(query)).toEqual({ status: 400, body: { code: 'invalid_request', error: 'starting_after: is not a token returned by this list' } });
    }
  });

  it('bounds every list that filters what it reads: the audit log, whole (newest first) and through a target index', async () => {
    const creates = await everyListedPage(server.client, '/audit_log', { operation: 'customers.create', per_page: '1' });
    expect(creates.flatMap((page) => page.data.map((entry) => entry.target))).toEqual(['customer:2', 'customer:1']);
    // Eight updates before them, newest first: the first page ends at the third, empty.
    expect(creates[0]).toEqual({ data: [], next_token_starts_after: expect.any(String) });
    const ofOne = await everyListedPage(server.client, '/audit_log', { target: 'customer:1', operation: 'customers.create' });
    expect(ofOne.map((page) => page.data.map((entry) => entry.target))).toEqual([[], ['customer:1']]);
  });

  it('reads GET /custom_events?id= through the id index: its event on the first page, however many come before it', async () => {
    expect((await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } })).status).toBe(200);
    for (let i = 1; i <= 8; i++) {
      const res = await server.client.post('/custom_events', { id: `v${i}`, customer_id: i === 8 ? 2 : 1, slug: 'visit', data: {} });
      expect(res.status, res.text).toBe(200);
    }
    const events = (query: Record<string, string>) => server.client.get('/custom_events', { query });
    // Seven events before it, more than a page may leave out: still the first page, and the last.
    expect((await events({ id: 'v8' })).body).toEqual({ data: [expect.objectContaining({ id: 'v8', customer_id: 2 })] });
    expect((await events({ id: 'v8', customer_id: '2', slug: 'visit' })).body.data.map((e: any) => e.id)).toEqual(['v8']);
    // The other filters apply to the event read.
    for (const query of [{ customer_id: '1' }, { slug: 'review' }, { created_at_gt: '2999-01-01' }] as Record<string, string>[]) {
      expect((await events({ id: 'v8', ...query })).body, JSON.stringify(query)).toEqual({ data: [] });
    }
    expect((await events({ id: 'none' })).body).toEqual({ data: [] });
    // A token of the list goes on from its position in it, id or not.
    const first = await events({ per_page: '1' });
    expect(first.body.data.map((e: any) => e.id)).toEqual(['v1']);
    const after = await everyListedPage(server.client, '/custom_events', { id: 'v8', starting_after: first.body.next_token_starts_after });
    expect(after.map((page) => page.data.map((e) => e.id))).toEqual([[], [], ['v8']]);
    const ofOne = await events({ customer_id: '1', per_page: '1' });
    const refused = await events({ id: 'v8', starting_after: ofOne.body.next_token_starts_after });
    expect(refused.body).toEqual({ code: 'invalid_request', error: 'starting_after: is not a token returned by this list' });
  });
});
