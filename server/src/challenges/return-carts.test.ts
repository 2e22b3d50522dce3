/**
 * The `carts` metric counts purchases: a cart that only returns goods is not
 * one (a "make 5 purchases" challenge does not progress by returning goods),
 * an exchange is; a cancellation takes out what its cart had counted. Tier
 * programs read the same metric.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('return carts in the carts metric', () => {
  let server: TestServer;
  let challenge: number;
  const purchases = async () => (await server.client.get(`/customers/1/challenges/${challenge}`)).body.attribute_value;
  const tierValue = async () => (await server.client.get('/customers/1/tiers')).body.data[0].attribute_value;
  const returnLine = (ticket: number) => ({ ticket_id: ticket, line_order: 1, from_line_order: 1, quantity: -1 });
  const post = async (body: Record<string, unknown>) => {
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status, res.text).toBe(200);
  };
  const cancel = async (cart: number, id: number) => expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: cart, new_cart_id: id })).status).toBe(200);

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    await createCustomer(server.client, 1, { country: 'ES' });
    const created = await server.client.post('/challenges', { name: 'Five purchases', attribute: 'carts', open_to_all: true, structure: [{ level: 1, name: 'Five', threshold: 5 }] });
    expect(created.status, created.text).toBe(200);
    challenge = created.body.id;
    expect((await server.client.post('/tier_programs', { name: 'Visits', attribute: 'carts', structure: [{ level: 1, name: 'Regular', threshold: 1 }] })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('counts sales and exchanges, not pure returns; a cancellation takes out what its cart counted', async () => {
    await realtimeCart(server.client, 1, 30, { id: 10, lines: [{ order: 1, product_id: 1, total: 30, quantity: 3 }] });
    expect(await purchases()).toBe(1);
    // Only returns goods: one negative line, named by a return.
    await post(cartBody(-10, { id: 11, customer_id: 1, lines: [{ order: 1, product_id: 1, total: -10, quantity: -1 }], returns: [returnLine(10)] }));
    expect(await purchases()).toBe(1);
    expect(await tierValue()).toBe(1);
    // An exchange: a unit returned and another product bought.
    await post(cartBody(5, {
      id: 12,
      customer_id: 1,
      lines: [{ order: 1, product_id: 1, total: -10, quantity: -1 }, { order: 2, product_id: 2, total: 15, quantity: 1 }],
      returns: [returnLine(10)],
    }));
    expect(await purchases()).toBe(2);
    await cancel(11, 13);
    expect(await purchases()).toBe(2);
    await cancel(12, 14);
    expect(await purchases()).toBe(1);
    expect(await tierValue()).toBe(1);
  });
});
