/**
 * The size caps (docs/http.md, Limits) over HTTP: a cart's lists at 1,000 items, a campaign's rules at 500
 * conditions and its effects at 100. At the cap the request succeeds; one above is 400 naming the field, and
 * nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const CREATED = '2026-11-20T10:00:00Z';
const CAP = 1000;
const many = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));

let nextId = 5000;
/** A realtime cart of `n` lines of 1.00 each. */
function cart(n: number, extra: Record<string, unknown> = {}) {
  return { id: nextId++, creation_date: CREATED, customer_id: 7, total: n, lines: many(n, (i) => ({ order: i + 1, product_id: i + 1, total: 1, quantity: 1 })), ...extra };
}

const leaf = (i: number) => ({ field: 'total', operator: 'gte', value: i });
const rule = (n: number) => ({ conditions: { and: many(n, leaf) } });
const effects = [{ type: 'percentage', value: 10 }];
const discount = (params: Record<string, unknown>) => ({ rule_params: { name: 'Capped', rule_effects: effects, ...params } });

describe('size caps over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    expect((await server.client.post('/customers', { id: 7, name: 'Ann', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/points', { rule_params: { name: 'One per unit', rule_effects: [{ type: 'ratio', value: 1 }] } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it(`a cart of ${CAP} lines, payments and additional costs is evaluated and stored`, async () => {
    const body = cart(CAP, {
      payments: many(CAP, () => ({ amount: 1, type: 'cash' })),
      additional_costs: Object.fromEntries(many(CAP, (i) => [`cost${i}`, 0.01])),
    });
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.score).toBe(CAP);
    expect((await server.client.get(`/carts/${body.id}`)).status).toBe(200);
  });

  it.each([
    ['lines', () => cart(CAP + 1), 'lines: must have at most 1000 items'],
    ['payments', () => cart(1, { payments: many(CAP + 1, () => ({ amount: 0, type: 'cash' })) }), 'payments: must have at most 1000 items'],
    ['returns', () => cart(1, { returns: many(CAP + 1, () => ({ ticket_id: 1, line_order: 1, quantity: 1 })) }), 'returns: must have at most 1000 items'],
    ['promotions', () => cart(1, { promotions: many(CAP + 1, () => ({ promotion_id: 1, discount: 0 })) }), 'promotions: must have at most 1000 items'],
    ['cashbacks', () => cart(1, { cashbacks: many(CAP + 1, () => ({ line_order: 1, score: 1 })) }), 'cashbacks: must have at most 1000 items'],
    ['coupons_desired', () => cart(1, { coupons_desired: many(CAP + 1, (i) => `C${i}`) }), 'coupons_desired: must have at most 1000 items'],
    ['additional_costs', () => cart(1, { additional_costs: Object.fromEntries(many(CAP + 1, (i) => [`cost${i}`, 0])) }), 'additional_costs: must have at most 1000 fields'],
  ])('%s: one above the cap is 400 naming it, on realtime (nothing stored) and simulate', async (_name, build, error) => {
    for (const path of ['/carts/realtime', '/carts/simulate']) {
      const body = build();
      const res = await server.client.post(path, body);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ code: 'invalid_request', error });
      expect((await server.client.get(`/carts/${body.id}`)).status, path).toBe(404);
    }
  });

  it('a campaign of 500 conditions is created; 501 is 400 naming the rule, as an object or a JSON string, and nothing is stored', async () => {
    const listed = async () => (await server.client.get('/discounts', { query: { per_page: '100' } })).body.data.length;
    const atCap = await server.client.post('/discounts', discount({ rule_conditions: rule(250), rule_application: rule(250) }));
    expect(atCap.status, atCap.text).toBe(200);
    const before = await listed();
    for (const rule_conditions of [rule(501), JSON.stringify(rule(501))]) {
      const res = await server.client.post('/discounts', discount({ rule_conditions }));
      expect(res.body).toEqual({ code: 'invalid_request', error: 'rule_params.rule_conditions: must have at most 500 conditions' });
    }
    const across = await server.client.post('/discounts', discount({ rule_conditions: rule(250), rule_application: rule(251) }));
    expect(across.body).toEqual({
      code: 'invalid_request',
      error: 'rule_params.rule_application: must have at most 250 conditions (500 with the 250 conditions of rule_params.rule_conditions)',
    });
    expect(await listed()).toBe(before);
  });

  it('an update past the cap is refused and the campaign keeps its rules', async () => {
    const created = await server.client.post('/discounts', discount({ rule_conditions: rule(2) }));
    const id = created.body.id;
    const res = await server.client.patch(`/discounts/${id}`, { rule_params: { rule_application: rule(499) } });
    expect(res.body).toEqual({
      code: 'invalid_request',
      error: 'rule_params.rule_application: must have at most 498 conditions (500 with the 2 conditions of rule_params.rule_conditions)',
    });
    const read = (await server.client.get(`/discounts/${id}`)).body;
    expect(read.rule_conditions).toBe(JSON.stringify(rule(2)));
    expect(read.rule_application).toBeNull();
  });

  it('a campaign of 100 effects is created; 101 is 400 naming rule_effects', async () => {
    expect((await server.client.post('/discounts', discount({ rule_effects: many(100, () => effects[0]) }))).status).toBe(200);
    const res = await server.client.post('/points', { rule_params: { name: 'Too many', rule_effects: JSON.stringify(many(101, () => ({ type: 'ratio', value: 1 }))) } });
    expect(res.body).toEqual({ code: 'invalid_request', error: 'rule_params.rule_effects: must have at most 100 items' });
  });
});
