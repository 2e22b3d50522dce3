/**
 * The offline preview README and docs/evaluation.md promise: an app reads a
 * Company's campaigns and a customer's state over HTTP as any integrator
 * can (GET /company, /discounts/{id}, /points/{id}, /instant_wins/{id}, /customers/{id},
 * /customers/{id}/points, /locations/{id}, /vouchers), compiles them with
 * @tally/engine's exports and evaluates carts itself; its answer must be
 * POST /carts/simulate's, byte for byte, over campaigns of every effect and
 * targeting kind and carts of several customers, currencies and coupons.
 */
import { cartCampaignsFromReads, compileCampaigns, countersFromReads, currencyOf, evaluateCart, locationFeaturesFromRead, type Cart, type Context, type CustomerState, type HeldVoucher } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../testing/server.js';

const NOW = new Date();
const DAY = 86_400_000;
const date = (offset: number) => new Date(NOW.getTime() + offset * DAY).toISOString().slice(0, 10);
const CREATED = NOW.toISOString().slice(0, 19) + 'Z';
const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

/** Every item of a list, page after page (common rule 4). */
async function all(client: Client, path: string, query: Record<string, string> = {}): Promise<any[]> {
  const items: any[] = [];
  let after: string | undefined;
  do {
    const res = await client.get(path, { query: { per_page: '100', ...query, ...(after === undefined ? {} : { starting_after: after }) } });
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    after = res.body.next_token_starts_after;
  } while (after !== undefined);
  return items;
}

/** What the app does: read the Company's settings and campaigns over HTTP and compile them. */
async function appProgram(client: Client) {
  const company = JSON.parse((await client.get('/company')).text);
  const settings = { currency: company.currency, timezone: company.timezone, point_value: company.point_value, cashback_cap: company.cashback_cap, score_threshold_cashback: company.cashback_threshold };
  // Single reads: a coupon's dates, description, redemptions and state are not in list items.
  const ids = [
    ...[...(await all(client, '/discounts')), ...(await all(client, '/points'))].map((item) => [item.type === 'points' ? 'points' : 'discounts', item.id]),
    // An instant win's rules, order and event are in its single read only.
    ...(await all(client, '/instant_wins')).map((item) => ['instant_wins', item.id]),
  ];
  const reads = await Promise.all(ids.map(async ([path, id]) => JSON.parse((await client.get(`/${path}/${id}`)).text)));
  return { company, program: compileCampaigns(cartCampaignsFromReads(reads, company), settings) };
}

/** The customer as the app reads it: profile, registration location, points, usable vouchers in use order. */
async function appCustomer(client: Client, company: { country: string; currency: string }, id: number): Promise<CustomerState> {
  const customer = JSON.parse((await client.get(`/customers/${id}`, { query: { search_param: 'id' } })).text);
  const points = JSON.parse((await client.get(`/customers/${id}/points`)).text);
  const location = customer.registration_location_id === null ? undefined : await client.get(`/locations/${customer.registration_location_id}`);
  const country = customer.country ?? company.country;
  const registration = location?.status === 200
    ? { country: location.body.country, currency: location.body.currency }
    : { country, currency: currencyOf(country) ?? company.currency };
  const usable = (await all(client, '/vouchers', { customer_id: String(id), status: 'active' }))
    .sort((a, b) => b.priority - a.priority || end(a) - end(b) || a.id - b.id);
  return {
    id: customer.id,
    ...(customer.code === null ? {} : { code: customer.code }),
    points: points.score,
    points_available: points.score_available,
    country,
    registration_country: registration.country,
    registration_currency: registration.currency,
    ...(customer.gender === null ? {} : { gender: customer.gender }),
    ...(customer.kind === null ? {} : { kind: customer.kind }),
    fraudulent: customer.fraudulent === true,
    attributes: customer.attributes ?? {},
    vouchers: usable.map((v): HeldVoucher => ({
      code: v.code, campaign_id: v.loyalty_rule_id, voucher_id: v.id, selected: v.selected, available_to: v.available_to,
      // A targeted instant win's effect echoes it.
      ...(v.campaign_history_id === null ? {} : { campaign_history_id: v.campaign_history_id }),
    })),
  };
}

const end = (voucher: { available_to: string | null }) => (voucher.available_to === null ? Infinity : Date.parse(voucher.available_to));

describe('an app previewing carts offline with @tally/engine', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    const ok = async (res: Promise<{ status: number; text: string }>) => expect((await res).status, (await res).text).toBe(200);
    await ok(c.post('/locations', { id: 40, code: 'MX1', name: 'Monterrey', country: 'MX' }));
    await ok(c.post('/customers', { id: 1, code: 'ANA', name: 'Ana', registration_location_id: 1, gender: 'female', attributes: {} }));
    await ok(c.post('/customers', { id: 2, name: 'Luis', registration_location_id: 40, country: 'MX' }));
    const discount = (rule_params: Record<string, unknown>, coupon_params?: Record<string, unknown>) =>
      ok(c.post('/discounts', { rule_params, ...(coupon_params ? { coupon_params } : {}) }));
    const points = (rule_params: Record<string, unknown>, coupon_params?: Record<string, unknown>) =>
      ok(c.post('/points', { rule_params, ...(coupon_params ? { coupon_params } : {}) }));
    const onProducts = (ids: number[]) => JSON.stringify({ conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'in', values: ids }] }] } });
    await discount({ name: '7% off product 10', rule_application: onProducts([10]), rule_effects: [{ type: 'percentage', value: 7, distribution: 'individual_items' }] });
    await discount({ name: '1.50 off the cart', priority: 3, select_customers: 'loyalty', rule_effects: [{ type: 'direct_value', value: 1.5, distribution: 'total_cart' }] });
    await discount({
      name: 'Pro rata 2 over 10 and 11', rule_application: onProducts([10, 11]),
      rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 5 }] } },
      rule_effects: [{ type: 'direct_value', value: 2, distribution: 'individual_items_pro_rata' }], maximum_budget_transaction: 1.99, priority: 2,
    });
    await discount({
      name: 'Combo 11 + 12 for 3', available_from: date(-1), available_to: date(30), recurrence_type: 'weekly', recurrence_days: ALL_DAYS,
      rule_application: { conditions: { and: [11, 12].map((id, i) => ({ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'eq', value: id }], bundle: i + 1 })) } },
      rule_effects: [{ type: 'combo_price', value: 3, distribution: 'total' }], stackability_properties: 'exclusive',
    });
    await discount({ name: 'Not yet', available_from: date(10), rule_effects: [{ type: 'percentage', value: 50, distribution: 'total_cart' }] });
    await discount({ name: 'Dollars only', currency: 'USD', rule_effects: [{ type: 'percentage', value: 10, distribution: 'total_cart' }] });
    await discount({ name: 'Mexicans', customer_registration_countries: ['MX'], rule_effects: [{ type: 'direct_value', value: 0.25, distribution: 'individual_items' }] });
    await discount(
      { name: 'Static code SPRING', coupon_required: true, rule_effects: [{ type: 'percentage', value: 12.5, distribution: 'total' }], once: 'num_day', once_limit: 2 },
      { static_code: 'SPRING', name: 'Spring', description: 'Spring sale', max_redemptions: 3, available_to: date(5) },
    );
    await discount({ name: 'Expired code', coupon_required: true, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] }, { static_code: 'OLD', available_to: date(-2) });
    await discount({ name: 'Paused coupon', coupon_required: true, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] }, { static_code: 'PAUSED', active: false });
    await discount({ name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 0.5, distribution: 'total' }] }, { name: 'Gift coupon', priority: 2 });
    await discount({ name: 'Budgeted', budget_value: 100, budget_period: 'num_month', loyalty_rule_category_id: 4, rule_effects: [{ type: 'percentage', value: 1, distribution: 'total_cart' }] });
    await points({ name: '10 a unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }], activation_period_type: 'relative', activation_delay: 2, activation_delay_unit: 'days', expiration_period_type: 'relative', availability_duration: 1, availability_duration_unit: 'months', availability_duration_natural: true });
    await points({ name: '5 on the cart', priority: 1, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }], expiration_period_type: 'fixed', fixed_option_selected: 'at_the_end_of_the_calendar_year' });
    await points({ name: 'Ratio on the cart, capped', rule_effects: [{ type: 'ratio', value: 3, distribution: 'total_cart' }], maximum_budget_transaction: 0.2, select_customers: 'loyalty' });
    await points({ name: 'Targeted points', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }] }, { name: 'Bonus' });
    await points({ name: 'On a trigger', when: 'birthday', rule_effects: [{ type: 'direct_value', value: 1000, distribution: 'total' }] });
    // Points to spend (earned 5 days ago), and vouchers held.
    for (const id of [1, 2]) await ok(c.post('/carts/realtime', { id: 100 + id, customer_id: id, creation_date: new Date(NOW.getTime() - 5 * DAY).toISOString().slice(0, 19) + 'Z', total: 80, lines: [{ order: 1, product_id: 99, total: 80, quantity: 1 }] }));
    const gift = (await all(c, '/discounts')).find((d) => d.name === 'Gift');
    const bonus = (await all(c, '/points')).find((d) => d.name === 'Targeted points');
    await ok(c.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: gift.id, external_voucher_code: 'GIFT-ANA' }));
    await ok(c.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: bonus.id, external_voucher_code: 'BONUS-ANA' }));
    await ok(c.post('/vouchers/GIFT-ANA/select', { customer_id: 1 }));
    // Instant wins, after the carts above so none has been played: a preview takes part in them, never draws.
    const fivePoints = (await all(c, '/points')).find((d) => d.name === '5 on the cart');
    const instantWin = (rule_params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ok(c.post('/instant_wins', {
      rule_params,
      instant_win: { instant_win_prizes: [{ name: 'Five points', description: 'Five', outcome: { promotion_type: 'points', promotion_id: fivePoints.id }, weight: '0.5', stock: 3 }, { name: 'Nothing', weight: '0.25', stock: -1 }] },
      ...extra,
    }));
    // Created first with the highest priority: it plays after the others (order by priority, not id).
    await instantWin({ name: 'Big basket draw', priority: 2, rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 20 }] } } });
    await instantWin({ name: 'Every member draw', once: 'num_day', once_limit: 1 }, { coupon_params: { static_code: 'LUCKY' } });
    await instantWin({ name: 'Mexicans draw', priority: 1, customer_registration_countries: ['MX'], recurrence_type: 'weekly', recurrence_days: ALL_DAYS });
    await instantWin({ name: 'Birthday draw', when: 'birthday' });
    await instantWin({ name: 'Later draw', available_from: date(10) });
    await instantWin({ name: 'Targeted draw', select_customers: 'targeted' });
    const targeted = (await all(c, '/instant_wins')).find((d) => d.name === 'Targeted draw');
    await ok(c.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: targeted.id, external_voucher_code: 'DRAW-ANA' }));
  });
  afterAll(async () => {
    await server.dispose();
  });

  const line = (order: number, product_id: number, total: number, quantity = 1, extra: Record<string, unknown> = {}) => ({ order, product_id, total, quantity, ...extra });
  const carts: [string, Cart][] = [
    ['anonymous', { creation_date: CREATED, total: 12.97, lines: [line(1, 10, 6.99), line(2, 11, 2.99), line(3, 12, 2.99)] }],
    ['a member, two units', { customer_id: 1, creation_date: CREATED, total: 13.32, lines: [line(1, 10, 6.66, 2), line(2, 11, 6.66, 3)] }],
    ['a combo and stacked discounts', { id: 7, code: 'T7', customer_id: 1, location_id: 40, creation_date: CREATED, total: 20, lines: [line(1, 11, 10, 2), line(2, 12, 10, 2, { product_name: 'Bread' })] }],
    ['the static code, another code and an unknown one', { customer_code: 'ANA', creation_date: CREATED, total: 30, coupons_desired: ['SPRING', 'OLD', 'PAUSED', 'NOPE'], lines: [line(1, 10, 30, 1)] }],
    ['every voucher held', { customer_id: 1, creation_date: CREATED, total: 9.99, coupons_desired: 'all', lines: [line(1, 13, 9.99)] }],
    ['the selected vouchers', { customer_id: 1, creation_date: CREATED, total: 9.99, coupons_desired: 'selected', lines: [line(1, 13, 9.99)] }],
    ['points spent, all of them', { customer_id: 1, creation_date: CREATED, total: 40, cashback_score_desired: -1, lines: [line(1, 10, 25), line(2, 13, 15, 3)] }],
    ['points spent on a line', { customer_id: 1, creation_date: CREATED, total: 40, cashbacks: [{ line_order: 2, score: 350 }], lines: [line(1, 10, 25), line(2, 13, 15, 3)] }],
    ['a registered Mexican paying in euros (international)', { customer_id: 2, creation_date: CREATED, total: 4.5, lines: [line(1, 14, 4.5, 3)] }],
    ['in dollars', { customer_id: 2, currency: 'USD', creation_date: CREATED, total: 50, lines: [line(1, 10, 50)] }],
    ['no discounts, no points', { customer_id: 1, apply_discounts: false, apply_points: false, creation_date: CREATED, total: 10, cashback_score_desired: 100, lines: [line(1, 10, 10)] }],
    ['weighed goods and extra fields echoed', { customer_id: 1, creation_date: CREATED, total: 7.5, original_total: 8, channel: 'app', attributes: {}, additional_costs: { delivery: 2 }, lines: [line(1, 10, 4.5, 1.5), line(2, 11, 3, 1)] }],
  ];

  /** The app's program and customers as it reads them now. */
  async function appPreview() {
    const { company, program } = await appProgram(server.client);
    const customers = new Map<number, CustomerState>();
    for (const id of [1, 2]) customers.set(id, await appCustomer(server.client, company, id));
    customers.set(0, customers.get(1)!); // customer_code ANA
    return { program, customers };
  }

  /** Simulates the cart over HTTP and offline; asserts the same text and answers the server's body. */
  async function sameAnswer({ program, customers }: Awaited<ReturnType<typeof appPreview>>, name: string, cart: Cart, read: Partial<Context> = {}) {
    const simulated = await server.client.post('/carts/simulate', cart);
    expect(simulated.status, `${name}: ${simulated.text}`).toBe(200);
    const who = cart.customer_id ?? (cart.customer_code === undefined ? undefined : 0);
    const context: Context = { now: new Date().toISOString(), mode: 'simulate', seed: '', ...(who === undefined ? {} : { customer: customers.get(Number(who))! }), ...read };
    expect(JSON.stringify(evaluateCart(program, cart, context).response), name).toBe(simulated.text);
    return simulated.body;
  }

  it('answers every cart as POST /carts/simulate does, byte for byte', async () => {
    const preview = await appPreview();
    const seen = new Set<string>();
    const draws = new Map<string, string[]>();
    for (const [name, cart] of carts) {
      const body = await sameAnswer(preview, name, cart);
      for (const effect of body.effects) seen.add(`${effect.type} ${effect.effect_type} ${effect.distribution_type}`);
      draws.set(name, body.effects.filter((e: { type: string }) => e.type === 'instant_win').map((e: { rule_name: string }) => e.rule_name));
      for (const part of ['vouchers', 'rejected_campaigns', 'invalid_coupons', 'cashbacks'] as const) if (body[part].length > 0) seen.add(part);
      if (body.international) seen.add('international');
    }
    // The carts cover what they are meant to.
    expect([...seen].sort()).toEqual([
      'cashbacks', 'discount combo_price total', 'discount direct_value individual_items', 'discount direct_value individual_items_pro_rata',
      'discount direct_value total', 'discount direct_value total_cart', 'discount percentage individual_items', 'discount percentage total',
      'discount percentage total_cart', 'instant_win  ', 'international', 'invalid_coupons', 'points direct_value total', 'points ratio individual_items',
      'points ratio total_cart', 'rejected_campaigns', 'vouchers',
    ]);
    // Instant wins by their conditions, countries and priority; none for an anonymous cart, nor those a trigger
    // or a later date runs; participation only, no prize data (a simulation draws nothing).
    expect(draws.get('anonymous')).toEqual([]);
    expect(draws.get('a member, two units')).toEqual(['Every member draw']);
    expect(draws.get('a combo and stacked discounts')).toEqual(['Every member draw', 'Big basket draw']);
    expect(draws.get('a registered Mexican paying in euros (international)')).toEqual(['Every member draw', 'Mexicans draw']);
    // The targeted one through its voucher (its effect echoes the voucher's coupon_info and campaign_history_id).
    expect(draws.get('every voucher held')).toEqual(['Every member draw', 'Targeted draw']);
  });

  it('previews the Company\'s cashback_cap as the server applies it', async () => {
    const patched = await server.client.patch('/company', { cashback_cap: 120 });
    expect(patched.status, patched.text).toBe(200);
    try {
      const preview = await appPreview();
      const spending = carts.filter(([, cart]) => cart.cashback_score_desired !== undefined || cart.cashbacks !== undefined);
      const used = [];
      for (const [name, cart] of spending) used.push((await sameAnswer(preview, name, cart)).score_used);
      expect(used).toEqual([120, 120, 100]);
    } finally {
      expect((await server.client.patch('/company', { cashback_cap: null })).status).toBe(200);
    }
  });

  // Last: the campaign it adds would apply to the carts above at location 40.
  it("previews a campaign by location feature with the location's features read (GET /locations/{value})", async () => {
    const c = server.client;
    for (const [path, body] of [
      ['/locations/taxonomies', { slug: 'kind', name: 'Kind' }],
      ['/locations/taxonomies/kind/features', { id: 1, name: 'Outlet' }],
      ['/discounts', { rule_params: { name: 'Outlets', rule_conditions: { conditions: { and: [{ field: 'location_feature', operator: 'eq', value: 'kind:1' }] } }, rule_effects: [{ type: 'percentage', value: 3, distribution: 'total' }] } }],
    ] as const) {
      expect((await c.post(path, body)).status, path).toBe(200);
    }
    expect((await c.patch('/locations/40', { features: [{ taxonomy_slug: 'kind', id: 1 }] })).status).toBe(200);
    const preview = await appPreview();
    const location = await c.get('/locations/40');
    const read = { location_features: locationFeaturesFromRead(location.body) };
    const byId: Cart = { customer_id: 2, location_id: 40, creation_date: CREATED, total: 10, lines: [line(1, 14, 10)] };
    expect((await sameAnswer(preview, 'at a tagged location', byId, read)).effects.map((e: { rule_name: string }) => e.rule_name)).toContain('Outlets');
    // A cart sent by code only: the server answers it with the location's id, so the app gives it the id it read.
    const byCode = await c.post('/carts/simulate', { ...byId, location_id: undefined, location_code: 'MX1' });
    expect(byCode.status, byCode.text).toBe(200);
    const coded = await c.get('/locations/MX1', { query: { search_param: 'code' } });
    const offline = evaluateCart(preview.program, { ...byId, location_code: 'MX1', location_id: coded.body.id }, { now: new Date().toISOString(), mode: 'simulate', seed: '', customer: preview.customers.get(2)!, location_features: locationFeaturesFromRead(coded.body) });
    expect(JSON.stringify(offline.response)).toBe(byCode.text);
    // Without the read the preview misses the campaign.
    expect(JSON.stringify(evaluateCart(preview.program, byId, { now: new Date().toISOString(), mode: 'simulate', seed: '', customer: preview.customers.get(2)! }).response)).not.toContain('Outlets');
  });

  // After the others: the realtime cart uses the customer's participations.
  it('previews an instant win whose participations the customer used, with its counters read (GET /instant_wins?customer_id=)', async () => {
    const cart: Cart = { customer_id: 2, creation_date: CREATED, total: 4.5, lines: [line(1, 14, 4.5, 3)] };
    const played = await server.client.post('/carts/realtime', { ...cart, id: 300 });
    expect(played.status, played.text).toBe(200);
    const preview = await appPreview();
    const counters = countersFromReads(await all(server.client, '/instant_wins', { customer_id: '2' }));
    const drawn = (body: { effects: { type: string; rule_name: string }[] }) => body.effects.filter((e) => e.type === 'instant_win').map((e) => e.rule_name);
    // Once a day: used by the realtime cart. The Mexicans' draw has no limit.
    const body = await sameAnswer(preview, 'participations used', cart, { counters });
    expect(drawn(body)).toEqual(['Mexicans draw']);
    expect(body.rejected_campaigns.map((r: { rule_name: string }) => r.rule_name)).toContain('Every member draw');
    // Without the counters the preview shows the draw the server no longer answers.
    const unread = evaluateCart(preview.program, cart, { now: new Date().toISOString(), mode: 'simulate', seed: '', customer: preview.customers.get(2)! }).response;
    expect(drawn(unread)).toEqual(['Every member draw', 'Mexicans draw']);
  });
});
