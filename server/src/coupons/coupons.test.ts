/**
 * POST /coupons, PATCH (PUT) /coupons/{id}, DELETE /coupons/{id} over HTTP:
 * a coupon is its campaign's (one per campaign), applies to the next cart,
 * and its deletion turns its vouchers into voucher_deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { openStore } from '../store/env.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { LmdbVoucherStore } from '../vouchers/store.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };
const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];

describe('coupons', () => {
  let server: TestServer;
  let nextCustomer = 100;
  const campaign = async (rule: Record<string, unknown> = {}, coupon?: Record<string, unknown>) => {
    const res = await server.client.post('/discounts', { rule_params: { name: 'Coupon campaign', rule_effects: effects, ...rule }, ...(coupon ? { coupon_params: coupon } : {}) });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const customer = async () => {
    const id = nextCustomer++;
    expect((await server.client.post('/customers', { id, name: 'Ana', registration_location_id: 1 })).status).toBe(200);
    return id;
  };
  const read = async (id: number, language?: string) =>
    (await server.client.get(`/discounts/${id}`, language ? { headers: { 'Accept-Language': language } } : {})).body;
  const simulate = async (body: Record<string, unknown>) => {
    const res = await server.client.post('/carts/simulate', cartBody(10, body));
    expect(res.status, res.text).toBe(200);
    return res.body as { effects: { rule_id: number }[]; invalid_coupons: string[] };
  };

  beforeAll(async () => {
    server = await startServer();
    await server.client.patch('/company', { languages: ['en', 'es'], default_language: 'en' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates a coupon for a campaign without one; its static code applies to the next cart', async () => {
    // A coupon_required campaign is created with its coupon (contract: coupon_params required); deleting it leaves one without.
    const id = await campaign({ coupon_required: true }, { static_code: 'WINTER' });
    expect((await server.client.delete(`/coupons/${(await read(id)).coupon_info.coupon_id}`)).status).toBe(200);
    expect((await simulate({ coupons_desired: ['SPRING'] })).effects.some((e) => e.rule_id === id)).toBe(false);
    const res = await server.client.post('/coupons', {
      loyalty_rule_id: id,
      coupon_params: { static_code: 'SPRING', name: { en: 'Spring', es: 'Primavera' }, max_redemptions: 2 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'success', id: expect.any(Number) });
    const view = await read(id, 'es');
    expect(view.coupon_info).toMatchObject({ coupon_id: res.body.id, static_code: 'SPRING', coupon_name: 'Primavera' });
    expect((await read(id)).coupon_info.coupon_name).toBe('Spring');
    expect((await simulate({ coupons_desired: ['SPRING'] })).effects.some((e) => e.rule_id === id)).toBe(true);
  });

  it('refuses a second coupon, an unknown campaign, a taken static code and unknown fields, writing nothing', async () => {
    const withCoupon = await campaign({}, { static_code: 'TAKEN' });
    const bare = await campaign();
    const cases: [Record<string, unknown>, number, string, RegExp][] = [
      [{ loyalty_rule_id: withCoupon, coupon_params: {} }, 409, 'conflict', /^loyalty_rule_id: campaign \d+ already has coupon/],
      [{ loyalty_rule_id: 987654, coupon_params: {} }, 404, 'campaign_not_found', /^loyalty_rule_id/],
      [{ loyalty_rule_id: bare, coupon_params: { static_code: 'TAKEN' } }, 400, 'invalid_request', /^coupon_params\.static_code: is already used by campaign \d+$/],
      [{ loyalty_rule_id: bare, coupon_params: { colour: 'red' } }, 400, 'invalid_request', /colour/],
      [{ coupon_params: {} }, 400, 'invalid_request', /loyalty_rule_id/],
      [{ loyalty_rule_id: bare }, 400, 'invalid_request', /coupon_params/],
    ];
    for (const [body, status, code, error] of cases) {
      const res = await server.client.post('/coupons', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toMatch(error);
    }
    expect((await read(bare)).coupon_info).toBeNull();
  });

  it('refuses a static code held by a game or an instant win, on POST and PATCH, writing nothing', async () => {
    const gameBody = {
      rule_params: { name: 'Wheel', select_customers: 'loyalty' },
      game: { type: 'wheel', config: {}, template: 'spin', game_prizes: [{ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 }] },
      coupon_params: { static_code: 'GCODE' },
    };
    const game = await server.client.post('/games', gameBody);
    expect(game.status, game.text).toBe(200);
    const instantWin = await server.client.post('/instant_wins', {
      rule_params: { name: 'Scratch', select_customers: 'loyalty' },
      instant_win: { instant_win_prizes: [{ name: 'Nothing', outcome: { promotion_type: '' }, weight: 1, stock: -1 }] },
      coupon_params: { static_code: 'ICODE' },
    });
    expect(instantWin.status, instantWin.text).toBe(200);
    const bare = await campaign();
    const other = await campaign({}, { static_code: 'MINE' });
    const couponId = (await read(other)).coupon_info.coupon_id;
    for (const [code, holder] of [['GCODE', game.body.id], ['ICODE', instantWin.body.id]]) {
      const created = await server.client.post('/coupons', { loyalty_rule_id: bare, coupon_params: { name: 'x', static_code: code } });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ code: 'invalid_request', error: `coupon_params.static_code: is already used by campaign ${holder}` });
      const patched = await server.client.patch(`/coupons/${couponId}`, { coupon_params: { static_code: code } });
      expect(patched.status).toBe(400);
      expect(patched.body.error).toBe(`coupon_params.static_code: is already used by campaign ${holder}`);
    }
    expect((await read(bare)).coupon_info).toBeNull();
    expect((await read(other)).coupon_info.static_code).toBe('MINE');
  });

  it('answers an identical create as the first, and creates the coupon again once it was deleted (A, B, A)', async () => {
    const id = await campaign();
    const body = { loyalty_rule_id: id, coupon_params: { static_code: 'AGAIN' } };
    const first = await server.client.post('/coupons', body);
    expect(first.status, first.text).toBe(200);
    expect((await server.client.post('/coupons', body)).text).toBe(first.text);
    expect((await server.client.delete(`/coupons/${first.body.id}`)).status).toBe(200);
    const again = await server.client.post('/coupons', body);
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    expect((await read(id)).coupon_info).toMatchObject({ coupon_id: again.body.id, static_code: 'AGAIN' });
  });

  it('updates only the coupon fields sent (PATCH or PUT), and answers 404 for an unknown coupon', async () => {
    const id = await campaign({}, { static_code: 'OLD', name: 'Old name', max_redemptions: 3, key: 'k1' });
    const couponId = (await read(id)).coupon_info.coupon_id;
    const patched = await server.client.patch(`/coupons/${couponId}`, { coupon_params: { static_code: 'NEW', name: { en: 'New', es: 'Nuevo' } } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({ status: 'success' });
    expect((await read(id, 'es')).coupon_info).toMatchObject({ coupon_id: couponId, static_code: 'NEW', coupon_name: 'Nuevo', key: 'k1' });
    expect((await server.client.put(`/coupons/${couponId}`, { coupon_params: { key: 'k2' } })).status).toBe(200);
    expect((await read(id)).coupon_info).toMatchObject({ key: 'k2', static_code: 'NEW', coupon_name: 'New' });
    // The old static code is free for another campaign.
    const other = await campaign();
    expect((await server.client.post('/coupons', { loyalty_rule_id: other, coupon_params: { static_code: 'OLD' } })).status).toBe(200);
    const unknown = await server.client.patch('/coupons/987654', { coupon_params: { key: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'id: no coupon 987654', code: 'coupon_not_found' });
  });

  it('deletes a coupon: its vouchers answer voucher_deleted, its static code and id stop working, the targeted campaign stops applying', async () => {
    const id = await campaign({ select_customers: 'targeted' }, { static_code: 'GONE', name: 'Gone soon' });
    const couponId = (await read(id)).coupon_info.coupon_id;
    const holder = await customer();
    await server.client.post('/discounts/trigger', { customer_id: holder, coupon_id: couponId, external_voucher_code: 'GONE-1' });
    expect((await server.client.post('/vouchers/GONE-1/select', {})).status).toBe(200);
    expect((await simulate({ customer_id: holder, coupons_desired: 'all' })).effects.some((e) => e.rule_id === id)).toBe(true);

    const deleted = await server.client.delete(`/coupons/${couponId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'success' });

    expect((await read(id)).coupon_info).toBeNull();
    expect((await simulate({ customer_id: holder, coupons_desired: 'all' })).effects.some((e) => e.rule_id === id)).toBe(false);
    const validate = await server.client.get('/vouchers/GONE-1', { query: { validate: 'true' } });
    expect(validate.status).toBe(402);
    expect(validate.body.code).toBe('voucher_deleted');
    const voucher = (await server.client.get('/vouchers/GONE-1')).body;
    expect(voucher).toMatchObject({ status: 'deleted', selected: false, coupon: { id: couponId, name: 'Gone soon', static_code: 'GONE', deleted: true } });
    const redeemVoucher = await server.client.post('/discounts/redeem', { voucher_code: 'GONE-1', customer_id: holder, cart_id: 1, discount: 100 });
    expect(redeemVoucher.body.code).toBe('voucher_deleted');
    const redeemStatic = await server.client.post('/discounts/redeem', { static_code: 'GONE', customer_id: holder, cart_id: 1, discount: 100 });
    expect(redeemStatic.body.code).toBe('voucher_not_found');
    const trigger = await server.client.post('/discounts/trigger', { customer_id: holder, coupon_id: couponId });
    expect(trigger.status).toBe(404);
    expect(trigger.body.code).toBe('coupon_not_found');
    expect((await server.client.patch(`/coupons/${couponId}`, { coupon_params: { key: 'x' } })).body.code).toBe('coupon_not_found');
    // A new coupon for the campaign gets a new id and the freed static code.
    const again = await server.client.post('/coupons', { loyalty_rule_id: id, coupon_params: { static_code: 'GONE', name: 'Back again' } });
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(couponId);
    // Read by the old voucher, the campaign shows that voucher's own (deleted) coupon, not the new one.
    for (const [value, searchBy] of [['GONE-1', 'voucher_code'], [String(voucher.id), 'voucher_id']]) {
      const byVoucher = await server.client.get(`/discounts/${value}`, { query: { search_by: searchBy } });
      expect(byVoucher.body.coupon_info).toMatchObject({ coupon_id: couponId, coupon_name: 'Gone soon', static_code: 'GONE', voucher_info: expect.objectContaining({ voucher_code: 'GONE-1', status: 'deleted' }) });
    }
    expect((await read(id)).coupon_info).toMatchObject({ coupon_id: again.body.id, coupon_name: 'Back again' });
  });

  it('issues no live voucher of a coupon deleted while triggers waited for their transaction; redemptions answer voucher_deleted', async () => {
    const id = await campaign({ select_customers: 'targeted' }, { static_code: 'RACED', max_redemptions: 5 });
    const couponId = (await read(id)).coupon_info.coupon_id;
    const holder = await customer();
    // One customer and campaign: the triggers queue behind each other (duplicate suppression's target), so most look the coupon up before the delete and write after it.
    const sending = (round: number) => Array.from({ length: 8 }, (_, i) =>
      server.client.post('/discounts/trigger', { customer_id: holder, coupon_id: couponId, external_voucher_code: `RACED-${round}-${i}` }));
    const before = sending(0);
    const deleted = server.client.delete(`/coupons/${couponId}`);
    const answers = await Promise.all([...before, ...sending(1)]);
    expect((await deleted).status).toBe(200);
    for (const res of answers) expect(res.status === 200 ? 'issued' : res.body.code, res.text).toMatch(/^(issued|coupon_not_found)$/);
    expect(answers.some((res) => res.status === 404)).toBe(true);
    const codes = Array.from({ length: 16 }, (_, i) => `RACED-${Math.floor(i / 8)}-${i % 8}`);
    for (const [i, code] of codes.entries()) {
      const voucher = await server.client.get(`/vouchers/${code}`);
      if (answers[i].status !== 200) {
        expect(voucher.status).toBe(404);
        continue;
      }
      expect(voucher.body, code).toMatchObject({ status: 'deleted', coupon: { id: couponId, deleted: true } });
      expect((await server.client.post('/vouchers/redeem', { codes: [code] })).body.code).toBe('voucher_deleted');
      expect((await server.client.post('/discounts/redeem', { voucher_code: code, customer_id: holder, cart_id: 1, discount: 100 })).body.code).toBe('voucher_deleted');
    }
  });

  it('refuses a voucher of a deleted coupon stored active (by a trigger that raced the delete before the fix) as voucher_deleted', async () => {
    const id = await campaign({ select_customers: 'targeted' }, { static_code: 'STALE', max_redemptions: 5 });
    const couponId = (await read(id)).coupon_info.coupon_id;
    const holder = await customer();
    const issued = await server.client.post('/discounts/trigger', { customer_id: holder, coupon_id: couponId, external_voucher_code: 'STALE-1' });
    expect(issued.status).toBe(200);
    expect((await server.client.delete(`/coupons/${couponId}`)).status).toBe(200);
    await server.stop();
    const env = openStore(server.dataDir);
    const vouchers = new LmdbVoucherStore(env);
    await env.transact(() => vouchers.putInTransaction(tenant, { ...vouchers.byCode(tenant, 'STALE-1')!, status: 'active' }));
    await env.close();
    await server.restart();
    // The campaign gets a new coupon with the same static code: the stale voucher is still not usable through it.
    expect((await server.client.post('/coupons', { loyalty_rule_id: id, coupon_params: { static_code: 'STALE' } })).status).toBe(200);
    const refusals = [
      await server.client.get('/vouchers/STALE-1', { query: { validate: 'true' } }),
      await server.client.post('/vouchers/redeem', { codes: ['STALE-1'] }),
      await server.client.post('/discounts/redeem', { voucher_code: 'STALE-1', customer_id: holder, cart_id: 1, discount: 100 }),
      await server.client.post('/discounts/redeem', { static_code: 'STALE', customer_id: holder, cart_id: 1, discount: 100 }),
    ];
    for (const res of refusals) expect([res.status, res.body.code], res.text).toEqual([402, 'voucher_deleted']);
    // Read without validate, and listed, it is what it is: deleted.
    expect((await server.client.get('/vouchers/STALE-1')).body.status).toBe('deleted');
    const listed = await server.client.get('/vouchers', { query: { customer_id: String(holder), status: 'deleted' } });
    expect(listed.body.data.map((v: { code: string }) => v.code)).toContain('STALE-1');
  });

  it('bounds day counts to 36500 (100 years): more is 400 naming the field, on POST /discounts, /points, /coupons and PATCH /coupons', async () => {
    const couponId = (await read(await campaign({}, { name: 'Bounded' }))).coupon_info.coupon_id;
    const bare = await campaign();
    for (const field of ['available_days', 'available_delay_days', 'print_days', 'print_delay_days']) {
      for (const value of [36501, 100000000, 1e300]) {
        const sent = [
          await server.client.post('/discounts', { rule_params: { name: 'h', rule_effects: effects }, coupon_params: { name: 'H', [field]: value } }),
          await server.client.post('/coupons', { loyalty_rule_id: bare, coupon_params: { [field]: value } }),
          await server.client.patch(`/coupons/${couponId}`, { coupon_params: { [field]: value } }),
        ];
        for (const res of sent) {
          expect(res.status, `${field} ${value}`).toBe(400);
          expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(new RegExp(`^coupon_params\\.${field}: must be an integer between 0 and 36500$`)) });
        }
      }
    }
    for (const field of ['activation_delay', 'availability_duration']) {
      const res = await server.client.post('/points', { rule_params: { name: 'p', rule_effects: effects, [field]: 36501 } });
      expect(res.body.error).toMatch(new RegExp(`^rule_params\\.${field}: must be an integer between 0 and 36500$`));
    }
    const reward = await server.client.post('/rewards', { name: 'Mug', points: 100, type: 'physical', validity_duration_type: 'relative', validity_duration_number: 36501, validity_duration_unit_option: 'years' });
    expect(reward.body.error).toMatch(/^validity_duration_number: must be an integer between 1 and 36500$/);
    expect((await read(bare)).coupon_info).toBeNull();
    const hundredYears = await campaign({ select_customers: 'targeted' }, { available_delay_days: 36500, available_days: 36500, printable: true, print_delay_days: 36500, print_days: 36500 });
    const issued = await server.client.post('/discounts/trigger', { customer_id: await customer(), loyalty_rule_id: hundredYears });
    expect(issued.status, issued.text).toBe(200);
  });

  it('ends dates at 9999-12-31T23:59:59Z for day counts stored before they were bounded: issue and reads answer', async () => {
    const id = await campaign({ select_customers: 'targeted' }, { static_code: 'HUGE', printable: true });
    const holder = await customer();
    const before = await server.client.post('/discounts/trigger', { customer_id: holder, loyalty_rule_id: id });
    expect(before.status).toBe(200);
    await server.stop();
    const env = openStore(server.dataDir);
    const campaigns = new LmdbCampaignStore(env);
    await env.transact(() => {
      const stored = campaigns.get(tenant, String(id))!;
      campaigns.putInTransaction(tenant, { ...stored, coupon_params: { ...stored.coupon_params, available_days: 100000000, print_delay_days: 1e300, print_days: 1e300 } }, stored);
    });
    await env.close();
    await server.restart();
    const last = '9999-12-31T23:59:59Z';
    const issued = await server.client.post('/discounts/trigger', { customer_id: holder, loyalty_rule_id: id });
    expect(issued.status, issued.text).toBe(200);
    for (const code of [before.body.voucher_code, issued.body.voucher_code]) {
      const voucher = await server.client.get(`/vouchers/${code}`);
      expect(voucher.status, voucher.text).toBe(200);
      expect(voucher.body).toMatchObject({ print_from: last, print_to: last });
    }
    expect((await server.client.get(`/vouchers/${issued.body.voucher_code}`)).body.available_to).toBe(last);
    const reads = [
      await server.client.get('/vouchers', { query: { customer_id: String(holder) } }),
      await server.client.get('/discounts', { query: { customer_id: String(holder) } }),
      await server.client.get(`/discounts/${issued.body.voucher_code}`, { query: { search_by: 'voucher_code' } }),
    ];
    for (const res of reads) expect(res.status, res.text).toBe(200);
  });

  it('answers 404 coupon_not_found for deleting a coupon that never existed', async () => {
    const res = await server.client.delete('/coupons/987650');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('coupon_not_found');
  });
});
