/**
 * Texts that become LMDB keys (codes, slugs, path values) are bounded
 * (255 characters unless the contract says less; docs/http.md): a longer one
 * is 400 invalid_request naming it, never LMDB's 500, and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const LONG = 'x'.repeat(5000);

type Probe = { name: string; field: string; method: 'get' | 'post'; path: string; body?: Record<string, unknown>; query?: Record<string, string> };

const PROBES: Probe[] = [
  { name: 'redeem static_code', field: 'static_code', method: 'post', path: '/discounts/redeem', body: { static_code: LONG, customer_id: 1, cart_id: 1, discount: 1 } },
  { name: 'redeem voucher_code', field: 'voucher_code', method: 'post', path: '/discounts/redeem', body: { voucher_code: LONG, customer_id: 1, cart_id: 1, discount: 1 } },
  { name: 'redeem customer_code', field: 'customer_code', method: 'post', path: '/discounts/redeem', body: { static_code: 'S', customer_code: LONG, cart_id: 1, discount: 1 } },
  { name: 'redeem cart_code', field: 'cart_code', method: 'post', path: '/discounts/redeem', body: { static_code: 'S', customer_id: 1, cart_code: LONG, discount: 1 } },
  { name: 'cancellation new_cart_code', field: 'new_cart_code', method: 'post', path: '/carts/cancellation', body: { cart_to_cancel_id: 1, new_cart_code: LONG } },
  { name: 'cancellation cart_to_cancel_code', field: 'cart_to_cancel_code', method: 'post', path: '/carts/cancellation', body: { cart_to_cancel_code: LONG } },
  { name: 'custom event definition slug', field: 'slug', method: 'post', path: '/custom_event_definitions', body: { slug: LONG, schema: { type: 'object' } } },
  { name: 'customers search dni', field: 'dni', method: 'post', path: '/customers/search', body: { dni: LONG } },
  { name: 'customers search email', field: 'email', method: 'post', path: '/customers/search', body: { email: LONG } },
  { name: 'cart location_code', field: 'location_code', method: 'post', path: '/carts', body: cartBody(10, { location_code: LONG }) },
  { name: 'cart coupons_desired', field: 'coupons_desired', method: 'post', path: '/carts/simulate', body: cartBody(10, { customer_id: 1, coupons_desired: [LONG] }) },
  { name: 'cart vouchers_desired', field: 'vouchers_desired', method: 'post', path: '/carts/simulate', body: cartBody(10, { customer_id: 1, vouchers_desired: [LONG] }) },
  { name: 'cart returns ticket_code', field: 'returns[0].ticket_code', method: 'post', path: '/carts', body: cartBody(-10, { returns: [{ ticket_code: LONG, line_order: 1, quantity: 1 }] }) },
  { name: 'GET /carts/{code}', field: 'id', method: 'get', path: `/carts/${LONG}`, query: { search_param: 'code' } },
  { name: 'GET /discounts/{static_code}', field: 'value', method: 'get', path: `/discounts/${LONG}`, query: { search_by: 'static_code' } },
  { name: 'GET /discounts/{voucher_code}', field: 'value', method: 'get', path: `/discounts/${LONG}`, query: { search_by: 'voucher_code' } },
  { name: 'GET /points/{static_code}', field: 'value', method: 'get', path: `/points/${LONG}`, query: { search_by: 'static_code' } },
  { name: 'GET /points/{voucher_code}', field: 'value', method: 'get', path: `/points/${LONG}`, query: { search_by: 'voucher_code' } },
  { name: 'GET /customers/{code}', field: 'value', method: 'get', path: `/customers/${LONG}`, query: { search_param: 'code' } },
  { name: 'GET /vouchers/{code}', field: 'code', method: 'get', path: `/vouchers/${LONG}` },
  { name: 'POST /taxonomies/{slug}/features', field: 'taxonomy_slug', method: 'post', path: `/taxonomies/${LONG}/features`, body: { code: 'F', name: 'F' } },
  { name: 'cart lines product_code', field: 'lines[0].product_code', method: 'post', path: '/carts/simulate', body: cartBody(10, { lines: [{ order: 1, product_code: LONG, total: 10, quantity: 1 }] }) },
  { name: 'GET /locations/{code}', field: 'value', method: 'get', path: `/locations/${LONG}`, query: { search_param: 'code' } },
  { name: 'GET /games/{static_code}', field: 'id', method: 'get', path: `/games/${LONG}`, query: { search_by: 'static_code' } },
  { name: 'GET /discounts?customer_code', field: 'customer_code', method: 'get', path: '/discounts', query: { customer_code: LONG } },
  { name: 'GET /discounts?location_code', field: 'location_code', method: 'get', path: '/discounts', query: { location_code: LONG } },
  { name: 'GET /rewards/transactions?customer_code', field: 'customer_code', method: 'get', path: '/rewards/transactions', query: { customer_code: LONG } },
  { name: 'GET /carts?location_code', field: 'location_code', method: 'get', path: '/carts', query: { location_code: LONG } },
  { name: 'GET /carts?customer_code', field: 'customer_code', method: 'get', path: '/carts', query: { customer_code: LONG } },
  { name: 'GET /custom_events?customer_code', field: 'customer_code', method: 'get', path: '/custom_events', query: { customer_code: LONG } },
];

describe('texts used as keys', () => {
  let server: TestServer;
  const state = async () => ({
    carts: (await server.client.get('/carts')).body,
    definitions: (await server.client.get('/custom_event_definitions')).body,
    points: (await server.client.get('/customers/1/points')).body,
  });
  let before: Awaited<ReturnType<typeof state>>;

  beforeAll(async () => {
    server = await startServer();
    await createCustomer(server.client, 1);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: 1, code: 'CART-1', customer_id: 1 }))).status).toBe(200);
    before = await state();
  });
  afterAll(() => server.dispose());

  it.each(PROBES)('$name: 5,000 characters is 400 naming the field', async (probe) => {
    const res = probe.method === 'post'
      ? await server.client.post(probe.path, probe.body, { query: probe.query })
      : await server.client.get(probe.path, { query: probe.query });
    expect(`${res.status} ${res.body?.code} ${String(res.body?.error).slice(0, 60)}`).toMatch(/^400 invalid_request/);
    expect(res.body.error.startsWith(`${probe.field}`), res.body.error.slice(0, 80)).toBe(true);
  });

  it('wrote nothing', async () => {
    expect(await state()).toEqual(before);
  });

  it('still finds a 255-character code in the path', async () => {
    const code = 'c'.repeat(255);
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: 2, code }))).status).toBe(200);
    const res = await server.client.get(`/carts/${code}`, { query: { search_param: 'code' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 2, code });
  });
});

/**
 * A customer code is at most 36 characters (contract part 1), wherever a request names a customer by it (common#/$defs/customer_code),
 * except the game play, whose customer_code the contract gives 255 (games.test.ts: 256 is 400, 255 names nobody, 404).
 */
describe('customer codes in request bodies', () => {
  const BODIES: [string, string, (code: string) => Record<string, unknown>][] = [
    ['vouchers redeem', '/vouchers/redeem', (code) => ({ codes: ['V'], customer_code: code })],
    ['vouchers print (many)', '/vouchers/print', (code) => ({ codes: ['V'], customer_code: code })],
    ['voucher freeze (one)', '/vouchers/V/freeze', (code) => ({ customer_code: code })],
    ['points redeem', '/points/redeem', (code) => ({ customer_code: code, amount: 1, comments: 'c' })],
    ['points redeem_cart', '/points/redeem_cart', (code) => ({ customer_code: code, amount: 1 })],
    ['custom event', '/custom_events', (code) => ({ customer_code: code, slug: 's', data: {} })],
    ['reward redeem', '/rewards/1/redeem', (code) => ({ customer_code: code })],
    ['challenge enroll', '/challenges/1/enroll', (code) => ({ customer_code: code })],
    ['game assignment', '/games/1/assignments', (code) => ({ customer_code: code })],
  ];
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it.each(BODIES)('%s: 37 characters is 400 naming customer_code; 36 passes validation', async (_name, path, body) => {
    const long = await server.client.post(path, body('c'.repeat(37)));
    expect(`${long.status} ${long.body?.code} ${long.body?.error}`).toMatch(/^400 invalid_request customer_code/);
    const longest = await server.client.post(path, body('c'.repeat(36)));
    expect(`${longest.status} ${longest.body?.code} ${longest.body?.error}`).not.toMatch(/^400 invalid_request customer_code/);
  });
});
