/**
 * The voucher operations over HTTP (docs/coupons-vouchers.md): list,
 * selected list, get or validate with every voucher_* code, redeem and roll
 * back a list (all or nothing, max_redemptions never exceeded under
 * concurrency), print, select and deselect (fed to carts' coupons_desired),
 * freeze and unfreeze, excluded products, Accept-Language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { endingSoon, passed } from './testing.js';

const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];
const DAY = 86_400_000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

describe('voucher operations', () => {
  let server: TestServer;
  let gift: number;
  let nextCustomer = 1000;
  let nextCode = 1;

  const newCustomer = async (id = nextCustomer++) => {
    const res = await server.client.post('/customers', { id, code: `C${id}`, name: 'Ana', registration_location_id: 1 });
    expect(res.status, res.text).toBe(200);
    return id;
  };
  const campaign = async (rule: Record<string, unknown>, coupon: Record<string, unknown>) => {
    const res = await server.client.post('/discounts', {
      rule_params: { name: 'Gift campaign', select_customers: 'targeted', rule_effects: effects, ...rule },
      coupon_params: coupon,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  /** Issues a voucher of `campaignId` to `customer`; returns its code. */
  const issue = async (customer: number | bigint, campaignId = gift) => {
    const code = `V${nextCode++}`;
    const res = await server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: campaignId, external_voucher_code: code });
    expect(res.status, res.text).toBe(200);
    return code;
  };
  const voucher = async (code: string) => (await server.client.get(`/vouchers/${code}`)).body;
  const simulate = async (customer: number, coupons: unknown) => {
    const res = await server.client.post('/carts/simulate', cartBody(10, { customer_id: customer, coupons_desired: coupons }));
    expect(res.status, res.text).toBe(200);
    return (res.body.effects as { coupon_info?: { voucher_code?: string } }[]).map((e) => e.coupon_info?.voucher_code).filter(Boolean);
  };
  const expectError = (res: { status: number; body: any }, status: number, code: string, error?: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    if (error) expect(res.body.error).toMatch(error);
  };

  beforeAll(async () => {
    server = await startServer();
    await server.client.patch('/company', { languages: ['en', 'es'], default_language: 'en' });
    gift = await campaign(
      { name: { en: 'Gift', es: 'Regalo' } },
      { name: { en: 'Gift coupon', es: 'Cupón regalo' }, description: 'Five off', static_code: 'GIFT', max_redemptions: 3, printable: true, key: 'gift' },
    );
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('gets a voucher by code with its state, campaign and coupon, in the Accept-Language language', async () => {
    const customer = await newCustomer();
    const code = await issue(customer);
    const res = await server.client.get(`/vouchers/${code}`, { headers: { 'Accept-Language': 'es' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code, status: 'active', selected: false, max_redemptions: 3, redemptions: 0, available_redemptions: 3,
      printable: true, prints: 0, printed_at: null, customer_id: customer, loyalty_rule_id: gift,
      campaign_type: 'discount', campaign_name: 'Regalo',
      coupon: { key: 'gift', name: 'Cupón regalo', description: 'Five off', static_code: 'GIFT', max_redemptions: 3, discount: 1, discount_type: 'direct_value', deleted: false },
    });
    expect((await server.client.get(`/vouchers/${code}`, { headers: { 'Accept-Language': 'fr' } })).body.coupon.name).toBe('Gift coupon');
    expect((await voucher(code)).campaign_name).toBe('Gift');
    expectError(await server.client.get('/vouchers/NOPE'), 404, 'voucher_not_found', /^code: no voucher NOPE/);
    const stranger = await newCustomer();
    expectError(await server.client.get(`/vouchers/${code}`, { query: { customer_id: String(stranger) } }), 404, 'voucher_not_found');
    expectError(await server.client.get(`/vouchers/${code}`, { query: { customer_id: '424242' } }), 404, 'voucher_not_found', /^customer_id/);
    expect((await server.client.get(`/vouchers/${code}`, { query: { customer_code: `C${customer}` } })).status).toBe(200);
  });

  it('names campaigns and coupons in the Accept-Language language in cart answers and redemptions, and stores the default names', async () => {
    const customer = await newCustomer();
    const es = { headers: { 'Accept-Language': 'es' } };
    type Entry = { rule_id: number; rule_name?: string; coupon_info?: { coupon_name?: string }; coupon?: { name: string; description: string } };
    const names = (body: { effects: Entry[]; vouchers: Entry[] }) => {
      const effect = body.effects.find((e) => e.rule_id === gift);
      const voucher = body.vouchers.find((v) => v.rule_id === gift);
      return [effect?.rule_name, effect?.coupon_info?.coupon_name, voucher?.coupon?.name, voucher?.coupon?.description];
    };
    const cart = (extra: Record<string, unknown>) => cartBody(10, { customer_id: customer, ...extra });
    const spanish = ['Regalo', 'Cupón regalo', 'Cupón regalo', 'Five off'];
    const code = await issue(customer);
    expect(names((await server.client.post('/carts/simulate', cart({ coupons_desired: [code] }), es)).body)).toEqual(spanish);
    expect(names((await server.client.post('/carts/simulate', cart({ coupons_desired: [code] }))).body)).toEqual(['Gift', 'Gift coupon', 'Gift coupon', 'Five off']);
    const realtime = await server.client.post('/carts/realtime', cart({ coupons_desired: [code] }), es);
    expect(realtime.status, realtime.text).toBe(200);
    expect(names(realtime.body)).toEqual(spanish);
    // The stored cart is the record every client reads: default names.
    expect(names((await server.client.get(`/carts/${realtime.body.id}`)).body)[0]).toBe('Gift');
    const redeem = (voucher_code: string, options = {}) =>
      server.client.post('/discounts/redeem', { voucher_code, customer_id: customer, cart_id: 1, discount: 100 }, options);
    const redeemed = await redeem(await issue(customer), es);
    expect(redeemed.status, redeemed.text).toBe(200);
    expect([redeemed.body.rule_name, redeemed.body.coupon_info.coupon_name]).toEqual(['Regalo', 'Cupón regalo']);
    const plain = (await redeem(await issue(customer))).body;
    expect([plain.rule_name, plain.coupon_info.coupon_name]).toEqual(['Gift', 'Gift coupon']);
  });

  it('validates a voucher with each voucher error code, and answers it as usable otherwise', async () => {
    const customer = await newCustomer();
    const validate = (code: string, query: Record<string, string> = {}) =>
      server.client.get(`/vouchers/${code}`, { query: { validate: 'true', ...query } });
    const usable = await issue(customer);
    expect((await validate(usable)).body.status).toBe('active');

    const single = await campaign({}, { max_redemptions: 1 });
    const used = await issue(customer, single);
    expect((await server.client.post('/vouchers/redeem', { codes: [used] })).status).toBe(200);
    expectError(await validate(used), 402, 'voucher_redeemed');

    const end = endingSoon();
    const past = await issue(customer, await campaign({}, { available_to: end }));
    await passed(end);
    expectError(await validate(past), 402, 'voucher_expired');
    expect((await voucher(past)).status).toBe('expired');

    const later = await issue(customer, await campaign({}, { available_delay_days: 3 }));
    expectError(await validate(later), 402, 'voucher_out_date');
    expect((await voucher(later)).status).toBe('pending');

    // Campaigns of their own: an identical create within 5 minutes is answered as the first (common rule 8).
    const offCampaign = await campaign({ name: 'Switched off' }, {});
    const off = await issue(customer, offCampaign);
    await server.client.patch(`/discounts/${offCampaign}`, { coupon_params: { active: false } });
    expectError(await validate(off), 402, 'voucher_inactive');

    const deletedCampaign = await campaign({ name: 'Coupon deleted' }, {});
    const deleted = await issue(customer, deletedCampaign);
    const couponId = (await voucher(deleted)).coupon.id;
    expect((await server.client.delete(`/coupons/${couponId}`)).status).toBe(200);
    expectError(await validate(deleted), 402, 'voucher_deleted');

    const local = await campaign({ rule_conditions: { conditions: { and: [{ field: 'location_id', operator: 'in', values: [10] }] } } }, {});
    const here = await issue(customer, local);
    expectError(await validate(here, { location_id: '11' }), 402, 'voucher_out_location');
    expect((await validate(here, { location_id: '10' })).status).toBe(200);
    expect((await validate(here)).status).toBe(200);

    expectError(await validate('UNKNOWN-CODE'), 404, 'voucher_not_found');
  });

  it('lists a customer\'s vouchers with filters and cursor pagination', async () => {
    const customer = await newCustomer();
    const codes = [await issue(customer), await issue(customer), await issue(customer)];
    const other = await campaign({}, {});
    const otherCode = await issue(customer, other);
    await server.client.post(`/vouchers/${codes[1]}/select`, {});
    await server.client.post(`/vouchers/${codes[2]}/freeze`, {});
    const list = async (query: Record<string, string>) => {
      const res = await server.client.get('/vouchers', { query: { customer_id: String(customer), ...query } });
      expect(res.status, res.text).toBe(200);
      return res.body as { data: { code: string }[]; next_token_starts_after?: string };
    };
    expect((await list({})).data.map((v) => v.code)).toEqual([...codes, otherCode]);
    const first = await list({ per_page: '3' });
    expect(first.data.map((v) => v.code)).toEqual(codes);
    const second = await list({ per_page: '3', starting_after: first.next_token_starts_after! });
    expect(second.data.map((v) => v.code)).toEqual([otherCode]);
    expect(second.next_token_starts_after).toBeUndefined();
    expect((await list({ selected: 'true' })).data.map((v) => v.code)).toEqual([codes[1]]);
    expect((await list({ status: 'frozen' })).data.map((v) => v.code)).toEqual([codes[2]]);
    expect((await list({ status: 'active,frozen', loyalty_rule_id: String(gift) })).data.map((v) => v.code)).toEqual(codes);
    expect((await list({ loyalty_rule_id: String(other) })).data.map((v) => v.code)).toEqual([otherCode]);
    expect((await list({ campaign_type: 'points' })).data).toEqual([]);
    const byCode = await server.client.get('/vouchers', { query: { customer_code: `C${customer}`, per_page: '1' } });
    expect(byCode.body.data.map((v: { code: string }) => v.code)).toEqual([codes[0]]);
    expectError(await server.client.get('/vouchers'), 400, 'invalid_request', /^customer_id: is required/);
    expectError(await server.client.get('/vouchers', { query: { customer_id: '424242' } }), 404, 'voucher_not_found');
    const lost = await server.client.get('/vouchers', { query: { customer_id: String(customer), status: 'lost' } });
    expectError(lost, 400, 'invalid_request', /^status: lost/);
  });

  it('redeems a list all or nothing: one failing voucher leaves every voucher of the list unused', async () => {
    const customer = await newCustomer();
    const [a, b] = [await issue(customer), await issue(customer)];
    const single = await issue(customer, await campaign({}, { max_redemptions: 1 }));
    await server.client.post('/vouchers/redeem', { codes: [single] });
    const failed = await server.client.post('/vouchers/redeem', { codes: [a, single, b], customer_id: customer });
    expectError(failed, 402, 'voucher_redeemed', new RegExp(`^codes\\[1\\]: voucher ${single}: already redeemed`));
    expect((await voucher(a)).redemptions).toBe(0);
    expect((await voucher(b)).redemptions).toBe(0);
    const wrongOwner = await server.client.post('/vouchers/redeem', { codes: [a, 'NOT-THERE'] });
    expectError(wrongOwner, 404, 'voucher_not_found', /^codes\[1\]/);
    expect((await voucher(a)).redemptions).toBe(0);

    const ok = await server.client.post('/vouchers/redeem', { codes: [a, b], customer_code: `C${customer}` });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('success');
    expect(ok.body.vouchers.map((v: { code: string; redemptions: number }) => [v.code, v.redemptions])).toEqual([[a, 1], [b, 1]]);
    const stranger = await newCustomer();
    expectError(await server.client.post('/vouchers/redeem', { codes: [a], customer_id: stranger }), 404, 'voucher_not_found');
    expectError(await server.client.post('/vouchers/redeem', { codes: [] }), 400, 'invalid_request', /codes/);
    expectError(await server.client.post('/vouchers/redeem', { codes: [a, a] }), 400, 'invalid_request', /codes/);
  });

  it('stops at max_redemptions, then rolls a list back (redeemed becomes active again)', async () => {
    const customer = await newCustomer();
    const code = await issue(customer);
    for (let i = 1; i <= 3; i++) expect((await server.client.post('/vouchers/redeem', { codes: [code] })).status).toBe(200);
    expect(await voucher(code)).toMatchObject({ status: 'redeemed', redemptions: 3, available_redemptions: 0 });
    expectError(await server.client.post('/vouchers/redeem', { codes: [code] }), 402, 'voucher_redeemed');

    const fresh = await issue(customer);
    const noRedemption = await server.client.post('/vouchers/rollback', { codes: [code, fresh] });
    expectError(noRedemption, 400, 'invalid_request', new RegExp(`^codes\\[1\\]: voucher ${fresh}: has no redemption`));
    expect((await voucher(code)).redemptions).toBe(3);

    const rolled = await server.client.post('/vouchers/rollback', { codes: [code], customer_id: customer });
    expect(rolled.status, rolled.text).toBe(200);
    expect(rolled.body.vouchers[0]).toMatchObject({ code, status: 'active', redemptions: 2, available_redemptions: 1 });
    expect((await server.client.post('/vouchers/redeem', { codes: [code] })).status).toBe(200);
  });

  it('never exceeds max_redemptions under concurrent redemptions', async () => {
    const customer = await newCustomer();
    const code = await issue(customer);
    const results = await Promise.all(Array.from({ length: 10 }, () => server.client.post('/vouchers/redeem', { codes: [code] })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 402 && r.body.code === 'voucher_redeemed')).toHaveLength(7);
    expect(await voucher(code)).toMatchObject({ redemptions: 3, status: 'redeemed' });
  });

  it('checks the location of a redemption against the campaign (voucher_out_location)', async () => {
    const customer = await newCustomer();
    expect((await server.client.post('/locations', { id: 20, code: 'BCN', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    const local = await campaign({ rule_conditions: { conditions: { and: [{ field: 'location_code', operator: 'eq', value: 'BCN' }] } } }, { max_redemptions: 5 });
    const code = await issue(customer, local);
    expectError(await server.client.post('/vouchers/redeem', { codes: [code], location_code: 'MAD' }), 402, 'voucher_out_location');
    expect((await voucher(code)).redemptions).toBe(0);
    expect((await server.client.post('/vouchers/redeem', { codes: [code], location_code: 'BCN' })).status).toBe(200);
    // A known location named by id matches the campaign's code.
    expect((await server.client.post('/vouchers/redeem', { codes: [code], location_id: 20 })).status).toBe(200);
    expectError(await server.client.post('/vouchers/redeem', { codes: [code], location_id: 20, location_code: 'BCN' }), 400, 'invalid_request', /^location_code/);

    const validate = (of: string, query: Record<string, string>) => server.client.get(`/vouchers/${of}`, { query: { validate: 'true', ...query } });
    // The location leaves are read as carts read them (and as the lists by location do): an exclusion refuses, by id
    // or code; a location leaf beside another condition in an `or` does not, since a cart there may meet the other.
    const notBcn = await issue(customer, await campaign({ name: 'Not in Barcelona', rule_conditions: { conditions: { and: [{ field: 'location_code', operator: 'not_in', values: ['BCN'] }] } } }, {}));
    expectError(await validate(notBcn, { location_id: '20' }), 402, 'voucher_out_location');
    expect((await validate(notBcn, { location_code: 'MAD' })).status).toBe(200);
    const bcnOrLarge = await issue(customer, await campaign({
      name: 'Barcelona or large carts',
      rule_conditions: { conditions: { or: [{ field: 'location_code', operator: 'eq', value: 'BCN' }, { field: 'total', operator: 'gte', value: 100 }] } },
    }, {}));
    expect((await validate(bcnOrLarge, { location_code: 'MAD' })).status).toBe(200);
  });

  it('prints a list of vouchers of printable coupons (POST or PUT), all or nothing', async () => {
    const customer = await newCustomer();
    const [a, b] = [await issue(customer), await issue(customer)];
    const plain = await issue(customer, await campaign({}, {}));
    expectError(await server.client.post('/vouchers/print', { codes: [a, plain] }), 400, 'invalid_request', /^codes\[1\]: voucher \S+: its coupon is not printable/);
    expect((await voucher(a)).prints).toBe(0);
    const printed = await server.client.post('/vouchers/print', { codes: [a, b] });
    expect(printed.status, printed.text).toBe(200);
    expect(printed.body.vouchers[0]).toMatchObject({ code: a, prints: 1, printed_at: expect.any(String) });
    expect((await server.client.put('/vouchers/print', { codes: [a] })).body.vouchers[0].prints).toBe(2);
    // The window in the refusal, an open end left unsaid (it read "to null").
    for (const coupon of [{ print_to: isoDay(-1) }, { print_from: isoDay(2) }, { print_from: isoDay(2), print_to: isoDay(3) }]) {
      const refused = await issue(customer, await campaign({}, { printable: true, ...coupon }));
      const { print_from: from, print_to: to } = await voucher(refused);
      const window = from === null ? `until ${to}` : to === null ? `from ${from}` : `from ${from} to ${to}`;
      const res = await server.client.post('/vouchers/print', { codes: [refused] });
      expect(res.body).toEqual({ code: 'invalid_request', error: `codes[0]: voucher ${refused}: can be printed ${window}` });
    }
  });

  it('selects and deselects vouchers (one or many); carts with coupons_desired "selected" use only the selected ones', async () => {
    const customer = await newCustomer();
    const [a, b] = [await issue(customer), await issue(customer)];
    expect(await simulate(customer, 'selected')).toEqual([]);
    const selected = await server.client.post(`/vouchers/${a}/select`, { customer_id: customer });
    expect(selected.status, selected.text).toBe(200);
    expect(selected.body).toMatchObject({ status: 'success', voucher: { code: a, selected: true } });
    expect(await simulate(customer, 'selected')).toEqual([a]);
    const listed = await server.client.get(`/customers/${customer}/vouchers/selected`);
    expect(listed.body.data.map((v: { code: string }) => v.code)).toEqual([a]);
    const byCode = await server.client.get(`/customers/C${customer}/vouchers/selected`, { query: { search_param: 'code' } });
    expect(byCode.body.data.map((v: { code: string }) => v.code)).toEqual([a]);

    expect((await server.client.put('/vouchers/select', { codes: [a, b], customer_id: customer })).status).toBe(200);
    expect((await server.client.get(`/customers/${customer}/vouchers/selected`)).body.data).toHaveLength(2);
    expect((await server.client.put('/vouchers/deselect', { codes: [a, b] })).status).toBe(200);
    expect((await server.client.get(`/customers/${customer}/vouchers/selected`)).body.data).toEqual([]);
    expect(await simulate(customer, 'selected')).toEqual([]);
    expect((await server.client.post(`/vouchers/${b}/select`, {})).status).toBe(200);
    expect((await server.client.post(`/vouchers/${b}/deselect`, {})).body.voucher.selected).toBe(false);

    const used = await issue(customer, await campaign({}, { max_redemptions: 1 }));
    await server.client.post('/vouchers/redeem', { codes: [used] });
    const many = await server.client.put('/vouchers/select', { codes: [a, used] });
    expectError(many, 402, 'voucher_redeemed', /^codes\[1\]/);
    expect((await voucher(a)).selected).toBe(false);
    const later = await issue(customer, await campaign({}, { available_delay_days: 2 }));
    expect((await server.client.post(`/vouchers/${later}/select`, {})).body.voucher).toMatchObject({ selected: true, status: 'pending' });
    const stranger = await newCustomer();
    expectError(await server.client.post(`/vouchers/${a}/select`, { customer_id: stranger }), 404, 'voucher_not_found', /^code/);
    expectError(await server.client.get('/customers/424242/vouchers/selected'), 404, 'voucher_not_found');
  });

  it('freezes a voucher out of carts and redemptions until it is unfrozen', async () => {
    const customer = await newCustomer();
    const code = await issue(customer);
    expect(await simulate(customer, 'all')).toContain(code);
    const frozen = await server.client.post(`/vouchers/${code}/freeze`, { customer_code: `C${customer}` });
    expect(frozen.status, frozen.text).toBe(200);
    expect(frozen.body.voucher.status).toBe('frozen');
    expect((await server.client.post(`/vouchers/${code}/freeze`, {})).body.voucher.status).toBe('frozen');
    expect(await simulate(customer, 'all')).not.toContain(code);
    expect(await simulate(customer, [code])).not.toContain(code);
    expectError(await server.client.post('/vouchers/redeem', { codes: [code] }), 402, 'voucher_inactive', /frozen/);
    expectError(await server.client.post('/discounts/redeem', { voucher_code: code, customer_id: customer, cart_id: 1, discount: 100 }), 402, 'voucher_inactive');
    const unfrozen = await server.client.post(`/vouchers/${code}/unfreeze`, {});
    expect(unfrozen.body.voucher.status).toBe('active');
    expect(await simulate(customer, 'all')).toContain(code);
    expect((await server.client.post('/vouchers/redeem', { codes: [code] })).status).toBe(200);

    const used = await issue(customer, await campaign({}, { max_redemptions: 1 }));
    await server.client.post('/vouchers/redeem', { codes: [used] });
    expectError(await server.client.post(`/vouchers/${used}/freeze`, {}), 402, 'voucher_redeemed', /^code: /);
    expectError(await server.client.post('/vouchers/NOPE/unfreeze', {}), 404, 'voucher_not_found');
  });

  it('lists the products and categories a voucher\'s campaign excludes', async () => {
    const customer = await newCustomer();
    const excluding = await campaign(
      {
        rule_conditions: { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'not_in', values: [5, 6] }] }] } },
        rule_application: {
          conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'feature', operator: 'not_in', values: ['family:3'] }, { field: 'product_code', operator: 'neq', value: 'GIFTCARD' }] }] },
        },
      },
      { static_code: 'EXCL' },
    );
    const code = await issue(customer, excluding);
    const expected = {
      loyalty_rule_id: excluding, product_ids: [5, 6], product_codes: ['GIFTCARD'], product_eans: [], categories: [{ taxonomy_slug: 'family', id: 3 }],
    };
    const byCode = await server.client.get('/vouchers/excluded_products', { query: { code } });
    expect(byCode.status, byCode.text).toBe(200);
    expect(byCode.body).toEqual(expected);
    expect((await server.client.get('/vouchers/excluded_products', { query: { static_code: 'EXCL' } })).body).toEqual(expected);
    const couponId = (await voucher(code)).coupon.id;
    expect((await server.client.get('/vouchers/excluded_products', { query: { coupon_id: String(couponId) } })).body).toEqual(expected);
    expect((await server.client.get('/vouchers/excluded_products', { query: { code: await issue(customer) } })).body).toMatchObject({ product_ids: [], categories: [] });
    expectError(await server.client.get('/vouchers/excluded_products'), 400, 'invalid_request', /^code: is required \(or static_code or coupon_id\)$/);
    expectError(await server.client.get('/vouchers/excluded_products', { query: { code: 'A', coupon_id: '1' } }), 400, 'invalid_request', /^coupon_id: cannot be sent with code$/);
    expectError(await server.client.get('/vouchers/excluded_products', { query: { code: 'NOPE' } }), 404, 'voucher_not_found', /^code: no voucher NOPE$/);
    // A static code names a coupon: the answer says so.
    expectError(await server.client.get('/vouchers/excluded_products', { query: { static_code: 'NOPE' } }), 404, 'voucher_not_found', /^static_code: no coupon with static code NOPE$/);
    expectError(await server.client.get('/vouchers/excluded_products', { query: { coupon_id: '987654' } }), 404, 'coupon_not_found');
  });

  it('keeps int64 customer ids exact in voucher lists and views', async () => {
    const max = 9223372036854775807n;
    const res = await server.client.post('/customers', { id: max, code: 'CMAX', name: 'Max', registration_location_id: 1 });
    expect(res.status).toBe(200);
    const code = await issue(max);
    const list = await server.client.get('/vouchers', { query: { customer_id: max.toString() } });
    expect(list.body.data).toEqual([expect.objectContaining({ code, customer_id: max })]);
    expect((await server.client.post(`/vouchers/${code}/select`, { customer_id: max })).status).toBe(200);
    expect((await server.client.get(`/customers/${max}/vouchers/selected`)).body.data[0].customer_id).toBe(max);
  });

  it('issues the vouchers of an auto_select coupon selected', async () => {
    const customer = await newCustomer();
    const auto = await campaign({}, { auto_select: true });
    const code = await issue(customer, auto);
    expect((await voucher(code)).selected).toBe(true);
    expect(await simulate(customer, 'selected')).toEqual([code]);
    expect((await voucher(await issue(customer))).selected).toBe(false);
  });

  it('counts a voucher used by a realtime cart, and gives it back when the cart is cancelled', async () => {
    await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 });
    const customer = await newCustomer();
    const code = await issue(customer, await campaign({}, { max_redemptions: 1 }));
    const cart = (id: number) => cartBody(10, { id, customer_id: customer, coupons_desired: [code] });
    const used = await server.client.post('/carts/realtime', cart(customer * 10));
    expect(used.status, used.text).toBe(200);
    expect(used.body.effects.map((e: { coupon_info?: { voucher_code?: string } }) => e.coupon_info?.voucher_code)).toContain(code);
    expect(await voucher(code)).toMatchObject({ status: 'redeemed', redemptions: 1 });
    expectError(await server.client.get(`/vouchers/${code}`, { query: { validate: 'true' } }), 402, 'voucher_redeemed');
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: customer * 10, new_cart_id: customer * 10 + 1 });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await voucher(code)).toMatchObject({ status: 'active', redemptions: 0 });
  });

  it('answers a repeated redeem with the same Idempotency-Key once, using one redemption', async () => {
    const customer = await newCustomer();
    const code = await issue(customer);
    const headers = { 'Idempotency-Key': `redeem-${code}` };
    const first = await server.client.post('/vouchers/redeem', { codes: [code] }, { headers });
    const again = await server.client.post('/vouchers/redeem', { codes: [code] }, { headers });
    expect(again.text).toBe(first.text);
    expect((await voucher(code)).redemptions).toBe(1);
    // Without a key, the same body is a second use (a multi-use voucher at the till).
    expect((await server.client.post('/vouchers/redeem', { codes: [code] })).body.vouchers[0].redemptions).toBe(2);
  });
});
