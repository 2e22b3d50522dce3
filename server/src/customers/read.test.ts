import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('reading customers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const customers = [
      { id: 1, code: 'A1', email: 'one@example.com', dni: 'X1', phone: '600000001', phone_prefix: '+34', custom1: 'legacy' },
      { id: 2, code: 'A2', email: 'two@example.com', phone: '600-000-001', phone_prefix: '+34' },
      { id: 3, code: 'A3' },
    ];
    for (const c of customers) {
      const res = await server.client.post('/customers', { name: `N${c.id}`, registration_location_id: 7, ...c });
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  describe('GET /customers/{value}', () => {
    it('finds a customer by id, code, dni or email', async () => {
      for (const [value, param] of [['001', 'id'], ['A1', 'code'], ['x1', 'dni'], ['ONE@example.com', 'email']]) {
        const res = await server.client.get(`/customers/${encodeURIComponent(value)}`, { query: { search_param: param } });
        expect(res.status, `${param}=${value}`).toBe(200);
        expect(res.body).toMatchObject({ id: 1, code: 'A1', registration_location_id: 7 });
      }
    });

    it('answers the deprecated custom fields only here', async () => {
      expect((await server.client.get('/customers/1', { query: { search_param: 'id' } })).body.custom1).toBe('legacy');
      const list = await server.client.get('/customers', { query: { ids: '1' } });
      expect(list.body.list[0]).not.toHaveProperty('custom1');
    });

    it('requires a valid search_param', async () => {
      const missing = await server.client.get('/customers/1');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: 'invalid_request', error: 'search_param: is required' });
      const wrong = await server.client.get('/customers/1', { query: { search_param: 'phone' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatch(/^search_param: /);
      const notAnId = await server.client.get('/customers/abc', { query: { search_param: 'id' } });
      expect(notAnId.status).toBe(400);
      expect(notAnId.body.error).toMatch(/^value: /);
    });

    it('answers 404 customer_not_found for an unknown value', async () => {
      for (const [value, param] of [['99', 'id'], ['nope', 'code'], ['nope@example.com', 'email'], ['Z9', 'dni']]) {
        const res = await server.client.get(`/customers/${value}`, { query: { search_param: param } });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('customer_not_found');
      }
    });
  });

  describe('GET /customers', () => {
    it('lists by ids and by phones, together, without repeats', async () => {
      const byIds = await server.client.get('/customers', { query: { ids: '3,1,404' } });
      expect(byIds.status).toBe(200);
      expect(byIds.body.list.map((c: { id: number }) => c.id)).toEqual([3, 1]);
      const byPhone = await server.client.get('/customers', { query: { phones: '600 000 001' } });
      expect(byPhone.body.list.map((c: { id: number }) => c.id).sort()).toEqual([1, 2]);
      const both = await server.client.get('/customers', { query: { ids: '1,3', phones: '600000001' } });
      expect(both.body.list.map((c: { id: number }) => c.id)).toEqual([1, 3, 2]);
    });

    it('requires ids or phones', async () => {
      const res = await server.client.get('/customers');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      const badId = await server.client.get('/customers', { query: { ids: '1,x' } });
      expect(badId.status).toBe(400);
      expect(badId.body.error).toMatch(/^ids: /);
    });

    it('takes at most 100 values a list, counted as every list is (the 100th still read)', async () => {
      const values = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(',');
      expect((await server.client.get('/customers', { query: { ids: values(100) } })).status).toBe(200);
      const ids = await server.client.get('/customers', { query: { ids: values(101) } });
      expect(ids.status).toBe(400);
      expect(ids.body).toEqual({ code: 'invalid_request', error: 'ids: must have at most 100 items' });
      const phones = await server.client.get('/customers', { query: { phones: Array.from({ length: 101 }, (_, i) => `600${String(i).padStart(6, '0')}`).join(',') } });
      expect(phones.body).toEqual({ code: 'invalid_request', error: 'phones: must have at most 100 items' });
    });
  });

  describe('POST /customers/search', () => {
    it('finds by exactly one key', async () => {
      for (const body of [{ id: 2 }, { code: 'A2' }, { email: 'TWO@example.com' }]) {
        const res = await server.client.post('/customers/search', body);
        expect(res.status).toBe(200);
        expect(res.body.id).toBe(2);
      }
    });

    it('finds the customer an associate belongs to', async () => {
      await server.client.post('/associations', { customer_id: 1, associate_customer_id: 3 });
      const res = await server.client.post('/customers/search', { associate_id: 3 });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(1);
      const none = await server.client.post('/customers/search', { associate_id: 2 });
      expect(none.status).toBe(404);
      expect(none.body.code).toBe('customer_not_found');
    });

    it('refuses none or two keys, as every one-of choice is refused (docs/http.md, Errors)', async () => {
      for (const [body, error] of [
        [{}, 'id: is required (or code or dni or associate_id or email)'],
        [{ id: 1, code: 'A1' }, 'code: cannot be sent with id'],
        [{ email: 'a@example.com', dni: 'D1' }, 'email: cannot be sent with dni'],
      ] as const) {
        const res = await server.client.post('/customers/search', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'invalid_request', error });
      }
      // The one key is then checked by the schema.
      const notAnId = await server.client.post('/customers/search', { id: 'abc' });
      expect(notAnId.status).toBe(400);
      expect(notAnId.body.error).toMatch(/^id: /);
    });

    it('answers 404 for an unknown customer', async () => {
      const res = await server.client.post('/customers/search', { dni: 'nobody' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('customer_not_found');
    });
  });
});
