/**
 * A back office pauses a campaign, or its coupon, or ends it, while customers
 * hold its vouchers (docs/coupons-vouchers.md, Statuses): the vouchers read
 * `inactive` (`expired`, `pending`), the status filter finds them so, a
 * validation or a redemption is refused naming the campaign as carts refuse
 * it, and everything is as before once it is active again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('vouchers of a paused campaign or coupon', () => {
  let server: TestServer;
  let campaignId: number;
  let couponId: number;

  beforeAll(async () => {
    server = await startServer();
    await server.client.post('/customers', { id: 1, code: 'C1', name: 'Ana', registration_location_id: 1 });
    const created = await server.client.post('/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 3, distribution: 'total' }] },
      coupon_params: { static_code: 'PAUSE', name: 'Gift coupon' },
    });
    expect(created.status, created.text).toBe(200);
    campaignId = created.body.id;
    couponId = (await server.client.get(`/discounts/${campaignId}`)).body.coupon_info.coupon_id;
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: campaignId, external_voucher_code: 'PAUSED-1' });
    expect(issued.status, issued.text).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** The voucher's status in its own read, and in the campaign read by its code (coupon_info.voucher_info): the same. */
  const statusOf = async (code = 'PAUSED-1') => {
    const own = (await server.client.get(`/vouchers/${code}`)).body.status;
    const info = (await server.client.get(`/discounts/${code}`, { query: { search_by: 'voucher_code' } })).body.coupon_info.voucher_info.status;
    expect(info).toBe(own);
    return own;
  };
  const listed = async (status: string) =>
    (await server.client.get('/vouchers', { query: { customer_id: '1', status } })).body.data.map((v: { code: string }) => v.code);
  const expectRefused = async (message: RegExp) => {
    const validated = await server.client.get('/vouchers/PAUSED-1', { query: { validate: 'true' } });
    expect(validated.status).toBe(402);
    expect(validated.body).toEqual({ code: 'voucher_inactive', error: expect.stringMatching(message) });
    const redeemed = await server.client.post('/discounts/redeem', { voucher_code: 'PAUSED-1', customer_id: 1, cart_id: 1, discount: 100 });
    expect(redeemed.status).toBe(402);
    expect(redeemed.body).toEqual({ code: 'voucher_inactive', error: expect.stringMatching(message) });
  };

  it('reads inactive, is listed as inactive, and is refused naming the campaign while the campaign is paused', async () => {
    expect(await statusOf()).toBe('active');
    expect((await server.client.patch(`/discounts/${campaignId}`, { rule_params: { active: false } })).status).toBe(200);
    expect(await statusOf()).toBe('inactive');
    expect(await listed('inactive')).toEqual(['PAUSED-1']);
    expect(await listed('active')).toEqual([]);
    await expectRefused(new RegExp(`voucher PAUSED-1: its campaign ${campaignId} is not active`));

    expect((await server.client.patch(`/discounts/${campaignId}`, { rule_params: { active: true } })).status).toBe(200);
    expect(await statusOf()).toBe('active');
    expect(await listed('active')).toEqual(['PAUSED-1']);
  });

  it('reads inactive and is refused naming the coupon while the coupon is paused', async () => {
    expect((await server.client.patch(`/coupons/${couponId}`, { coupon_params: { active: false } })).status).toBe(200);
    expect(await statusOf()).toBe('inactive');
    await expectRefused(/voucher PAUSED-1: its coupon is not active/);
    expect((await server.client.patch(`/coupons/${couponId}`, { coupon_params: { active: true } })).status).toBe(200);
    expect((await server.client.get('/vouchers/PAUSED-1', { query: { validate: 'true' } })).status).toBe(200);
  });

  it('a voucher not yet available reads pending in the campaign read by its code, as in its own read', async () => {
    const later = await server.client.post('/discounts', {
      rule_params: { name: 'Later', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { available_delay_days: 2 },
    });
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: later.body.id, external_voucher_code: 'LATER-1' });
    expect(issued.status, issued.text).toBe(200);
    expect(await statusOf('LATER-1')).toBe('pending');
  });

  it('a campaign ended (or not started) by its dates: its vouchers read expired (pending) and are refused as carts refuse it; its static code too', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const rule = { select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] };
    const ended = await server.client.post('/discounts', { rule_params: { name: 'Ended', ...rule }, coupon_params: {} });
    await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: ended.body.id, external_voucher_code: 'ENDED-1' });
    // The last day is included (a date is the Company's whole day).
    expect((await server.client.patch(`/discounts/${ended.body.id}`, { rule_params: { available_to: day(0) } })).status).toBe(200);
    expect(await statusOf('ENDED-1')).toBe('active');
    expect((await server.client.patch(`/discounts/${ended.body.id}`, { rule_params: { available_to: day(-1) } })).status).toBe(200);
    expect(await statusOf('ENDED-1')).toBe('expired');
    const validated = await server.client.get('/vouchers/ENDED-1', { query: { validate: 'true' } });
    expect(validated.status).toBe(402);
    expect(validated.body).toEqual({ code: 'voucher_expired', error: `voucher ENDED-1: its campaign ${ended.body.id} ended at ${day(-1)}` });
    const cart = await server.client.post('/carts/simulate', cartBody(10, { customer_id: 1, coupons_desired: ['ENDED-1'] }));
    expect(cart.body.rejected_campaigns).toMatchObject([{ rule_name: 'Ended', error: expect.stringMatching(/ended/) }]);
    const redeemed = await server.client.post('/vouchers/redeem', { codes: ['ENDED-1'], customer_id: 1 });
    expect(redeemed.status).toBe(402);
    expect(redeemed.body.code).toBe('voucher_expired');
    expect((await server.client.post('/discounts/redeem', { voucher_code: 'ENDED-1', customer_id: 1, cart_id: 1, discount: 100 })).body.code).toBe('voucher_expired');
    expect((await server.client.get('/vouchers/ENDED-1')).body.redemptions).toBe(0);

    const open = await server.client.post('/discounts', { rule_params: { name: 'Open ended', available_to: day(-1), rule_effects: rule.rule_effects }, coupon_params: { static_code: 'OPEN-ENDED' } });
    const byCode = await server.client.post('/discounts/redeem', { static_code: 'OPEN-ENDED', customer_id: 1, cart_id: 1, discount: 100 });
    expect(byCode.status).toBe(402);
    expect(byCode.body).toEqual({ code: 'voucher_expired', error: `static_code OPEN-ENDED: its campaign ${open.body.id} ended at ${day(-1)}` });
    expect((await server.client.get('/discounts/transactions', { query: { customer_id: '1' } })).body.data).toEqual([]);

    expect((await server.client.patch(`/discounts/${ended.body.id}`, { rule_params: { available_from: day(1), available_to: null } })).status).toBe(200);
    expect(await statusOf('ENDED-1')).toBe('pending');
    expect((await server.client.get('/vouchers/ENDED-1', { query: { validate: 'true' } })).body.code).toBe('voucher_out_date');
    // Chosen ahead, as a voucher not yet available may be.
    expect((await server.client.post('/vouchers/ENDED-1/select', {})).status).toBe(200);
  });

  it("a weekly or monthly campaign's vouchers and static code are refused, and read pending, on a day it does not run, as carts refuse it", async () => {
    const timezone = (await server.client.get('/company')).body.timezone as string;
    const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
    // Today where the Company is: its weekday (1 = Monday) and day of the month. The checks below take a second, not a midnight.
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'long', day: 'numeric' }).formatToParts(new Date());
    const weekday = WEEKDAYS.indexOf(local.find((part) => part.type === 'weekday')!.value) + 1;
    const monthDay = Number(local.find((part) => part.type === 'day')!.value);
    const otherWeekdays = [1, 2, 3, 4, 5, 6, 7].filter((day) => day !== weekday);
    const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];

    const weekly = await server.client.post('/discounts', {
      rule_params: { name: 'Weekly', select_customers: 'targeted', recurrence_type: 'weekly', recurrence_days: otherWeekdays, rule_effects: effects },
      coupon_params: {},
    });
    expect(weekly.status, weekly.text).toBe(200);
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: weekly.body.id, external_voucher_code: 'WEEKLY-1' });
    expect(issued.status, issued.text).toBe(200);
    const runs = `its campaign ${weekly.body.id} runs only on ${otherWeekdays.map((day) => WEEKDAYS[day - 1]).join(', ')}, not on ${WEEKDAYS[weekday - 1]}`;
    const validated = await server.client.get('/vouchers/WEEKLY-1', { query: { validate: 'true' } });
    expect(validated.status).toBe(402);
    expect(validated.body).toEqual({ code: 'voucher_out_date', error: `voucher WEEKLY-1: ${runs}` });
    expect(await statusOf('WEEKLY-1')).toBe('pending');
    const cart = await server.client.post('/carts/simulate', cartBody(10, { customer_id: 1, coupons_desired: ['WEEKLY-1'] }));
    expect(cart.body.rejected_campaigns).toMatchObject([{ rule_name: 'Weekly', error: expect.stringMatching(/weekday/) }]);
    const redeemed = await server.client.post('/vouchers/redeem', { codes: ['WEEKLY-1'], customer_id: 1 });
    expect(redeemed.status).toBe(402);
    expect(redeemed.body.code).toBe('voucher_out_date');
    const discounted = await server.client.post('/discounts/redeem', { voucher_code: 'WEEKLY-1', customer_id: 1, cart_id: 1, discount: 100 });
    expect(discounted.body).toEqual({ code: 'voucher_out_date', error: `voucher WEEKLY-1: ${runs}` });
    expect((await server.client.get('/vouchers/WEEKLY-1')).body.redemptions).toBe(0);

    // On a day it runs, the voucher is usable again.
    expect((await server.client.patch(`/discounts/${weekly.body.id}`, { rule_params: { recurrence_days: [weekday] } })).status).toBe(200);
    expect(await statusOf('WEEKLY-1')).toBe('active');
    expect((await server.client.get('/vouchers/WEEKLY-1', { query: { validate: 'true' } })).status).toBe(200);

    // A monthly campaign's static code, redeemed without a voucher: the days of the month it runs.
    const otherDays = [1, 2, 31].filter((day) => day !== monthDay).slice(0, 2);
    const monthly = await server.client.post('/discounts', {
      rule_params: { name: 'Monthly', recurrence_type: 'monthly', recurrence_days: otherDays, rule_effects: effects },
      coupon_params: { static_code: 'MONTHLY' },
    });
    expect(monthly.status, monthly.text).toBe(200);
    const byCode = await server.client.post('/discounts/redeem', { static_code: 'MONTHLY', customer_id: 1, cart_id: 1, discount: 100 });
    expect(byCode.status).toBe(402);
    expect(byCode.body).toEqual({
      code: 'voucher_out_date',
      error: `static_code MONTHLY: its campaign ${monthly.body.id} runs only on days ${otherDays.join(', ')} of the month, not on day ${monthDay}`,
    });
    // Daily runs every day.
    expect((await server.client.patch(`/discounts/${monthly.body.id}`, { rule_params: { recurrence_type: 'daily', recurrence_days: null } })).status).toBe(200);
    expect((await server.client.post('/discounts/redeem', { static_code: 'MONTHLY', customer_id: 1, cart_id: 1, discount: 100 })).status).toBe(200);
  });
});
