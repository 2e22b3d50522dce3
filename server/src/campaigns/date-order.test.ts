/**
 * A campaign's available_to (and a coupon's available_to and print_to, a points
 * campaign's expiration_date) may not come before its from (activation_date):
 * such a campaign would run (its points be valid) at no instant. A date
 * against a datetime is compared in the Company timezone (docs/campaigns.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const INVERTED = { available_from: '2026-12-01', available_to: '2026-11-30' };
const bodies: Record<string, (params: Record<string, unknown>) => Record<string, unknown>> = {
  '/discounts': (params) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }], ...params } }),
  '/points': (params) => ({ rule_params: { name: 'Points', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }], ...params } }),
  '/games': (params) => ({ rule_params: { name: 'Wheel', ...params }, game: { type: 'wheel', game_prizes: [] } }),
  '/instant_wins': (params) => ({ rule_params: { name: 'Scratch', ...params }, instant_win: { instant_win_prizes: [] } }),
};

describe('date windows of campaigns and coupons', () => {
  let server: TestServer;
  const count = async (path: string) => (await server.client.get(path, { query: { per_page: '100' } })).body.data.length;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it.each(Object.keys(bodies))('POST %s refuses available_to before available_from, writing nothing', async (path) => {
    const before = await count(path);
    for (const params of [INVERTED, { available_from: '2026-11-30T10:00:00Z', available_to: '2026-11-30T09:00:00Z' }]) {
      const res = await server.client.post(path, bodies[path](params));
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: 'rule_params.available_to: is before rule_params.available_from' });
    }
    expect(await count(path)).toBe(before);
    // One day is a window: from and to the same date.
    expect((await server.client.post(path, bodies[path]({ available_from: '2026-11-30', available_to: '2026-11-30' }))).status).toBe(200);
  });

  it('PATCH refuses a bound that inverts the stored window and keeps it', async () => {
    const id = (await server.client.post('/discounts', bodies['/discounts']({ available_from: '2026-11-01' }))).body.id;
    const res = await server.client.patch(`/discounts/${id}`, { rule_params: { available_to: '2026-10-31T23:00:00Z' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatch(/^rule_params\.available_to: /);
    expect((await server.client.get(`/discounts/${id}`)).body).toMatchObject({ available_from: '2026-11-01', available_to: null });
  });

  it('refuses a points campaign whose expiration_date comes before its activation_date, on create and PATCH', async () => {
    const before = await count('/points');
    const fixed = { activation_period_type: 'fixed', expiration_period_type: 'fixed' };
    const error = { code: 'invalid_request', error: 'rule_params.expiration_date: is before rule_params.activation_date' };
    const inverted = await server.client.post('/points', bodies['/points']({ ...fixed, activation_date: '2026-12-01', expiration_date: '2026-11-30' }));
    expect(inverted.body).toEqual(error);
    expect(await count('/points')).toBe(before);
    const id = (await server.client.post('/points', bodies['/points']({ ...fixed, activation_date: '2026-12-01', expiration_date: '2026-12-01' }))).body.id;
    const patched = await server.client.patch(`/points/${id}`, { rule_params: { activation_date: '2026-12-02' } });
    expect(patched.body).toEqual(error);
    expect((await server.client.get(`/points/${id}`)).body).toMatchObject({ activation_date: '2026-12-01', expiration_date: '2026-12-01' });
  });

  it('refuses a coupon whose available_to or print_to comes before its from (campaign or POST /coupons)', async () => {
    const bare = (await server.client.post('/discounts', bodies['/discounts']({}))).body.id;
    const cases: [string, Record<string, unknown>][] = [
      ['available', { static_code: 'LATE1', ...INVERTED }],
      ['print', { static_code: 'LATE2', print_from: '2026-12-01', print_to: '2026-11-30' }],
    ];
    for (const [prefix, coupon] of cases) {
      const error = `coupon_params.${prefix}_to: is before coupon_params.${prefix}_from`;
      const onCampaign = await server.client.post('/discounts', { ...bodies['/discounts']({ coupon_required: true }), coupon_params: coupon });
      expect(onCampaign.body, JSON.stringify(coupon)).toEqual({ code: 'invalid_request', error });
      const onCoupon = await server.client.post('/coupons', { loyalty_rule_id: bare, coupon_params: coupon });
      expect(onCoupon.body, JSON.stringify(coupon)).toEqual({ code: 'invalid_request', error });
    }
    expect((await server.client.get(`/discounts/${bare}`)).body.coupon_info).toBeNull();
  });

  it('compares a date with a datetime in the Company timezone', async () => {
    // 2026-11-29T23:30Z is already the 30th in Madrid, not in UTC.
    const params = { available_from: '2026-11-30', available_to: '2026-11-29T23:30:00Z' };
    expect((await server.client.post('/discounts', bodies['/discounts'](params))).status).toBe(400);
    expect((await server.client.patch('/company', { timezone: 'Europe/Madrid' })).status).toBe(200);
    try {
      const res = await server.client.post('/discounts', bodies['/discounts'](params));
      expect(res.status, res.text).toBe(200);
    } finally {
      await server.client.patch('/company', { timezone: 'UTC' });
    }
  });
});
