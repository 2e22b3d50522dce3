import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { endingSoon, passed } from './testing.js';

const effects = [{ type: 'direct_value', value: 5, distribution: 'total' }];
const DAY = 86_400_000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

describe('vouchers: trigger, redeem, transactions', () => {
  let server: TestServer;
  let targeted: number;
  let couponId: number;
  let open: number;
  let nextCustomer = 500;

  const newCustomer = async () => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, code: `C${id}`, name: 'Ana', registration_location_id: 1, country: 'ES' });
    expect(res.status).toBe(200);
    return id;
  };
  const campaign = async (rule: Record<string, unknown>, coupon?: Record<string, unknown>) => {
    const res = await server.client.post('/discounts', {
      rule_params: { name: 'Voucher campaign', rule_effects: effects, ...rule },
      ...(coupon ? { coupon_params: coupon } : {}),
    });
    expect(res.status).toBe(200);
    return res.body.id as number;
  };
  const trigger = (body: Record<string, unknown>) => server.client.post('/discounts/trigger', body);
  const redeem = (body: Record<string, unknown>) => server.client.post('/discounts/redeem', { cart_id: 1, discount: 500, ...body });

  beforeAll(async () => {
    server = await startServer();
    targeted = await campaign({ select_customers: 'targeted' }, { name: 'Gift', static_code: 'GIFT' });
    couponId = (await server.client.get(`/discounts/${targeted}`)).body.coupon_info.coupon_id;
    open = await campaign({}, { name: 'Open', static_code: 'OPEN5' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('issues a voucher to a customer by campaign or by coupon, with an external code or a generated one', async () => {
    const customer = await newCustomer();
    const external = await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: 'MY-CODE-1' });
    expect(external.status).toBe(200);
    expect(external.body).toMatchObject({ status: 'success', voucher_code: 'MY-CODE-1' });
    const generated = await trigger({ customer_id: customer, coupon_id: couponId });
    expect(generated.status).toBe(200);
    expect(generated.body.voucher_code).toMatch(/^[A-Z2-9]{12}$/);
    const read = await server.client.get('/discounts/MY-CODE-1', { query: { search_by: 'voucher_code' } });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(targeted);
    expect(read.body.coupon_info.voucher_info).toMatchObject({
      voucher_code: 'MY-CODE-1', status: 'active', selected: false, max_redemptions: 1, available_redemptions: 1,
    });
    const byId = await server.client.get(`/discounts/${generated.body.voucher_id}`, { query: { search_by: 'voucher_id' } });
    expect(byId.body.coupon_info.voucher_info.voucher_code).toBe(generated.body.voucher_code);
  });

  it('gives a priority_allocation voucher the highest priority of the customer', async () => {
    const customer = await newCustomer();
    const plain = await trigger({ customer_id: customer, loyalty_rule_id: targeted });
    const first = await trigger({ customer_id: customer, loyalty_rule_id: targeted, priority_allocation: true, external_voucher_code: 'PRIO-1' });
    const second = await trigger({ customer_id: customer, loyalty_rule_id: targeted, priority_allocation: true, external_voucher_code: 'PRIO-2' });
    const priority = async (code: string) =>
      (await server.client.get(`/discounts/${code}`, { query: { search_by: 'voucher_code' } })).body.coupon_info.voucher_info.priority;
    expect(await priority('PRIO-1')).toBeGreaterThan(await priority(plain.body.voucher_code));
    expect(await priority('PRIO-2')).toBeGreaterThan(await priority('PRIO-1'));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
  });

  it('allocates one above a coupon at the highest priority a client can send, exactly (priorities are JS numbers)', async () => {
    const top = await campaign({ select_customers: 'targeted' }, { name: 'Top', priority: 2147483647 });
    const customer = await newCustomer();
    const codes = ['TOP-1', 'TOP-2', 'TOP-3'];
    for (const code of codes) {
      const res = await trigger({ customer_id: customer, loyalty_rule_id: top, priority_allocation: true, external_voucher_code: code });
      expect(res.status, res.text).toBe(200);
    }
    const priorities = await Promise.all(codes.map(async (code) =>
      (await server.client.get(`/discounts/${code}`, { query: { search_by: 'voucher_code' } })).body.coupon_info.voucher_info.priority));
    expect(priorities).toEqual([2147483648, 2147483649, 2147483650]);
  });

  it('refuses a trigger without exactly one campaign reference, for a campaign without coupon, an unknown customer or a taken code', async () => {
    const customer = await newCustomer();
    const noCoupon = await campaign({});
    const cases: [Record<string, unknown>, number, string, RegExp][] = [
      [{ customer_id: customer }, 400, 'invalid_request', /^coupon_id: is required/],
      [{ customer_id: customer, coupon_id: couponId, loyalty_rule_id: targeted }, 400, 'invalid_request', /^loyalty_rule_id: cannot/],
      [{ customer_id: customer, loyalty_rule_id: noCoupon }, 400, 'invalid_request', /^loyalty_rule_id: campaign \d+ has no coupon/],
      [{ customer_id: customer, loyalty_rule_id: 987654 }, 404, 'campaign_not_found', /^loyalty_rule_id/],
      [{ customer_id: customer, coupon_id: 987654 }, 404, 'coupon_not_found', /^coupon_id/],
      [{ customer_id: 424242, loyalty_rule_id: targeted }, 404, 'customer_not_found', /^customer_id/],
      [{ loyalty_rule_id: targeted }, 400, 'invalid_request', /^customer_id: is required/],
    ];
    for (const [body, status, code, error] of cases) {
      const res = await trigger(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toMatch(error);
    }
    const inactive = nextCustomer++;
    await server.client.post('/customers', { id: inactive, name: 'Off', registration_location_id: 1, status: 'inactive' });
    const toInactive = await trigger({ customer_id: inactive, loyalty_rule_id: targeted });
    expect(toInactive.status).toBe(402);
    expect(toInactive.body.code).toBe('customer_inactive');
    await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: 'TAKEN' });
    const other = await newCustomer();
    const taken = await trigger({ customer_id: other, loyalty_rule_id: targeted, external_voucher_code: 'TAKEN' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/^external_voucher_code/);
  });

  it('redeems a voucher once, answering the external_redeem effect, then refuses it as redeemed', async () => {
    const customer = await newCustomer();
    const { body } = await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: 'ONCE-1' });
    const first = await redeem({ voucher_code: 'ONCE-1', customer_id: customer, discount: 250 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      rule_id: targeted, rule_name: 'Voucher campaign', type: 'discount', effect_type: 'external_redeem',
      value: 250, value_as_money: 2.5, select_customers: 'targeted',
      coupon_info: { voucher_id: body.voucher_id, voucher_code: 'ONCE-1', coupon_id: couponId, coupon_name: 'Gift', static_code: 'GIFT' },
    });
    expect(first.body.campaign_history_id).toEqual(expect.any(Number));
    const again = await redeem({ voucher_code: 'ONCE-1', customer_code: `C${customer}`, cart_id: 2 });
    expect(again.status).toBe(402);
    expect(again.body.code).toBe('voucher_redeemed');
    const info = (await server.client.get('/discounts/ONCE-1', { query: { search_by: 'voucher_code' } })).body.coupon_info.voucher_info;
    expect(info).toMatchObject({ status: 'redeemed', available_redemptions: 0 });
  });

  it('refuses vouchers of another customer, unknown codes, not yet valid, expired and inactive coupons', async () => {
    const owner = await newCustomer();
    const stranger = await newCustomer();
    await trigger({ customer_id: owner, loyalty_rule_id: targeted, external_voucher_code: 'MINE' });
    const later = await campaign({ select_customers: 'targeted' }, { available_delay_days: 3 });
    await trigger({ customer_id: owner, loyalty_rule_id: later, external_voucher_code: 'LATER' });
    const end = endingSoon();
    const past = await campaign({ select_customers: 'targeted' }, { available_to: end });
    expect((await trigger({ customer_id: owner, loyalty_rule_id: past, external_voucher_code: 'PAST' })).status).toBe(200);
    const off = await campaign({ select_customers: 'targeted' }, {});
    expect((await trigger({ customer_id: owner, loyalty_rule_id: off, external_voucher_code: 'OFF' })).status).toBe(200);
    expect((await server.client.patch(`/discounts/${off}`, { coupon_params: { active: false } })).status).toBe(200);
    await passed(end);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ voucher_code: 'MINE', customer_id: stranger }, 404, 'voucher_not_found'],
      [{ voucher_code: 'NOPE', customer_id: owner }, 404, 'voucher_not_found'],
      [{ voucher_code: 'LATER', customer_id: owner }, 402, 'voucher_out_date'],
      [{ voucher_code: 'PAST', customer_id: owner }, 402, 'voucher_expired'],
      [{ voucher_code: 'OFF', customer_id: owner }, 402, 'voucher_inactive'],
      [{ voucher_code: 'MINE', customer_id: 999999 }, 404, 'voucher_not_found'],
    ];
    for (const [body, status, code] of cases) {
      const res = await redeem(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    // None of the refusals used the voucher.
    expect((await redeem({ voucher_code: 'MINE', customer_id: owner })).status).toBe(200);
  });

  it('validates the redeem body: one of each pair, a positive integer discount', async () => {
    const customer = await newCustomer();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ customer_id: customer }, /^voucher_code: is required \(or static_code\)/],
      [{ voucher_code: 'A', static_code: 'B', customer_id: customer }, /^static_code: cannot be sent with voucher_code/],
      [{ voucher_code: 'A' }, /^customer_id: is required/],
      [{ voucher_code: 'A', customer_id: customer, customer_code: 'x' }, /^customer_code: cannot/],
      [{ voucher_code: 'A', customer_id: customer, cart_id: undefined, cart_code: undefined }, /^cart_id: is required/],
      [{ voucher_code: 'A', customer_id: customer, discount: 0 }, /^discount/],
      [{ voucher_code: 'A', customer_id: customer, discount: 1.5 }, /^discount/],
    ];
    for (const [body, error] of cases) {
      const res = await redeem(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
  });

  it('redeems by static code: the customer\'s voucher expiring first, or the open coupon itself', async () => {
    const customer = await newCustomer();
    const soon = await campaign({ select_customers: 'targeted' }, { static_code: 'SOON', available_days: 5 });
    await trigger({ customer_id: customer, loyalty_rule_id: soon, external_voucher_code: 'SOON-LATE' });
    await server.client.patch(`/discounts/${soon}`, { coupon_params: { available_days: 2 } });
    await trigger({ customer_id: customer, loyalty_rule_id: soon, external_voucher_code: 'SOON-EARLY' });
    const res = await redeem({ static_code: 'SOON', customer_id: customer });
    expect(res.status).toBe(200);
    expect(res.body.coupon_info.voucher_code).toBe('SOON-EARLY');
    const openUse = await redeem({ static_code: 'OPEN5', customer_id: customer, cart_id: undefined, cart_code: 'T-1' });
    expect(openUse.status).toBe(200);
    expect(openUse.body).toMatchObject({ rule_id: open, coupon_info: { voucher_id: null, static_code: 'OPEN5' } });
    const stranger = await newCustomer();
    const notHeld = await redeem({ static_code: 'SOON', customer_id: stranger });
    expect(notHeld.status).toBe(404);
    expect(notHeld.body.code).toBe('voucher_not_found');
  });

  it('lists discount transactions, all or one customer\'s, with cursor pagination', async () => {
    const customer = await newCustomer();
    for (const code of ['TX-1', 'TX-2', 'TX-3']) {
      await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: code });
      expect((await redeem({ voucher_code: code, customer_id: customer, cart_id: 77, discount: 199 })).status).toBe(200);
    }
    const first = await server.client.get('/discounts/transactions', { query: { customer_id: String(customer), per_page: '2' } });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toEqual({ id: expect.any(Number), created_at: expect.any(String), amount: 1.99, customer_id: customer, activity_id: 77 });
    const second = await server.client.get('/discounts/transactions', {
      query: { customer_code: `C${customer}`, per_page: '2', starting_after: first.body.next_token_starts_after },
    });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.next_token_starts_after).toBeUndefined();
    const all = await server.client.get('/discounts/transactions', { query: { per_page: '100' } });
    expect(all.body.data.length).toBeGreaterThan(3);
    const both = await server.client.get('/discounts/transactions', { query: { customer_id: String(customer), customer_code: 'x' } });
    expect(both.status).toBe(400);
  });

  it('lists a customer\'s campaigns: their country\'s plus the targeted ones whose voucher they hold', async () => {
    const customer = await newCustomer();
    const mine = await campaign({ select_customers: 'targeted' }, { name: 'Mine' });
    const notMine = await campaign({ select_customers: 'targeted' }, { name: 'Not mine' });
    const french = await campaign({ customer_registration_countries: ['FR'] });
    const spanish = await campaign({ customer_registration_countries: ['ES', 'PT'] });
    await trigger({ customer_id: customer, loyalty_rule_id: mine, external_voucher_code: `LIST-${customer}` });
    const all = async (query: Record<string, string>) => {
      const res = await server.client.get('/discounts', { query: { per_page: '100', ...query } });
      expect(res.status).toBe(200);
      return res.body.data as { id: number; coupon_info: any }[];
    };
    const ids = (await all({ customer_id: String(customer) })).map((c) => c.id);
    expect(ids).toContain(mine);
    expect(ids).toContain(open);
    expect(ids).not.toContain(notMine);
    expect(ids).not.toContain(french);
    expect(ids).toContain(spanish);
    const withVoucher = (await all({ customer_code: `C${customer}` })).find((c) => c.id === mine)!;
    expect(withVoucher.coupon_info.voucher_info.voucher_code).toBe(`LIST-${customer}`);
    expect((await all({ customer_id: String(customer), selected: 'true' })).map((c) => c.id)).not.toContain(mine);
    expect((await all({ customer_id: String(customer), selected: 'false' })).map((c) => c.id)).toContain(mine);
    const targetedOnly = await all({ campaign_audience: 'targeted' });
    expect(targetedOnly.every((c) => c.id !== open)).toBe(true);
    expect((await all({ countries: 'FR' })).map((c) => c.id)).toContain(french);
    expect((await all({ countries: 'PT' })).map((c) => c.id)).not.toContain(french);
    const selectedAlone = await server.client.get('/discounts', { query: { selected: 'true' } });
    expect(selectedAlone.status).toBe(400);
    expect(selectedAlone.body.error).toBe('customer_id: is required (or customer_code) with selected');
    const unknown = await server.client.get('/discounts', { query: { customer_id: '888888' } });
    expect(unknown.status).toBe(404);
  });

  it('selected filters the customer\'s vouchers of a campaign, not the one shown first: two vouchers, one selected, list under both values', async () => {
    const customer = await newCustomer();
    const twice = await campaign({ select_customers: 'targeted' }, { name: 'Twice' });
    for (const code of [`TW1-${customer}`, `TW2-${customer}`]) expect((await trigger({ customer_id: customer, loyalty_rule_id: twice, external_voucher_code: code })).status).toBe(200);
    const offered = async (selected: string) => {
      const res = await server.client.get('/discounts', { query: { per_page: '100', customer_id: String(customer), selected } });
      expect(res.status).toBe(200);
      return (res.body.data as { id: number; coupon_info: any }[]).find((c) => c.id === twice)?.coupon_info.voucher_info;
    };
    for (const code of [`TW1-${customer}`, `TW2-${customer}`]) {
      expect((await server.client.post(`/vouchers/${code}/select`, { customer_id: customer })).status).toBe(200);
      const other = code === `TW1-${customer}` ? `TW2-${customer}` : `TW1-${customer}`;
      expect((await server.client.post(`/vouchers/${other}/deselect`, { customer_id: customer })).status).toBe(200);
      expect(await offered('true')).toMatchObject({ voucher_code: code, selected: true });
      expect(await offered('false')).toMatchObject({ voucher_code: other, selected: false });
    }
  });

  it('moves a customer\'s vouchers and discount redemptions on merge', async () => {
    const old = await newCustomer();
    const kept = await newCustomer();
    await trigger({ customer_id: old, loyalty_rule_id: targeted, external_voucher_code: `MERGE-${old}` });
    await trigger({ customer_id: old, loyalty_rule_id: targeted, external_voucher_code: `MERGE-USED-${old}` });
    expect((await redeem({ voucher_code: `MERGE-USED-${old}`, customer_id: old, discount: 300 })).status).toBe(200);
    const merged = await server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: kept });
    expect(merged.status).toBe(200);
    const res = await redeem({ voucher_code: `MERGE-${old}`, customer_id: kept });
    expect(res.status).toBe(200);
    const history = await server.client.get('/discounts/transactions', { query: { customer_id: String(kept) } });
    expect(history.body.data.map((t: { amount: number }) => t.amount)).toEqual([3, 5]);
    expect(history.body.data.every((t: { customer_id: number }) => t.customer_id === kept)).toBe(true);
  });

  it('refuses a merged customer\'s redemption and voucher issue (402 customer_inactive), writing nothing', async () => {
    const old = await newCustomer();
    const kept = await newCustomer();
    expect((await server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: kept })).status).toBe(200);
    for (const res of [await redeem({ static_code: 'OPEN5', customer_id: old }), await trigger({ customer_id: old, loyalty_rule_id: targeted })]) {
      expect(res.status, res.text).toBe(402);
      expect(res.body.code).toBe('customer_inactive');
    }
    expect((await server.client.get('/discounts/transactions', { query: { customer_id: String(old) } })).body.data).toEqual([]);
    expect((await server.client.get('/vouchers', { query: { customer_id: String(old) } })).body.data).toEqual([]);
  });

  it('refuses redemptions and voucher issues of a customer merged while they waited for their transaction', async () => {
    const old = await newCustomer();
    const kept = await newCustomer();
    // An open static code needs no voucher: only the status check keeps a redemption off the merged customer.
    const sending = (round: number) => Array.from({ length: 8 }, (_, i) => [
      redeem({ static_code: 'OPEN5', customer_id: old, cart_id: 1000 + round * 10 + i }),
      trigger({ customer_id: old, loyalty_rule_id: targeted, external_voucher_code: `RACING-${old}-${round}-${i}` }),
    ]).flat();
    const before = sending(0);
    const merge = server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: kept });
    const sent = [...before, ...sending(1)];
    expect((await merge).status).toBe(200);
    const answers = await Promise.all(sent);
    for (const res of answers) expect(res.status === 200 ? 'done' : res.body.code, res.text).toMatch(/^(done|customer_inactive)$/);
    const list = async (path: string, customer: number) => (await server.client.get(path, { query: { customer_id: String(customer), per_page: '100' } })).body.data;
    expect(await list('/discounts/transactions', old)).toEqual([]);
    expect(await list('/vouchers', old)).toEqual([]);
    // What was done before the merge moved to the customer kept: redemptions are the even answers, issues the odd.
    const done = (parity: number) => answers.filter((res, i) => i % 2 === parity && res.status === 200).length;
    expect((await list('/discounts/transactions', kept)).length).toBe(done(0));
    expect((await list('/vouchers', kept)).length).toBe(done(1));
  });

  it('keeps a customer with vouchers from a hard delete (a soft delete is done instead)', async () => {
    const customer = await newCustomer();
    await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: `KEEP-${customer}` });
    const deleted = await server.client.delete(`/customers/${customer}`, { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } });
    expect(deleted.status).toBe(200);
    const read = await server.client.get(`/discounts/KEEP-${customer}`, { query: { search_by: 'voucher_code' } });
    expect(read.status).toBe(200);
  });

  it('keeps int64 customer ids exact through issue, redemption and the transactions list', async () => {
    const max = 9223372036854775807n;
    expect((await server.client.post('/customers', { id: max, name: 'Max', registration_location_id: 1 })).status).toBe(200);
    expect((await trigger({ customer_id: max, loyalty_rule_id: targeted, external_voucher_code: 'MAX-1' })).status).toBe(200);
    expect((await redeem({ voucher_code: 'MAX-1', customer_id: max, cart_id: max })).status).toBe(200);
    const list = await server.client.get('/discounts/transactions', { query: { customer_id: max.toString() } });
    expect(list.body.data).toEqual([expect.objectContaining({ customer_id: max, activity_id: max })]);
  });

  it('lets only one of many concurrent redemptions use a single-use voucher', async () => {
    const customer = await newCustomer();
    await trigger({ customer_id: customer, loyalty_rule_id: targeted, external_voucher_code: `RACE-${customer}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => redeem({ voucher_code: `RACE-${customer}`, customer_id: customer, cart_id: 100 + i })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 402 && r.body.code === 'voucher_redeemed')).toHaveLength(7);
    const list = await server.client.get('/discounts/transactions', { query: { customer_id: String(customer) } });
    expect(list.body.data).toHaveLength(1);
  });

  it('counts every identical redemption (no duplicate suppression): a static code and a multi-use voucher, up to max_redemptions', async () => {
    const customer = await newCustomer();
    // coupon_required: it applies only to carts listing its code, none of the other tests'.
    await campaign({ coupon_required: true }, { static_code: 'TWICE' });
    const body = { static_code: 'TWICE', customer_id: customer, cart_id: 5 };
    expect((await Promise.all([redeem(body), redeem(body)])).map((r) => r.status)).toEqual([200, 200]);
    expect((await redeem(body)).status).toBe(200);
    const list = await server.client.get('/discounts/transactions', { query: { customer_id: String(customer) } });
    expect(list.body.data).toHaveLength(3);

    const multi = await campaign({ select_customers: 'targeted' }, { max_redemptions: 4 });
    const code = `MULTI-${customer}`;
    expect((await trigger({ customer_id: customer, loyalty_rule_id: multi, external_voucher_code: code })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await redeem({ voucher_code: code, customer_id: customer })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await server.client.post('/vouchers/redeem', { codes: [code] })).status).toBe(200);
    expect((await server.client.get(`/vouchers/${code}`)).body).toMatchObject({ status: 'redeemed', redemptions: 4, available_redemptions: 0 });
    const fifth = await redeem({ voucher_code: code, customer_id: customer });
    expect(fifth.status).toBe(402);
    expect(fifth.body.code).toBe('voucher_redeemed');
  });

  it('refuses to issue a voucher nobody could use (an inactive or ended coupon or campaign: 402), writing nothing', async () => {
    const customer = await newCustomer();
    const couponOf = async (id: number) => (await server.client.get(`/discounts/${id}`)).body.coupon_info.coupon_id as number;
    const couponOff = await campaign({ select_customers: 'targeted' }, { name: 'Off', active: false });
    const campaignOff = await campaign({ select_customers: 'targeted', active: false }, { name: 'Campaign off' });
    const couponEnded = await campaign({ select_customers: 'targeted' }, { name: 'Ended', available_to: isoDay(-2) });
    const campaignEnded = await campaign({ select_customers: 'targeted', available_to: isoDay(-1) }, { name: 'Campaign ended' });
    // Ended and switched off: inactive answers first, as a held voucher's checks go.
    const both = await campaign({ select_customers: 'targeted', available_to: isoDay(-1) }, { name: 'Both', active: false });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ loyalty_rule_id: couponOff }, 'voucher_inactive', `loyalty_rule_id: coupon ${await couponOf(couponOff)} is not active`],
      [{ coupon_id: await couponOf(couponOff) }, 'voucher_inactive', `coupon_id: coupon ${await couponOf(couponOff)} is not active`],
      [{ coupon_id: await couponOf(campaignOff) }, 'voucher_inactive', `coupon_id: campaign ${campaignOff} is not active`],
      [{ loyalty_rule_id: couponEnded }, 'voucher_expired', `loyalty_rule_id: coupon ${await couponOf(couponEnded)} expired at ${isoDay(-2)}T23:59:59Z`],
      [{ coupon_id: await couponOf(couponEnded) }, 'voucher_expired', `coupon_id: coupon ${await couponOf(couponEnded)} expired at ${isoDay(-2)}T23:59:59Z`],
      [{ loyalty_rule_id: campaignEnded }, 'voucher_expired', `loyalty_rule_id: campaign ${campaignEnded} ended at ${isoDay(-1)}`],
      [{ loyalty_rule_id: both }, 'voucher_inactive', `loyalty_rule_id: coupon ${await couponOf(both)} is not active`],
    ];
    for (const [target, code, error] of cases) {
      const res = await trigger({ customer_id: customer, external_voucher_code: 'DEAD', ...target });
      expect([res.status, res.body], JSON.stringify(target)).toEqual([402, { code, error }]);
    }
    // A count of zero days ends the voucher when it starts: at its issue.
    const noDays = await campaign({ select_customers: 'targeted' }, { name: 'No days', available_days: 0 });
    const zero = await trigger({ customer_id: customer, loyalty_rule_id: noDays });
    expect([zero.status, zero.body.code]).toEqual([402, 'voucher_expired']);
    expect(zero.body.error).toMatch(new RegExp(`^loyalty_rule_id: coupon ${await couponOf(noDays)} expired at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`));
    const held = await server.client.get('/vouchers', { query: { customer_id: String(customer) } });
    expect(held.body.data).toEqual([]);
    // A coupon or campaign that has not started yet issues its voucher (pending until then), as does one ending today.
    const later = await campaign({ select_customers: 'targeted', available_from: isoDay(3) }, { name: 'Later', available_from: isoDay(2) });
    expect((await trigger({ customer_id: customer, loyalty_rule_id: later, external_voucher_code: 'DEAD' })).status).toBe(200);
    const today = await campaign({ select_customers: 'targeted', available_to: isoDay(0) }, { name: 'Today', available_to: isoDay(0) });
    expect((await trigger({ customer_id: customer, loyalty_rule_id: today })).status).toBe(200);
  });

  it('answers an identical trigger within 5 minutes as the first, issuing one voucher', async () => {
    const customer = await newCustomer();
    const first = await trigger({ customer_id: customer, loyalty_rule_id: targeted });
    const repeat = await trigger({ customer_id: customer, loyalty_rule_id: targeted });
    expect(repeat.body).toEqual(first.body);
    // The customer holds one voucher of the coupon: the second use of its static code finds it used.
    expect((await redeem({ static_code: 'GIFT', customer_id: customer, cart_id: 1 })).body.coupon_info.voucher_code).toBe(first.body.voucher_code);
    const second = await redeem({ static_code: 'GIFT', customer_id: customer, cart_id: 2 });
    expect(second.status).toBe(402);
    expect(second.body.code).toBe('voucher_redeemed');
  });

  describe('static codes in carts and redemptions', () => {
    type Entry = { rule_id: number; error?: string; voucher_code?: string; coupon_info?: Record<string, unknown> };
    /** The entries of a cart's list about these campaigns (the mass campaigns of the other tests apply too). */
    const about = (list: Entry[], ...ids: number[]) => list.filter((entry) => ids.includes(entry.rule_id));
    // Each cart its own sale (an id of its own): an identical cart without id would answer the first (duplicate suppression).
    let sales = 0;
    const sale = (customer: number, coupons: string[]) => realtimeCart(server.client, customer, 20, { coupons_desired: coupons, id: 600_000 + ++sales });
    const voucherStatus = async (code: string) =>
      (await server.client.get(`/discounts/${code}`, { query: { search_by: 'voucher_code' } })).body.coupon_info.voucher_info.status;

    it("a cart listing a targeted campaign's static code uses the customer's voucher expiring first, as redeem does", async () => {
      const customer = await newCustomer();
      const tgt = await campaign({ select_customers: 'targeted' }, { static_code: 'TGT5', available_days: 30 });
      await trigger({ customer_id: customer, loyalty_rule_id: tgt, external_voucher_code: 'TGT5-LATE' });
      await server.client.patch(`/discounts/${tgt}`, { coupon_params: { available_days: 10 } });
      await trigger({ customer_id: customer, loyalty_rule_id: tgt, external_voucher_code: 'TGT5-EARLY' });
      const simulated = await server.client.post('/carts/simulate', cartBody(20, { customer_id: customer, coupons_desired: ['TGT5'] }));
      expect(simulated.status).toBe(200);
      expect(about(simulated.body.rejected_campaigns, tgt)).toEqual([]);
      expect(about(simulated.body.effects, tgt)).toEqual([expect.objectContaining({ value: 500, coupon_info: expect.objectContaining({ voucher_code: 'TGT5-EARLY', static_code: 'TGT5' }) })]);
      expect(simulated.body.vouchers).toEqual([expect.objectContaining({ voucher_code: 'TGT5-EARLY', rule_id: tgt })]);
      const first = await sale(customer, ['TGT5']);
      expect(first.body.vouchers.map((v: Entry) => v.voucher_code)).toEqual(['TGT5-EARLY']);
      expect(await voucherStatus('TGT5-EARLY')).toBe('redeemed');
      expect(await voucherStatus('TGT5-LATE')).toBe('active');
      // Concurrent carts share the one voucher left: the transaction's re-check lets only one use it.
      const carts = await Promise.all(Array.from({ length: 4 }, () => sale(customer, ['TGT5'])));
      expect(carts.filter((c) => c.body.vouchers.length === 1)).toHaveLength(1);
      expect(await voucherStatus('TGT5-LATE')).toBe('redeemed');
      const none = await server.client.post('/carts/simulate', cartBody(20, { customer_id: customer, coupons_desired: ['TGT5'] }));
      expect(none.body.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: tgt, error: "the customer does not hold this campaign's voucher" })]);
    });

    it("an open static code is used as such once the customer's voucher of it is used up, in carts and redemptions alike", async () => {
      const customer = await newCustomer();
      const req = await campaign({ coupon_required: true }, { static_code: 'REQ5' });
      await trigger({ customer_id: customer, loyalty_rule_id: req, external_voucher_code: 'REQ5-MINE' });
      const cart = await sale(customer, ['REQ5']);
      expect(about(cart.body.effects, req)[0].coupon_info).toMatchObject({ voucher_code: 'REQ5-MINE', static_code: 'REQ5' });
      expect(await voucherStatus('REQ5-MINE')).toBe('redeemed');
      const again = await sale(customer, ['REQ5']);
      expect(about(again.body.effects, req)[0].coupon_info).toEqual({ voucher_id: null, voucher_code: null, coupon_id: expect.any(Number), coupon_name: null, static_code: 'REQ5' });
      const redeemed = await redeem({ static_code: 'REQ5', customer_id: customer });
      expect(redeemed.status).toBe(200);
      expect(redeemed.body.coupon_info).toMatchObject({ voucher_id: null, static_code: 'REQ5' });
    });

    it("a static code works only within its coupon's dates: carts reject it, redemptions answer voucher_expired or voucher_out_date", async () => {
      const customer = await newCustomer();
      const past = await campaign({ coupon_required: true }, { static_code: 'PAST5', available_to: isoDay(-2) });
      const later = await campaign({ coupon_required: true }, { static_code: 'LATER5', available_from: isoDay(3) });
      const now = await campaign({ coupon_required: true }, { static_code: 'NOW5', available_from: isoDay(-1), available_to: isoDay(1) });
      const simulated = await server.client.post('/carts/simulate', cartBody(20, { customer_id: customer, coupons_desired: ['PAST5', 'LATER5', 'NOW5'] }));
      expect(about(simulated.body.effects, past, later, now).map((e) => e.rule_id)).toEqual([now]);
      expect(simulated.body.invalid_coupons).toEqual([]);
      expect(about(simulated.body.rejected_campaigns, past, later).map((r) => [r.coupon_info!.static_code, r.error!.split(':')[0]])).toEqual([
        ['PAST5', 'voucher_expired'],
        ['LATER5', 'voucher_out_date'],
      ]);
      for (const [code, error] of [['PAST5', 'voucher_expired'], ['LATER5', 'voucher_out_date']]) {
        const res = await redeem({ static_code: code, customer_id: customer });
        expect(res.status, code).toBe(402);
        expect(res.body.code).toBe(error);
      }
      expect((await redeem({ static_code: 'NOW5', customer_id: customer })).status).toBe(200);
    });

    it('a redemption charges the campaign budget when budget_period is absent (always), over what is left too', async () => {
      const customer = await newCustomer();
      const budgeted = await campaign({ budget_value: 10 }, { static_code: 'BUDGET5' });
      const before = await server.client.post('/carts/simulate', cartBody(20, { customer_id: customer }));
      expect(about(before.body.effects, budgeted)).toHaveLength(1);
      expect((await redeem({ static_code: 'BUDGET5', customer_id: customer, discount: 1000 })).status).toBe(200);
      const after = await server.client.post('/carts/simulate', cartBody(20, { customer_id: customer }));
      expect(about(after.body.effects, budgeted)).toEqual([]);
      expect(about(after.body.rejected_campaigns, budgeted)).toEqual([expect.objectContaining({ error: 'budget: exhausted for the current period' })]);
      // The discount was already given outside Tally: it is recorded, not refused.
      expect((await redeem({ static_code: 'BUDGET5', customer_id: customer, discount: 100 })).status).toBe(200);
    });

    it("a redemption counts a use of the customer's once limit, so carts stop applying the campaign to that customer (found racing carts and redemptions)", async () => {
      const [customer, other] = [await newCustomer(), await newCustomer()];
      const once = await campaign({ coupon_required: true, once: 'always', once_limit: 1 }, { static_code: 'ONCE5' });
      const chance = await campaign({ coupon_required: true, chance_to_accrue_period: 'num_month' }, { static_code: 'CHANCE5' });
      for (const code of ['ONCE5', 'CHANCE5']) expect((await redeem({ static_code: code, customer_id: customer })).status).toBe(200);
      // Large enough that the mass campaigns of the other tests leave something to discount.
      const after = await server.client.post('/carts/simulate', cartBody(500, { customer_id: customer, coupons_desired: ['ONCE5', 'CHANCE5'] }));
      expect(about(after.body.effects, once, chance)).toEqual([]);
      expect(about(after.body.rejected_campaigns, once, chance).map((r) => r.rule_id)).toEqual([once, chance]);
      const fresh = await server.client.post('/carts/simulate', cartBody(500, { customer_id: other, coupons_desired: ['ONCE5', 'CHANCE5'] }));
      expect(about(fresh.body.effects, once, chance).map((e) => e.rule_id)).toEqual([once, chance]);
      // The discount was already given outside Tally: like the budget, the limit records it and refuses nothing.
      expect((await redeem({ static_code: 'ONCE5', customer_id: customer })).status).toBe(200);
    });

    it("records the cart a cart_code names by its id; an unknown code (an external till's) as no id", async () => {
      const customer = await newCustomer();
      const stored = await realtimeCart(server.client, customer, 20, { code: `TILL-${customer}` });
      await redeem({ static_code: 'OPEN5', customer_id: customer, cart_id: undefined, cart_code: `TILL-${customer}` });
      await redeem({ static_code: 'OPEN5', customer_id: customer, cart_id: undefined, cart_code: 'ELSEWHERE-1' });
      const list = await server.client.get('/discounts/transactions', { query: { customer_id: String(customer) } });
      expect(list.body.data.map((t: { activity_id: number | null }) => t.activity_id)).toEqual([stored.body.id, null]);
    });
  });
});
