/**
 * Checkout as a till or a web shop runs it, over HTTP: the same cart simulated
 * then confirmed in realtime with each coupons_desired form, targeted vouchers
 * issued by POST /discounts/trigger, vouchers the customer holds but cannot use,
 * and points spent with cashback_score_desired, the simulation's recommended
 * cashbacks sent back at checkout (docs/carts.md, docs/evaluation.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { endingSoon, passed } from '../vouchers/testing.js';

const created = () => new Date().toISOString().slice(0, 19) + 'Z';

describe('checkout at a till and in a web shop', () => {
  let server: TestServer;
  let targeted: number;
  let nextCustomer = 700;
  let nextCart = 7000;

  const newCustomer = async () => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, code: `C${id}`, name: 'Ann', registration_location_id: 1, country: 'ES' });
    expect(res.status, res.text).toBe(200);
    return id;
  };
  const issue = async (customer: number, code: string, extra: Record<string, unknown> = {}) => {
    const res = await server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: code, ...extra });
    expect(res.status, res.text).toBe(200);
  };
  /** Two lines, 10 and 20 (two units). */
  const cart = (customer: number, extra: Record<string, unknown> = {}) => ({
    creation_date: created(),
    total: 30,
    customer_id: customer,
    lines: [{ order: 1, product_id: 100, total: 10, quantity: 1 }, { order: 2, product_id: 101, total: 20, quantity: 2 }],
    ...extra,
  });
  /** Simulates, then sends the same cart in realtime: both answer the same evaluation. */
  const checkout = async (body: Record<string, unknown>) => {
    const simulated = await server.client.post('/carts/simulate', body);
    expect(simulated.status, simulated.text).toBe(200);
    const id = nextCart++;
    const confirmed = await server.client.post('/carts/realtime', { id, ...body });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ id, ...simulated.body });
    return confirmed.body;
  };
  const voucherCodes = (answer: { effects: { coupon_info?: { voucher_code?: string } }[] }) =>
    answer.effects.map((e) => e.coupon_info?.voucher_code).filter(Boolean);
  const voucher = async (code: string) => (await server.client.get(`/vouchers/${code}`)).body;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    expect((await server.client.post('/points', { rule_params: { name: 'One per unit', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } })).status).toBe(200);
    expect((await server.client.post('/discounts', { rule_params: { name: 'Mass 10%', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] } })).status).toBe(200);
    const res = await server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon', static_code: 'FIVE' },
    });
    expect(res.status, res.text).toBe(200);
    targeted = res.body.id;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it("each coupons_desired form: simulate and realtime agree, and realtime uses the voucher it names", async () => {
    const customer = await newCustomer();
    await issue(customer, 'PLAIN-1');
    await issue(customer, 'PLAIN-2');
    await issue(customer, 'TOP-1', { priority_allocation: true });
    // Omitted or empty: promotions without coupon only (10% of 30).
    for (const extra of [{}, { coupons_desired: [] }]) {
      const answer = await checkout(cart(customer, extra));
      expect(answer).toMatchObject({ total: 27, total_discount_promotion_applied: 3, total_discount_voucher_applied: 0, vouchers: [] });
    }
    // 'all': the voucher of highest priority (priority_allocation) is the one used.
    const all = await checkout(cart(customer, { coupons_desired: 'all' }));
    expect(all).toMatchObject({ total: 22, total_discount_voucher_applied: 5, coupons_desired: 'all' });
    expect(voucherCodes(all)).toEqual(['TOP-1']);
    expect((await voucher('TOP-1')).status).toBe('redeemed');
    // 'selected': nothing selected, no voucher; once PLAIN-2 is selected, that one.
    expect(voucherCodes(await checkout(cart(customer, { coupons_desired: 'selected' })))).toEqual([]);
    expect((await server.client.post('/vouchers/PLAIN-2/select', {})).status).toBe(200);
    expect(voucherCodes(await checkout(cart(customer, { coupons_desired: 'selected' })))).toEqual(['PLAIN-2']);
    // Both names listing different codes: refused at either step, whichever path, nothing used or stored.
    for (const [i, path] of ['/carts/simulate', '/activities/realtime', '/carts'].entries()) {
      const id = 880001 + i;
      const body = cart(customer, { id, vouchers_desired: ['PLAIN-1'], coupons_desired: [] });
      const refused = await server.client.post(path, body);
      expect({ status: refused.status, body: refused.body }, path).toEqual({
        status: 400, body: { code: 'invalid_request', error: 'vouchers_desired: is not coupons_desired (send one of them)' },
      });
      if (path !== '/carts/simulate') expect((await server.client.get(`/carts/${id}`)).status).toBe(404);
    }
    expect((await voucher('PLAIN-1')).status).toBe('active');
    // A list names the voucher; the deprecated vouchers_desired reads the same and is echoed under its own name.
    const listed = await checkout(cart(customer, { vouchers_desired: ['PLAIN-1'] }));
    expect(voucherCodes(listed)).toEqual(['PLAIN-1']);
    expect(listed.vouchers_desired).toEqual(['PLAIN-1']);
    expect(listed).not.toHaveProperty('coupons_desired');
    // Every voucher is used once; the campaign's static code now has no voucher of the customer behind it.
    expect((await voucher('PLAIN-1')).status).toBe('redeemed');
    expect((await voucher('PLAIN-2')).status).toBe('redeemed');
  });

  it('a listed voucher the customer holds but cannot use says why in rejected_campaigns; only unknown codes are invalid_coupons', async () => {
    const customer = await newCustomer();
    await issue(customer, 'USED-UP');
    expect((await server.client.post('/vouchers/redeem', { codes: ['USED-UP'] })).status).toBe(200);
    await issue(customer, 'FROZEN');
    expect((await server.client.post('/vouchers/FROZEN/freeze', {})).status).toBe(200);
    const end = endingSoon();
    const ending = await server.client.post('/discounts', {
      rule_params: { name: 'Ended', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 3, distribution: 'total' }] },
      coupon_params: { name: 'Ended coupon', available_to: end },
    });
    expect(ending.status, ending.text).toBe(200);
    const expired = await server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: ending.body.id, external_voucher_code: 'EXPIRED' });
    expect(expired.status, expired.text).toBe(200);
    await passed(end);
    const other = await newCustomer();
    await issue(other, 'NOT-MINE');

    const body = cart(customer, { coupons_desired: ['USED-UP', 'FROZEN', 'EXPIRED', 'NOT-MINE', 'NOPE'] });
    const answer = await checkout(body);
    // Another customer's voucher is unknown to this one, as POST /vouchers/redeem answers it (voucher_not_found).
    expect(answer.invalid_coupons).toEqual(['NOT-MINE', 'NOPE']);
    const couponInfo = (code: string, extra: Record<string, unknown>) => ({ voucher_id: expect.any(Number), voucher_code: code, static_code: null, ...extra });
    expect(answer.rejected_campaigns).toEqual([
      { rule_id: targeted, rule_name: 'Five off', type: 'discount', error: 'voucher_redeemed: voucher USED-UP: already redeemed', coupon_info: couponInfo('USED-UP', { coupon_id: expect.any(Number), coupon_name: 'Five off coupon', static_code: 'FIVE' }) },
      { rule_id: targeted, rule_name: 'Five off', type: 'discount', error: 'voucher_inactive: voucher FROZEN: frozen until unfrozen', coupon_info: couponInfo('FROZEN', { coupon_id: expect.any(Number), coupon_name: 'Five off coupon', static_code: 'FIVE' }) },
      { rule_id: ending.body.id, rule_name: 'Ended', type: 'discount', error: expect.stringMatching(/^voucher_expired: voucher EXPIRED: expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), coupon_info: couponInfo('EXPIRED', { coupon_id: expect.any(Number), coupon_name: 'Ended coupon' }) },
    ]);
    expect(answer).toMatchObject({ total: 27, total_discount_voucher_applied: 0, vouchers: [] });
    // Nothing was used: the frozen voucher is still frozen, unused.
    expect(await voucher('FROZEN')).toMatchObject({ status: 'frozen', redemptions: 0 });
    // The stored cart keeps what was answered.
    const stored = await server.client.get(`/carts/${answer.id}`);
    expect(stored.body.rejected_campaigns).toEqual(answer.rejected_campaigns);
    expect(stored.body.invalid_coupons).toEqual(['NOT-MINE', 'NOPE']);
  });

  it("cashback_score_desired: the simulation's recommended cashbacks, sent back at checkout, spend the same points; the ledger adds up", async () => {
    const customer = await newCustomer();
    // 1,000 points (10.00 at 0.01 a point).
    await checkout({ creation_date: created(), total: 1000, customer_id: customer, apply_discounts: false, lines: [{ order: 1, product_id: 1, total: 1000, quantity: 1 }] });
    const balance = async () => (await server.client.get(`/customers/${customer}/points`)).body;
    expect((await balance()).score).toBe(1000);

    // -1: as much as the lines allow, 50% of each line's original_total (5.00 and 10.00), in line order; here all 1,000.
    const simulated = await server.client.post('/carts/simulate', cart(customer, { cashback_score_desired: -1 }));
    expect(simulated.body).toMatchObject({
      score_used: 1000, score_used_as_money: 10, total: 17,
      cashbacks: [{ line_order: 1, score: 500, discount: 5 }, { line_order: 2, score: 500, discount: 5 }],
    });
    // The lines pay 4 and 13 after 10% and the points: 4 points, and 12 on the line of two units (a multiple of its quantity).
    expect(simulated.body.lines.map((l: { total: number }) => l.total)).toEqual([4, 13]);
    expect(simulated.body).toMatchObject({ score: 16, scores: [{ line_order: 1, score: 4 }, { line_order: 2, score: 12 }] });
    expect(simulated.body.customer[0]).toMatchObject({ score: 16, score_available: 16 });

    // The till sends the recommendation back as cashbacks: the same answer, the points spent once.
    const id = nextCart++;
    const confirmed = await server.client.post('/carts/realtime', cart(customer, { id, cashbacks: simulated.body.cashbacks }));
    expect(confirmed.status, confirmed.text).toBe(200);
    const { cashback_score_desired: _desired, ...sameEvaluation } = { id, ...simulated.body };
    expect(confirmed.body).toEqual(sameEvaluation);
    expect(await balance()).toMatchObject({ score: 16, score_available: 16 });

    // More than the balance: the balance is spent, and the read says how much of the wish was not.
    const wish = await checkout(cart(customer, { cashback_score_desired: 5000, apply_discounts: false, apply_points: false }));
    expect(wish).toMatchObject({ score_used: 16, score: 0, total: 29.84, cashbacks: [{ line_order: 1, score: 16, discount: 0.16 }] });
    expect((await server.client.get(`/carts/${wish.id}`)).body).toMatchObject({ cashback_score_desired: 5000, cashback_score_desired_unused: 4984 });
    expect((await balance()).score).toBe(0);
    const transactions = (await server.client.get('/points/transactions', { query: { customer_id: String(customer) } })).body.data as { amount: number }[];
    expect(transactions.reduce((sum, tx) => sum + tx.amount, 0)).toBe(0);
  });
});
