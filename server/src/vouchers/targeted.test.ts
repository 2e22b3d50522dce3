/**
 * Vouchers of targeted campaigns other than discounts, over HTTP:
 * POST /discounts/trigger delivers a targeted instant win (a voucher of the
 * campaign: its loyalty_rule_history_id) and issues vouchers of targeted
 * points campaigns; carts take part in either only with the voucher. A
 * reward's validity_duration_* sets the end of the voucher process_actions issues.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedResponseAjv } from '../testing/closed-responses.js';
import type { OperationId } from '../http/operations.js';
import { SCHEMA_DOCUMENTS } from '../http/validation.js';
import { RESPONSE_BODIES, responseBodySchema } from '../openapi/bodies.js';
import { balance } from '../points/testing.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const DAY = 86_400_000;
const ajv = closedResponseAjv(SCHEMA_DOCUMENTS.values());

/** The answer (as any client parses it) matches its operation's closed response schema. */
function expectSchema(text: string, operation: OperationId): void {
  const check = ajv.compile(responseBodySchema(RESPONSE_BODIES[operation]!));
  expect(check(JSON.parse(text)) ? [] : check.errors, `${operation} answered ${text}`).toEqual([]);
}

interface Effect {
  type: string;
  rule_id: number;
  value: number;
  campaign_history_id?: number;
  coupon_info?: Record<string, unknown>;
}

describe('vouchers of targeted instant wins and points campaigns', () => {
  let server: TestServer;
  let nextCustomer = 7000;
  // Far from the ids the server allocates (a cancellation's mirror cart takes the next free one).
  let nextCart = 1_000_000;

  const newCustomer = async () => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, name: `Customer ${id}`, registration_location_id: 1, country: 'ES' });
    expect(res.status, res.text).toBe(200);
    return id;
  };
  const trigger = (body: Record<string, unknown>) => server.client.post('/discounts/trigger', body);
  /** A realtime cart of 10.00; `coupons` omitted sends no coupons_desired. */
  const cart = async (customerId: number, coupons?: unknown): Promise<Effect[]> => {
    const res = await realtimeCart(server.client, customerId, 10, { id: nextCart++, ...(coupons === undefined ? {} : { coupons_desired: coupons }) });
    expectSchema(res.text, 'carts.realtime');
    return res.body.effects as Effect[];
  };
  const listed = async (customerId: number) =>
    (await server.client.get('/instant_wins', { query: { customer_id: String(customerId), per_page: '100' } })).body.data as { id: number; loyalty_rule_history_id?: number }[];

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  describe('a targeted instant win delivered by POST /discounts/trigger', () => {
    let instantWin: number;
    let historyId: number;
    /** What the prizes deliver: a prize is won only with an outcome (without one it is the contract's "no prize"). */
    let outcome: { promotion_type: 'points'; promotion_id: number };
    const played = (effects: Effect[]) => effects.filter((e) => e.type === 'instant_win' && e.rule_id === instantWin);

    beforeAll(async () => {
      const points = await server.client.post('/points', { rule_params: { name: 'Prize point', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
      outcome = { promotion_type: 'points', promotion_id: points.body.id };
      const res = await server.client.post('/instant_wins', {
        rule_params: { name: 'Targeted scratch', select_customers: 'targeted' },
        instant_win: { instant_win_prizes: [{ name: 'Mug', outcome, weight: 1, stock: -1 }] },
      });
      expect(res.status, res.text).toBe(200);
      instantWin = res.body.id;
      historyId = (await server.client.get(`/instant_wins/${instantWin}`)).body.campaign_history_id;
    });

    it('is played only by a cart that holds its voucher and names it (coupons_desired all or the code), once per delivery', async () => {
      const customer = await newCustomer();
      expect(played(await cart(customer, 'all'))).toEqual([]);
      expect(await listed(customer)).not.toContainEqual(expect.objectContaining({ id: instantWin }));
      // The single read with the customer agrees with the list: it answered 200, "can this customer play?" yes.
      const single = (value: number, query: Record<string, string> = {}) => server.client.get(`/instant_wins/${value}`, { query: { customer_id: String(customer), ...query } });
      expect((await single(instantWin)).body).toEqual({ code: 'instant_win_not_found', error: `id: instant win ${instantWin} is targeted, and customer ${customer} holds no usable delivery of it` });

      const issued = await trigger({ customer_id: customer, loyalty_rule_id: instantWin });
      expect(issued.status, issued.text).toBe(200);
      expect(issued.body).toEqual({ status: 'success', voucher_id: expect.any(Number), voucher_code: expect.stringMatching(/^[A-Z2-9]{12}$/) });
      const { voucher_id: voucherId, voucher_code: code } = issued.body;
      expect(await listed(customer)).toContainEqual(expect.objectContaining({ id: instantWin, loyalty_rule_history_id: voucherId }));
      expectSchema((await server.client.get('/instant_wins', { query: { customer_id: String(customer) } })).text, 'instant_wins.list');
      const byDelivery = await server.client.get(`/instant_wins/${voucherId}`, { query: { search_by: 'loyalty_rule_history_id' } });
      expect(byDelivery.body).toMatchObject({ id: instantWin, loyalty_rule_history_id: voucherId });
      expect((await single(instantWin)).body).toMatchObject({ id: instantWin, loyalty_rule_history_id: voucherId });
      expect((await single(voucherId, { search_by: 'loyalty_rule_history_id' })).body).toMatchObject({ id: instantWin, loyalty_rule_history_id: voucherId });
      // Another customer's delivery is not shown under this one.
      const other = await newCustomer();
      const theirs = await server.client.get(`/instant_wins/${voucherId}`, { query: { search_by: 'loyalty_rule_history_id', customer_id: String(other) } });
      expect([theirs.status, theirs.body.code]).toEqual([404, 'instant_win_not_found']);

      // Without coupons_desired, or naming another code, the voucher is not used.
      expect(played(await cart(customer))).toEqual([]);
      expect(played(await cart(customer, ['NOT-MINE']))).toEqual([]);

      const effects = played(await cart(customer, [code]));
      expect(effects).toEqual([expect.objectContaining({
        select_customers: 'targeted', campaign_history_id: historyId,
        coupon_info: { voucher_id: voucherId, voucher_code: code, coupon_id: null, coupon_name: null, static_code: null }, prize_name: 'Mug',
      })]);
      // One voucher, one participation: it is spent and the delivery is no longer listed.
      expect(played(await cart(customer, 'all'))).toEqual([]);
      expect(await listed(customer)).not.toContainEqual(expect.objectContaining({ id: instantWin }));
      const voucher = await server.client.get(`/vouchers/${code}`);
      expectSchema(voucher.text, 'vouchers.get');
      expect(voucher.body).toMatchObject({ status: 'redeemed', loyalty_rule_id: instantWin, coupon: null, campaign_type: null });
    });

    it('plays with coupons_desired all and not for another customer', async () => {
      const holder = await newCustomer();
      const other = await newCustomer();
      expect((await trigger({ customer_id: holder, loyalty_rule_id: instantWin, external_voucher_code: 'IW-HOLDER' })).status).toBe(200);
      expect(played(await cart(other, 'all'))).toEqual([]);
      expect(played(await cart(other, ['IW-HOLDER']))).toEqual([]);
      expect(played(await cart(holder, 'all'))).toHaveLength(1);
    });

    it('bound to a trigger, is drawn by POST /trigger only for the holder of its voucher, which the trigger spends', async () => {
      const bound = await server.client.post('/instant_wins', {
        rule_params: { name: 'Visit scratch', select_customers: 'targeted', when: 'visit_iw' },
        instant_win: { instant_win_prizes: [{ name: 'Cap', outcome, weight: 1, stock: -1 }] },
      });
      expect(bound.status, bound.text).toBe(200);
      const visit = async (customerId: number) => {
        const res = await server.client.post('/trigger', { trigger: 'visit_iw', customer_id: customerId, country: 'ES' });
        expect(res.status, res.text).toBe(200);
        return (res.body.effects as Effect[]).filter((e) => e.type === 'instant_win' && e.rule_id === bound.body.id);
      };
      const customer = await newCustomer();
      expect(await visit(customer)).toEqual([]);
      const { voucher_id: voucherId, voucher_code: code } = (await trigger({ customer_id: customer, loyalty_rule_id: bound.body.id })).body;
      expect(await visit(customer)).toEqual([expect.objectContaining({ prize_name: 'Cap', coupon_info: { voucher_id: voucherId, voucher_code: code, coupon_id: null, coupon_name: null, static_code: null } })]);
      expect((await server.client.get(`/vouchers/${code}`)).body.status).toBe('redeemed');
      expect(await visit(customer)).toEqual([]);
    });

    it('a cancelled cart gives the participation back: the voucher is active and the delivery listed again', async () => {
      expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
      const customer = await newCustomer();
      const { voucher_id: voucherId, voucher_code: code } = (await trigger({ customer_id: customer, loyalty_rule_id: instantWin })).body;
      const id = 90_000 + customer;
      const played = await server.client.post('/carts/realtime', cartBody(10, { id, customer_id: customer, coupons_desired: [code] }));
      expect(played.body.effects).toContainEqual(expect.objectContaining({ type: 'instant_win', rule_id: instantWin }));
      expect((await server.client.get(`/vouchers/${code}`)).body.status).toBe('redeemed');
      const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: id });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect((await server.client.get(`/vouchers/${code}`)).body).toMatchObject({ status: 'active', redemptions: 0 });
      expect(await listed(customer)).toContainEqual(expect.objectContaining({ id: instantWin, loyalty_rule_history_id: voucherId }));
    });

    it('refuses to deliver a non-targeted instant win, or one by coupon_id', async () => {
      const open = await server.client.post('/instant_wins', {
        rule_params: { name: 'Open scratch', select_customers: 'loyalty' },
        instant_win: { instant_win_prizes: [{ name: 'Pen', weight: 1, stock: -1 }] },
      });
      const customer = await newCustomer();
      const refused = await trigger({ customer_id: customer, loyalty_rule_id: open.body.id });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^loyalty_rule_id: instant win \d+ is not targeted/) });
      const byCoupon = await trigger({ customer_id: customer, coupon_id: instantWin });
      expect(byCoupon.status).toBe(404);
      expect(byCoupon.body.code).toBe('coupon_not_found');
      expect(await listed(customer)).not.toContainEqual(expect.objectContaining({ id: instantWin }));
    });

    it('refuses to deliver an instant win switched off or ended (402), writing nothing', async () => {
      const ended = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const customer = await newCustomer();
      for (const [params, code, error] of [
        [{ active: false }, 'voucher_inactive', (id: number) => `loyalty_rule_id: instant win ${id} is not active`],
        [{ available_to: ended }, 'voucher_expired', (id: number) => `loyalty_rule_id: instant win ${id} ended at ${ended}`],
      ] as const) {
        const created = await server.client.post('/instant_wins', {
          rule_params: { name: 'Dead scratch', select_customers: 'targeted', ...params },
          instant_win: { instant_win_prizes: [{ name: 'Mug', outcome, weight: 1, stock: -1 }] },
        });
        expect(created.status, created.text).toBe(200);
        const refused = await trigger({ customer_id: customer, loyalty_rule_id: created.body.id });
        expect([refused.status, refused.body]).toEqual([402, { code, error: error(created.body.id) }]);
      }
      expect((await server.client.get('/vouchers', { query: { customer_id: String(customer) } })).body.data).toEqual([]);
    });
  });

  describe('a targeted points campaign', () => {
    let campaign: number;
    let couponId: number;
    const granted = (effects: Effect[]) => effects.filter((e) => e.type === 'points' && e.rule_id === campaign);

    beforeAll(async () => {
      const res = await server.client.post('/points', {
        rule_params: { name: 'Targeted fifty', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 50, distribution: 'total' }] },
        coupon_params: { name: 'Fifty points' },
      });
      expect(res.status, res.text).toBe(200);
      campaign = res.body.id;
      couponId = (await server.client.get(`/points/${campaign}`)).body.coupon_info.coupon_id;
    });

    it('issues its voucher by loyalty_rule_id or coupon_id; carts grant its points only with the voucher, once per voucher', async () => {
      const customer = await newCustomer();
      expect(granted(await cart(customer, 'all'))).toEqual([]);
      expect((await balance(server.client, customer)).score).toBe(0);

      const issued = await trigger({ customer_id: customer, loyalty_rule_id: campaign });
      expect(issued.status, issued.text).toBe(200);
      expect(granted(await cart(customer))).toEqual([]);
      expect(granted(await cart(customer, 'all'))).toEqual([expect.objectContaining({ value: 50 })]);
      expect((await balance(server.client, customer)).score).toBe(50);
      expect((await server.client.get(`/vouchers/${issued.body.voucher_code}`)).body.status).toBe('redeemed');
      expect(granted(await cart(customer, 'all'))).toEqual([]);
      expect((await balance(server.client, customer)).score).toBe(50);

      const byCoupon = await trigger({ customer_id: customer, coupon_id: couponId });
      expect(byCoupon.status, byCoupon.text).toBe(200);
      expect(granted(await cart(customer, [byCoupon.body.voucher_code]))).toHaveLength(1);
      expect((await balance(server.client, customer)).score).toBe(100);
    });

    it('is listed by GET /points for the holder, and by selected once the voucher is selected', async () => {
      const customer = await newCustomer();
      const points = async (query: Record<string, string>) =>
        ((await server.client.get('/points', { query: { customer_id: String(customer), per_page: '100', ...query } })).body.data as { id: number }[]).map((c) => c.id);
      expect(await points({})).not.toContain(campaign);
      const { voucher_code: code } = (await trigger({ customer_id: customer, loyalty_rule_id: campaign })).body;
      expect(await points({})).toContain(campaign);
      expect(await points({ selected: 'true' })).not.toContain(campaign);
      expect((await server.client.post(`/vouchers/${code}/select`, { customer_id: customer })).status).toBe(200);
      expect(await points({ selected: 'true' })).toContain(campaign);
    });
  });

  describe('reward validity on the voucher of process_actions', () => {
    let couponId: number;
    let nextRewardCustomer = 7500;
    const voucherOf = async (reward: number, validity: Record<string, unknown>) => {
      const customer = nextRewardCustomer++;
      await customersWithPoints(server.client, [customer], 100);
      expect((await server.client.patch(`/rewards/${reward}`, validity)).status).toBe(200);
      expect((await redeem(server.client, reward, customer, { process_actions: true })).status).toBe(200);
      const vouchers = await server.client.get('/vouchers', { query: { customer_id: String(customer) } });
      expect(vouchers.status, vouchers.text).toBe(200);
      expect(vouchers.body.data).toHaveLength(1);
      return vouchers.body.data[0] as { available_to: string | null; created_at: string };
    };

    beforeAll(async () => {
      const campaign = await server.client.post('/discounts', {
        rule_params: { name: 'Reward coupon', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
        coupon_params: { name: 'One euro off', available_days: 90 },
      });
      couponId = (await server.client.get(`/discounts/${campaign.body.id}`)).body.coupon_info.coupon_id;
    });

    it('relative in days and weeks: available_to is the redemption plus the duration', async () => {
      const reward = await createReward(server.client, { points: 10, type: 'coupon', coupon_id: couponId });
      const days = await voucherOf(reward, { validity_duration_type: 'relative', validity_duration_number: 30, validity_duration_unit_option: 'days' });
      expect(Date.parse(days.available_to!) - Date.parse(days.created_at)).toBe(30 * DAY);
      const weeks = await voucherOf(reward, { validity_duration_type: 'relative', validity_duration_number: 2, validity_duration_unit_option: 'weeks' });
      expect(Date.parse(weeks.available_to!) - Date.parse(weeks.created_at)).toBe(14 * DAY);
    });

    it('relative in months and years: the same day of a later calendar month', async () => {
      const reward = await createReward(server.client, { points: 10, type: 'coupon', coupon_id: couponId });
      const months = await voucherOf(reward, { validity_duration_type: 'relative', validity_duration_number: 13, validity_duration_unit_option: 'months' });
      const years = await voucherOf(reward, { validity_duration_type: 'relative', validity_duration_number: 1, validity_duration_unit_option: 'years' });
      for (const voucher of [months, years]) {
        const from = new Date(voucher.created_at);
        const to = new Date(voucher.available_to!);
        expect(to.getUTCFullYear() * 12 + to.getUTCMonth() - (from.getUTCFullYear() * 12 + from.getUTCMonth())).toBe(voucher === months ? 13 : 12);
        // Every month has a 28th; later days are clamped to the month's last day.
        if (from.getUTCDate() <= 28) expect(to.getUTCDate()).toBe(from.getUTCDate());
        expect(voucher.available_to!.slice(10)).toBe(voucher.created_at.slice(10));
      }
    });

    it('refuses an incomplete validity with 400 naming the missing field', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ validity_duration_type: 'relative', validity_duration_unit_option: 'days' }, /^validity_duration_number: is required/],
        [{ validity_duration_type: 'relative', validity_duration_number: 3 }, /^validity_duration_unit_option: is required/],
        [{ validity_duration_type: 'fixed' }, /^validity_duration_date: is required/],
      ];
      for (const [validity, error] of cases) {
        const res = await server.client.post('/rewards', { name: 'Incomplete', points: 10, type: 'physical', ...validity });
        expect(res.status, JSON.stringify(validity)).toBe(400);
        expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(error) });
      }
    });

    it('fixed: the end of validity_duration_date; none: the coupon\'s own dates', async () => {
      const reward = await createReward(server.client, { points: 10, type: 'coupon', coupon_id: couponId });
      const fixed = await voucherOf(reward, { validity_duration_type: 'fixed', validity_duration_date: '2030-06-30' });
      expect(fixed.available_to).toBe('2030-06-30T23:59:59Z');
      const none = await voucherOf(reward, { validity_duration_type: null, validity_duration_number: null, validity_duration_unit_option: null, validity_duration_date: null });
      expect(Date.parse(none.available_to!) - Date.parse(none.created_at)).toBe(90 * DAY);
    });
  });
});
