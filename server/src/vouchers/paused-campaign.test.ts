/**
 * A back office pauses a campaign, or its coupon, while customers hold its
 * vouchers (docs/coupons-vouchers.md, Statuses): the vouchers read
 * `inactive`, the status filter finds them so, a validation names what is
 * paused, and everything is as before once it is active again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
