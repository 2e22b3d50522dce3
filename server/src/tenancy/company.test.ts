import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('GET and PATCH /company', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('reads the calling key\'s Company environment settings with their defaults', async () => {
    const res = await server.client.get('/company');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'default',
      environment: 'sandbox',
      currency: 'EUR',
      trigger_engine_version: 2,
      cart_cancellation_wait_seconds: 300,
      languages: ['en'],
      default_language: 'en',
    });
  });

  it('changes settings with PATCH and with PUT, and keeps them across a restart', async () => {
    const patched = await server.client.patch('/company', { currency: 'USD', trigger_engine_version: 1 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ currency: 'USD', trigger_engine_version: 1 });

    const put = await server.client.put('/company', { languages: ['en', 'es'], timezone: 'Europe/Madrid' });
    expect(put.status).toBe(200);

    await server.restart();
    const read = await server.client.get('/company');
    expect(read.body).toMatchObject({
      currency: 'USD',
      trigger_engine_version: 1,
      languages: ['en', 'es'],
      timezone: 'Europe/Madrid',
    });
  });

  it('writes nothing for a patch of the values held: no new settings version, no audit entry', async () => {
    const updates = async () => (await server.client.get('/audit_log', { query: { per_page: '100' } })).body.data.filter((e: { operation: string }) => e.operation === 'company.update');
    const before = await updates();
    const held = (await server.client.get('/company')).body;
    expect((await server.client.patch('/company', {})).body).toEqual(held);
    expect((await server.client.patch('/company', { currency: held.currency, languages: held.languages })).body).toEqual(held);
    expect(await updates()).toEqual(before);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: held.cart_cancellation_wait_seconds + 1 })).status).toBe(200);
    expect(await updates()).toHaveLength(before.length + 1);
  });

  it('rejects invalid settings naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ currency: 'usd' }, 'currency'],
      [{ currency: 'XYZ' }, 'currency'],
      [{ trigger_engine_version: 3 }, 'trigger_engine_version'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ default_language: 'fr' }, 'default_language'],
      [{ customer_attribute_schema: { type: 'no-such-type' } }, 'customer_attribute_schema'],
      // Refused when saved: the linear-time engine of a Company's patterns has no lookarounds.
      [{ customer_attribute_schema: { type: 'object', properties: { tag: { type: 'string', pattern: '^(?!x)' } } } }, 'customer_attribute_schema'],
      // An async check answers a Promise that rejects on invalid attributes (an unhandled rejection stops the server).
      [{ customer_attribute_schema: { $async: true, type: 'object' } }, 'customer_attribute_schema'],
      [{ customer_attribute_schema: { type: 'object', properties: { n: { $ref: 'https://schemas.example.com/n.json' } } } }, 'customer_attribute_schema'],
      [{ unknown_setting: 1 }, 'unknown_setting'],
      [{ audiences: [{ id: 0, name: 'zero', rule: {} }] }, 'audiences[0].id'],
      [{ audiences: [{ id: 1, name: 'bad rule', rule: { conditions: { and: [{ field: 'customer.country', operator: 'like', value: 'ES' }] } } }] }, 'audiences[0].rule'],
    ];
    for (const [body, field] of cases) {
      const res = await server.client.patch('/company', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
    }
  });

  it('bounds cart_cancellation_wait_seconds at one year (31536000 seconds)', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 600 })).status).toBe(200);
    for (const text of ['{"cart_cancellation_wait_seconds":31536001}', '{"cart_cancellation_wait_seconds":1e308}']) {
      const res = await server.client.patch('/company', text);
      expect(res.status, text).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^cart_cancellation_wait_seconds: /) });
    }
    expect((await server.client.get('/company')).body.cart_cancellation_wait_seconds).toBe(600);
    const year = await server.client.patch('/company', { cart_cancellation_wait_seconds: 31536000 });
    expect(year.status, year.text).toBe(200);
    expect(year.body.cart_cancellation_wait_seconds).toBe(31536000);
  });

  it('refuses a point_value of 0, which would leave every cart of the Company refused, and keeps carts working', async () => {
    expect((await server.client.post('/customers', { id: 1, name: 'C1', registration_location_id: 1 })).status).toBe(200);
    const before = (await server.client.get('/company')).body;
    for (const value of ['0', '0.000', '000']) {
      const res = await server.client.patch('/company', { point_value: value });
      expect(res.status, value).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: 'point_value: must be a decimal number greater than 0' });
    }
    expect((await server.client.get('/company')).body).toEqual(before);
    const cart = { customer_id: 1, creation_date: '2026-11-20T10:00:00Z', total: 2, lines: [{ order: 1, product_id: 1, total: 2, quantity: 1 }] };
    expect((await server.client.post('/carts/simulate', cart)).status).toBe(200);
    const small = await server.client.patch('/company', { point_value: '0.000001' });
    expect(small.status, small.text).toBe(200);
    expect((await server.client.post('/carts/simulate', cart)).status).toBe(200);
  });

  it('checks customers against a customer_attribute_schema that has an $id', async () => {
    const schema = { $id: 'https://schemas.example.com/customer.json', type: 'object', properties: { age: { type: 'integer' } } };
    expect((await server.client.patch('/company', { customer_attribute_schema: schema })).status).toBe(200);
    // Create and update compile it twice (with and without `required`): its $id once made every customer write a 500.
    const created = await server.client.post('/customers', { id: 70, name: 'N', registration_location_id: 1, attributes: { age: 30 } });
    expect(created.status, created.text).toBe(200);
    const wrong = await server.client.patch('/customers/70', { attributes: { age: 'old' } });
    expect(wrong.body).toEqual({ code: 'invalid_request', error: 'attributes.age: must be an integer' });
  });

  it('writes audience ids back as exact JSON numbers', async () => {
    const id = '9223372036854775807';
    const res = await server.client.patch('/company', `{"audiences":[{"id":${id},"name":"big","rule":{}}]}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"id":${id}`);
  });
});
