/**
 * A one-of pair of body fields written in a schema as `oneOf`/`anyOf` of `required` branches is answered as
 * the routes that check one in code answer it (`customer_code: cannot be sent with customer_id`,
 * `customer_id: is required (or customer_code)`), never with ajv's "must match exactly one schema in oneOf":
 * one formatter (schemaError, http/validation.ts) for Tally's schemas and those a Company writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('one-of pairs in request schemas', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const expect400 = (res: { status: number; body: unknown; text: string }, error: string) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', error });
  };

  it('names the second field when both are sent, the first when neither is (POST /games/{id}/play, /games/{id}/assignments)', async () => {
    for (const path of ['/games/1/play', '/games/1/assignments']) {
      expect400(await server.client.post(path, { customer_id: 1, customer_code: 'C1' }), 'customer_code: cannot be sent with customer_id');
      // Both sent, one of them malformed: still the pair, as the routes that check it in code answer.
      expect400(await server.client.post(path, { customer_id: 'x', customer_code: 'C1' }), 'customer_code: cannot be sent with customer_id');
      expect400(await server.client.post(path, {}), 'customer_id: is required (or customer_code)');
    }
    // The same answer as a route that checks the pair in code (POST /discounts/redeem's customer).
    expect400(await server.client.post('/discounts/redeem', { voucher_code: 'X', customer_id: 1, customer_code: 'C1', cart_id: 1, discount: 1 }), 'customer_code: cannot be sent with customer_id');
  });

  it('names the pair of POST /carts/cancellation (anyOf: both may be sent, one is required)', async () => {
    expect400(await server.client.post('/carts/cancellation', {}), 'cart_to_cancel_id: is required (or cart_to_cancel_code)');
    expect400(await server.client.post('/carts/cancellation', { new_cart_id: 5 }), 'cart_to_cancel_id: is required (or cart_to_cancel_code)');
  });

  it("names the fields of a pair nested in a Company's schema (custom event data), under their path", async () => {
    const order = { type: 'object', properties: { id: { type: 'integer' }, code: { type: 'string' } }, oneOf: [{ required: ['id'] }, { required: ['code'] }] };
    // Without `type`, every `required` holds on a value that is not an object: no field of the pair is at fault.
    const untyped = { oneOf: [{ required: ['id'] }, { required: ['code'] }] };
    const def = await server.client.post('/custom_event_definitions', { slug: 'order', schema: { type: 'object', properties: { order, untyped } } });
    expect(def.status, def.text).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1 })).status).toBe(200);
    const send = (data: unknown) => server.client.post('/custom_events', { customer_id: 1, slug: 'order', data });
    expect400(await send({ order: { id: 7, code: 'A7' } }), 'data.order.code: cannot be sent with data.order.id');
    expect400(await send({ order: {} }), 'data.order.id: is required (or data.order.code)');
    // Both alternatives hold: ajv's "must match exactly one schema in oneOf" named neither.
    expect400(await send({ untyped: 5 }), 'data.untyped: must match exactly one alternative (it matches alternatives 1 and 2)');
    expect((await send({ order: { code: 'A7' } })).status).toBe(200);
    // Nothing was stored by the refused events.
    expect((await server.client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toHaveLength(1);
  });
});
