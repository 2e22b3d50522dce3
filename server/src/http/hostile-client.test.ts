/**
 * A hostile or careless client, over HTTP against one real server: headers
 * (credentials, Idempotency-Key, Accept-Language, Content-Type), methods the
 * routing table does not list, and query parameters sent twice. Bad bodies,
 * path values and query values are property-tests/bad-input.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { onOneConnection } from '../testing/connection.js';
import { startServer, TEST_SECRET, type TestServer } from '../testing/server.js';

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

  describe('methods', () => {
    // HEAD was 405 with the error's JSON as content: a client reads no content after a HEAD, so the next answer on the
    // connection began with those bytes (node: "Parse Error: Expected HTTP/"); HEAD /check without credentials was 403.
    it('answers HEAD as GET without content (RFC 9110), and the connection goes on', async () => {
      const [head, get, notFound, check, after] = await onOneConnection(server.port, [
        { method: 'HEAD', path: '/customers/1?search_param=id' },
        { method: 'GET', path: '/customers/1?search_param=id' },
        { method: 'HEAD', path: '/customers/404?search_param=id' },
        { method: 'HEAD', path: '/check', auth: false },
        { method: 'GET', path: '/company' },
      ]);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers['content-type']).toBe('application/json');
      expect(JSON.parse(get.text)).toMatchObject({ id: 1, name: 'Ann' });
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
      expect(notFound.status).toBe(404);
      expect(notFound.text).toBe('');
      expect(check.status).toBe(200);
      expect(check.text).toBe('');
      expect(after.status).toBe(200);
      expect(JSON.parse(after.text).id).toBe('default');
    });

    it('answers a method a path does not take 405 method_not_allowed, listing HEAD with GET in Allow, also HEAD where there is no GET', async () => {
      const [options, head, get] = await onOneConnection(server.port, [
        { method: 'OPTIONS', path: '/customers/1' },
        { method: 'HEAD', path: '/customers/search' },
        { method: 'GET', path: '/company' },
      ]);
      expect(options.status).toBe(405);
      expect(JSON.parse(options.text)).toEqual({ code: 'method_not_allowed', error: 'OPTIONS is not accepted on /customers/1' });
      expect(options.headers.allow).toBe('GET, HEAD, PATCH, PUT, DELETE');
      expect(head.status).toBe(405);
      expect(head.text).toBe('');
      expect(head.headers.allow).toBe('POST');
      expect(get.status).toBe(200);
    });
  });

  describe('Idempotency-Key', () => {
    // An empty key was a key: the second request sent with it, whatever it was, was 409 idempotency_key_reused.
    it('refuses an empty Idempotency-Key 400, and does not run the request', async () => {
      for (const id of [20, 21]) {
        const res = await server.client.post('/customers', { id, name: 'Empty key', registration_location_id: 1 }, { headers: { 'Idempotency-Key': '' } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'invalid_request', error: 'Idempotency-Key: must not be empty' });
        expect((await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).status).toBe(404);
      }
    });

    it('refuses an Idempotency-Key over 255 characters 400, and does not run the request', async () => {
      const res = await server.client.post('/customers', { id: 22, name: 'Long key', registration_location_id: 1 }, { headers: { 'Idempotency-Key': 'k'.repeat(256) } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: 'Idempotency-Key: must be at most 255 characters' });
      expect((await server.client.get('/customers/22', { query: { search_param: 'id' } })).status).toBe(404);
    });
  });

  describe('query parameters sent twice', () => {
    // The first value was read and the second dropped: `ids=1&ids=2` listed customer 1 alone, `hard=false&hard=true`
    // soft-deleted, a client's mistake answered 200 as though what it sent had been read.
    it('refuses a parameter that takes one value sent twice 400 naming it, and does nothing', async () => {
      expect((await server.client.post('/customers', { id: 30, name: 'Twice', registration_location_id: 1 })).status).toBe(200);
      const cases: [string, string, string][] = [
        ['GET', '/customers?ids=1&ids=30', 'ids'],
        ['GET', '/customers/1?search_param=id&search_param=code', 'search_param'],
        ['GET', '/customers/1?search_param=id&search_param=id', 'search_param'],
        ['GET', '/carts?per_page=1&per_page=100', 'per_page'],
        ['DELETE', '/customers/30?hard=false&hard=true', 'hard'],
      ];
      for (const [method, path, name] of cases) {
        const res = await server.client.request(method, path, { headers: { 'Content-Type': 'application/json' } });
        expect(res.status, path).toBe(400);
        expect(res.body, path).toEqual({ code: 'invalid_request', error: `${name}: must be sent once` });
      }
      expect((await server.client.get('/customers/30', { query: { search_param: 'id' } })).body.name).toBe('Twice');
      expect((await server.client.get('/customers?ids=1,30')).body.list.map((c: { id: number }) => c.id)).toEqual([1, 30]);
    });

    it('reads a repeatable filter sent twice as a list', async () => {
      const res = await server.client.get('/discounts?countries=ES&countries=PT&countries[]=FR');
      expect(res.status, res.text).toBe(200);
    });
  });

  describe('lone surrogates', () => {
    const refusal = { code: 'invalid_request', error: 'body: is not valid Unicode (a \\ud800 to \\udfff escape without its pair)' };

    // `\ud800` is JSON syntax but no text: stored as UTF-8 it became U+FFFD, so a realtime cart answered
    // `"code":"\ud800"` and read back `"code":"\ufffd\ufffd\ufffd"`, a code no till sent.
    it('refuses a string or a key holding an unpaired surrogate escape 400, on the main thread and in the cart workers, and stores nothing', async () => {
      const cart = JSON.stringify(cartBody(10, { id: 40, customer_id: 1 })).replace('{', '{"code":"A\\ud800",');
      for (const path of ['/carts/realtime', '/carts/simulate']) {
        const res = await server.client.post(path, cart);
        expect(res.status, path).toBe(400);
        expect(res.body, path).toEqual(refusal);
      }
      expect((await server.client.get('/carts/40')).status).toBe(404);
      const bodies = [
        '{"id":41,"name":"Ann","surname_1":"x\\udc00y","registration_location_id":1}',
        '{"id":41,"name":"Ann","registration_location_id":1,"attributes":{"\\ud83d":"1"}}',
        '{"id":41,"name":"Ann","registration_location_id":1,"surname_1":"\\ude00\\ud83d"}',
      ];
      for (const body of bodies) {
        const res = await server.client.post('/customers', body);
        expect(res.status, body).toBe(400);
        expect(res.body, body).toEqual(refusal);
      }
      expect((await server.client.get('/customers/41', { query: { search_param: 'id' } })).status).toBe(404);
    });

    it('takes a pair of surrogate escapes as the character they write', async () => {
      expect((await server.client.post('/customers', '{"id":42,"name":"Ann","surname_1":"\\ud83d\\ude00","registration_location_id":1}')).status).toBe(200);
      expect((await server.client.get('/customers/42', { query: { search_param: 'id' } })).body.surname_1).toBe('\u{1F600}');
    });
  });
});
