/**
 * Campaigns and vouchers as the cart evaluation sees them: a campaign created
 * or changed over HTTP applies to the next cart (the version moved), a
 * targeted campaign applies only with its voucher, and a redemption outside
 * a cart consumes the campaign's budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('campaigns in cart evaluation', () => {
  let server: TestServer;
  const cart = (extra: Record<string, unknown> = {}) => cartBody(2.99, extra);
  const simulate = async (body: Record<string, unknown>) => {
    const res = await server.client.post('/carts/simulate', body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startServer();
    const customer = await server.client.post('/customers', { id: 1, code: 'C1', name: 'Ana', registration_location_id: 1 });
    expect(customer.status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('a points campaign at 10 per unit gives 29 points for 2.99, and a change applies to the next cart', async () => {
    const { body } = await server.client.post('/points', {
      rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] },
    });
    expect((await simulate(cart({ customer_id: 1 }))).score).toBe(29);
    await server.client.patch(`/points/${body.id}`, { rule_params: { rule_effects: [{ type: 'ratio', value: 20, distribution: 'individual_items' }] } });
    expect((await simulate(cart({ customer_id: 1 }))).score).toBe(59);
    await server.client.patch(`/points/${body.id}`, { rule_params: { active: false } });
    expect((await simulate(cart({ customer_id: 1 }))).score).toBe(0);
  });

  it('chance_to_accrue_limit per chance_to_accrue_period limits a customer as once_limit does; a pair that contradicts once is refused', async () => {
    const { body } = await server.client.post('/points', {
      rule_params: { name: 'Twice a customer', chance_to_accrue_period: 'always', chance_to_accrue_limit: 2, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] },
    });
    const earned = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.client.post('/carts/realtime', cart({ customer_id: 1, id: 800_000 + i }));
      expect(res.status, res.text).toBe(200);
      earned.push(res.body.effects.filter((e: { rule_id: number }) => e.rule_id === body.id).length);
    }
    expect(earned).toEqual([1, 1, 0]);
    expect((await server.client.get(`/points/${body.id}`)).body).toMatchObject({ chances_to_accrue_period: 'always', chances_to_accrue_limit: 2 });
    const contradicting = await server.client.post('/points', {
      rule_params: { name: 'Both', once: 'num_day', once_limit: 1, chance_to_accrue_period: 'num_day', chance_to_accrue_limit: 3, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] },
    });
    expect([contradicting.status, contradicting.body.error.startsWith('rule_params.chance_to_accrue_limit')]).toEqual([400, true]);
    await server.client.patch(`/points/${body.id}`, { rule_params: { active: false } });
  });

  it('a targeted discount applies only with the voucher issued to the customer', async () => {
    const { body } = await server.client.post('/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Gift coupon' },
    });
    const before = await simulate(cart({ customer_id: 1, coupons_desired: 'all' }));
    expect(before.effects.filter((e: { rule_id: number }) => e.rule_id === body.id)).toEqual([]);
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: body.id, external_voucher_code: 'GIFT-1' });
    expect(issued.status).toBe(200);
    const after = await simulate(cart({ customer_id: 1, coupons_desired: 'all' }));
    const effect = after.effects.find((e: { rule_id: number }) => e.rule_id === body.id);
    expect(effect).toMatchObject({ type: 'discount', coupon_info: { voucher_code: 'GIFT-1', coupon_name: 'Gift coupon' } });
    await server.client.patch(`/discounts/${body.id}`, { coupon_params: { active: false } });
    const inactive = await simulate(cart({ customer_id: 1, coupons_desired: 'all' }));
    expect(inactive.effects.filter((e: { rule_id: number }) => e.rule_id === body.id)).toEqual([]);
  });

  it('a redemption outside a cart consumes the campaign budget', async () => {
    const { body } = await server.client.post('/discounts', {
      rule_params: {
        name: 'Budgeted', budget_value: 10, budget_period: 'always',
        rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }],
      },
      coupon_params: { static_code: 'BUDGET' },
    });
    const applied = await simulate(cart());
    expect(applied.effects.some((e: { rule_id: number }) => e.rule_id === body.id)).toBe(true);
    const redeemed = await server.client.post('/discounts/redeem', { static_code: 'BUDGET', customer_id: 1, cart_code: 'EXT-1', discount: 1000 });
    expect(redeemed.status).toBe(200);
    await server.client.patch(`/discounts/${body.id}`, { coupon_params: { active: false } });
    const withoutCoupon = await simulate(cart({ coupons_desired: ['BUDGET'] }));
    expect(withoutCoupon.invalid_coupons).toEqual(['BUDGET']);
    const exhausted = await simulate(cart());
    expect(exhausted.effects.some((e: { rule_id: number }) => e.rule_id === body.id)).toBe(false);
    expect(exhausted.rejected_campaigns).toContainEqual(expect.objectContaining({ rule_id: body.id, error: expect.stringMatching(/^budget/) }));
  });
});
