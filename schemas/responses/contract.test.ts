/**
 * Contract tests: real requests to the real server, each answer checked
 * against its response schema (the one the OpenAPI document names for the
 * operation, server/src/openapi/bodies.ts). A mismatch is a finding: either
 * the schema or the handler is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import type { OperationId } from '../../server/src/http/operations.js';
import { createAjv, SCHEMA_DOCUMENTS } from '../../server/src/http/validation.js';
import { RESPONSE_BODIES, responseBodySchema } from '../../server/src/openapi/bodies.js';
import { startServer, type TestResponse, type TestServer } from '../../server/src/testing/server.js';

const ajv = createAjv();
for (const document of SCHEMA_DOCUMENTS.values()) ajv.addSchema(document);

const byOperation = new Map<OperationId, ValidateFunction>();
function checkerOf(operation: OperationId): ValidateFunction {
  const body = RESPONSE_BODIES[operation];
  if (!body) throw new Error(`no response schema for ${operation} in server/src/openapi/bodies.ts`);
  if (!byOperation.has(operation)) byOperation.set(operation, ajv.compile(responseBodySchema(body)));
  return byOperation.get(operation)!;
}

/** The answer's JSON (plain JSON.parse: what any client sees) must match the operation's schema. */
function expectMatches(res: TestResponse, operation: OperationId | 'responses.error' | 'responses.forbidden', status = 200): any {
  expect(res.status, `${operation}: ${res.text}`).toBe(status);
  const check = operation.startsWith('responses.') ? ajv.getSchema(operation)! : checkerOf(operation as OperationId);
  const body = JSON.parse(res.text);
  const valid = check(body);
  expect(valid ? [] : check.errors, `${operation} answered ${res.text}`).toEqual([]);
  return body;
}

describe('answers match their response schemas', () => {
  let server: TestServer;
  let discount: number;
  let game: number;
  const customer = { id: 500, code: 'C500', name: 'Ana', surname_1: 'Ruiz', registration_location_id: 1, country: 'ES', email: 'ana@example.com', birth: '1990-01-02' };
  const cart = (id: number) => ({
    id, customer_id: 500, location_id: 1, creation_date: '2026-01-01T10:00:00Z', total: 29.9, coupons_desired: 'all',
    lines: [{ order: 1, product_id: 9, total: 29.9, quantity: 1 }],
  });

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    expect((await c.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    expect((await c.post('/locations', { id: 1, code: 'BCN', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    expect((await c.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } })).status).toBe(200);
    const created = await c.post('/discounts', {
      rule_params: {
        name: 'Ten off', select_customers: 'targeted', available_from: '2026-01-01T00:00:00Z', available_to: '2030-12-31T23:59:59Z',
        rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
      },
      coupon_params: { name: 'Gift', static_code: 'GIFT' },
    });
    discount = expectMatches(created, 'discounts.create').id;
    game = (await c.post('/games', {
      rule_params: { name: 'Wheel', select_customers: 'loyalty' },
      game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 }] },
    })).body.id;
  });
  afterAll(() => server.dispose());

  it('customers: create, read, search, list', async () => {
    const c = server.client;
    expectMatches(await c.post('/customers', customer), 'customers.create');
    const read = expectMatches(await c.get('/customers/500', { query: { search_param: 'id' } }), 'customers.get');
    expect(read).toMatchObject({ id: 500, code: 'C500', status: 'active', merged: false });
    expectMatches(await c.post('/customers/search', { code: 'C500' }), 'customers.search');
    expectMatches(await c.get('/customers', { query: { ids: '500' } }), 'customers.list');
  });

  it('an int64 id above 2^53 is an integer in the answer', async () => {
    const big = '9223372036854775807';
    expectMatches(await server.client.post('/customers', `{"id": ${big}, "name": "Max", "registration_location_id": 1}`), 'customers.create');
    const read = await server.client.get(`/customers/${big}`, { query: { search_param: 'id' } });
    expectMatches(read, 'customers.get');
    expect(read.text).toContain(`"id":${big}`);
  });

  it('campaigns: read and list', async () => {
    const read = expectMatches(await server.client.get(`/discounts/${discount}`), 'discounts.get');
    expect(read.available_from).toBe('2026-01-01T00:00:00Z');
    expectMatches(await server.client.get('/discounts'), 'discounts.list');
    expectMatches(await server.client.get('/points'), 'points.list');
  });

  it('vouchers: issue, read, list', async () => {
    const c = server.client;
    expectMatches(await c.post('/discounts/trigger', { customer_id: 500, loyalty_rule_id: discount, external_voucher_code: 'MYCODE1' }), 'discounts.trigger');
    expectMatches(await c.get('/vouchers/MYCODE1'), 'vouchers.get');
    expectMatches(await c.get('/vouchers', { query: { customer_id: '500' } }), 'vouchers.list');
  });

  it('carts: simulate, realtime, read, list; the cart response carries discount and points effects', async () => {
    const c = server.client;
    const simulated = expectMatches(await c.post('/carts/simulate', cart(77)), 'carts.simulate');
    expect(simulated.effects.map((e: { type: string }) => e.type).sort()).toEqual(['discount', 'points']);
    expect(Array.isArray(simulated.customer)).toBe(true);
    expectMatches(await c.post('/carts/realtime', cart(77)), 'carts.realtime');
    const read = expectMatches(await c.get('/carts/77'), 'carts.get');
    expect(Array.isArray(read.customer)).toBe(false);
    expectMatches(await c.get('/carts', { query: { customer_id: '500' } }), 'carts.list');
  });

  it('points: balance, transactions, redeem', async () => {
    const c = server.client;
    const balance = expectMatches(await c.get('/customers/500/points'), 'points.balance');
    expect(balance.score).toBeGreaterThan(0);
    expectMatches(await c.get('/points/transactions', { query: { customer_id: '500' } }), 'points.transactions');
    expectMatches(await c.post('/points/redeem', { customer_id: 500, amount: 5, comments: 'contract test' }), 'points.redeem');
  });

  it('games: read, list, play', async () => {
    const c = server.client;
    expectMatches(await c.get(`/games/${game}`), 'games.get');
    expectMatches(await c.get('/games'), 'games.list');
    const played = expectMatches(await c.post(`/games/${game}/play`, { customer_id: 500 }), 'games.play');
    expect(played.effects[0].game_info.status).toBe('won');
  });

  it('rewards: read, list, redeem', async () => {
    const c = server.client;
    const reward = (await c.post('/rewards', { name: 'Tote bag', points: 5, type: 'physical', total_stock: 3 })).body.id;
    const read = expectMatches(await c.get(`/rewards/${reward}`, { query: { customer_id: '500' } }), 'rewards.get');
    expect(read.can_redeem).toBe(true);
    expectMatches(await c.get('/rewards'), 'rewards.list');
    const redeemed = expectMatches(await c.post(`/rewards/${reward}/redeem`, { customer_id: 500, location_id: 1 }), 'rewards.redeem');
    const [transaction] = expectMatches(await c.get('/rewards/transactions', { query: { customer_id: '500' } }), 'rewards.transactions').data;
    expect(transaction.id).toBe(redeemed.redemption_id);
    expectMatches(await c.post(`/rewards/transactions/${redeemed.redemption_id}/rollback`, { status_detail: 'returned' }), 'rewards.rollback');
  });

  it('triggers and custom events', async () => {
    const c = server.client;
    const welcome = (await c.post('/points', { rule_params: { name: 'Welcome', when: 'welcome', rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] } })).body.id;
    const granted = expectMatches(await c.post('/trigger', { trigger: 'welcome', customer_id: 500, loyalty_rule_id: welcome }), 'triggers.trigger');
    expect(granted.score).toBe(100);
    expect((await c.post('/custom_event_definitions', { slug: 'review', schema: { type: 'object', properties: { stars: { type: 'integer' } } } })).status).toBe(200);
    const event = expectMatches(await c.post('/custom_events', { customer_id: 500, slug: 'review', data: { stars: 5 } }), 'custom_events.create');
    expectMatches(await c.get(`/custom_events/${event.id}`), 'custom_events.get');
    expectMatches(await c.get('/custom_events', { query: { customer_id: '500' } }), 'custom_events.list');
  });

  it('associations and points transfers between two customers', async () => {
    const c = server.client;
    expectMatches(await c.post('/customers', { id: 501, name: 'Bea', registration_location_id: 1, country: 'ES' }), 'customers.create');
    expectMatches(await c.post('/associations', { customer_id: 500, associate_customer_id: 501 }), 'associations.create');
    expectMatches(await c.get('/customers/500/associates', { headers: { 'Content-Type': 'application/json' } }), 'associations.list');
    const moved = expectMatches(await c.post('/points/transfer', { score: 10, from_customer_id: 500, to_customer_id: 501, comments: 'gift' }), 'points.transfer');
    expect(moved.score).toBe(10);
    const expiring = (await c.post('/points', {
      rule_params: {
        name: 'Thirty days', when: 'monthly', rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    })).body.id;
    expectMatches(await c.post('/trigger', { trigger: 'monthly', customer_id: 501, loyalty_rule_id: expiring }), 'triggers.trigger');
    const [soon] = expectMatches(await c.get('/customers/501/points_expiring'), 'points.expiring').data;
    expect(soon.score_available).toBe(40);
  });

  it('carts: points and a voucher redeemed on a stored cart, then the cart cancelled', async () => {
    const c = server.client;
    expectMatches(await c.post('/points/redeem_cart', { activity_id: 77, customer_id: 500, amount: 1 }), 'points.redeem_cart');
    await c.post('/discounts/trigger', { customer_id: 500, loyalty_rule_id: discount, external_voucher_code: 'MYCODE2' });
    const redeemed = expectMatches(await c.post('/discounts/redeem', { voucher_code: 'MYCODE2', customer_id: 500, cart_id: 77, discount: 150 }), 'discounts.redeem');
    expect(redeemed).toMatchObject({ rule_id: discount, effect_type: 'external_redeem' });
    const cancelled = expectMatches(await c.post('/carts/cancellation', { cart_to_cancel_id: 77, new_cart_id: 7701 }), 'carts.cancellation');
    expect(cancelled.total).toBeLessThan(0);
  });

  it('errors: {error, code} for 400 and 404, {message: Forbidden} for 403', async () => {
    const c = server.client;
    const missing = expectMatches(await c.get('/customers/999', { query: { search_param: 'id' } }), 'responses.error', 404);
    expect(missing.code).toBe('customer_not_found');
    const invalid = expectMatches(await c.post('/customers', { id: 0, name: 'X', registration_location_id: 1 }), 'responses.error', 400);
    expect(invalid.code).toBe('invalid_request');
    expectMatches(await c.get('/customers/500', { query: { search_param: 'id' }, auth: { key: 'test-key', secret: 'wrong' } }), 'responses.forbidden', 403);
    expectMatches(await c.get('/customers/500', { query: { search_param: 'id' }, auth: null }), 'responses.forbidden', 403);
  });
});
