import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

/** The points campaign the default prize grants (set before the tests: a prize is won only with an outcome). */
let prizePoints: number;
const prize = (extra: Record<string, unknown> = {}) => ({
  name: 'Mug', description: 'A mug', outcome: { promotion_type: 'points', promotion_id: prizePoints }, weight: 1, stock: -1, ...extra,
});
const instantWin = (params: Record<string, unknown> = {}, prizes: unknown[] = [prize()], extra: Record<string, unknown> = {}) => ({
  rule_params: { name: 'Scratch card', select_customers: 'loyalty', ...params },
  instant_win: { instant_win_prizes: prizes },
  ...extra,
});

describe('instant wins over HTTP', () => {
  let server: TestServer;
  let nextCustomer = 2000;
  const customer = async (extra: Record<string, unknown> = {}) => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, name: `Customer ${id}`, registration_location_id: 1, country: 'ES', code: `C${id}`, ...extra });
    expect(res.status).toBe(200);
    return id;
  };
  const create = async (body: unknown) => {
    const res = await server.client.post('/instant_wins', body);
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  /** Turns off every instant win created before, so each test sees only its own. */
  const retire = async (...ids: number[]) => {
    for (const id of ids) expect((await server.client.patch(`/instant_wins/${id}`, { rule_params: { active: false } })).status).toBe(200);
  };
  let nextCart = 1;
  // Each cart has its own id: the draw's seed is derived from the cart, so the same cart always draws the same.
  // Sold now: a cart counts its once limit in its sale's period, which remaining_participations reads today.
  const cart = (customerId: number, path = '/carts/realtime') =>
    server.client.post(path, cartBody(10, { id: nextCart++, customer_id: customerId }));
  const instantEffects = (body: { effects: Array<{ type: string } & Record<string, unknown>> }) => body.effects.filter((e) => e.type === 'instant_win');

  beforeAll(async () => {
    server = await startServer();
    // Bound to a slug no event sends, so only the prize grants it.
    const points = await server.client.post('/points', { rule_params: { name: 'Prize point', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    expect(points.status, points.text).toBe(200);
    prizePoints = points.body.id;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates an instant win, reads it back in the contract shape, lists it, updates it with PATCH and PUT', async () => {
    const points = await server.client.post('/points', { rule_params: { name: 'Hundred', rule_effects: [{ type: 'direct_value', value: 100 }] } });
    expect(points.status, points.text).toBe(200);
    const id = await create(instantWin({ description: 'Scratch and win' }, [prize({ outcome: { promotion_type: 'points', promotion_id: points.body.id }, weight: '0.25', stock: 10 })], { coupon_params: { static_code: 'SCRATCH' } }));
    const read = await server.client.get(`/instant_wins/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id, campaign_history_id: expect.any(Number), name: 'Scratch card', description: 'Scratch and win', active: true,
      available_from: null, available_to: null, recurrence_type: null, recurrence_days: [], select_customers: 'loyalty',
      customer_registration_countries: [], once: null, once_limit: null, coupon_info: { static_code: 'SCRATCH' },
      // The rest of a campaign read: no cart, so the cart-only settings are empty.
      currency: null, coupon_required: false, tiers: [], achievement_definitions: [], chances_to_accrue: null, chances_to_accrue_period: null,
      chances_to_accrue_limit: null, budget_value: null, budget_period: null, maximum_discount_transaction: null, partner: null,
      custom_entity_definition_id: null, product_ids_rule_conditions: [], product_ids_rule_application: [], locations_ids: [], location_codes: [],
      instant_win: {
        instant_win_prizes: [{
          id: expect.any(Number), name: 'Mug', description: 'A mug', outcome: { promotion_type: 'points', promotion_id: points.body.id },
          weight: 0.25, stock: 10, available_stock: 10, stock_management_strategy: 'remove_prize',
        }],
      },
      // A single read: its rules, order and event (Tally's, for an offline preview, as a game's single read), and it compiles.
      rule_conditions: null, rule_application: null, rule_effects: null, priority: 0, stackability_properties: null, when: null,
      compile_error: null,
    });
    expect((await server.client.get('/instant_wins/SCRATCH', { query: { search_by: 'static_code' } })).body.id).toBe(id);
    // A static code names one campaign whatever its kind: a discount cannot take the instant win's code.
    const clash = await server.client.post('/discounts', {
      rule_params: { name: 'Clash', rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] },
      coupon_params: { static_code: 'SCRATCH' },
    });
    expect(clash.status, clash.text).toBe(400);
    expect(clash.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^coupon_params\.static_code: is already used by campaign/) });
    expect((await server.client.get('/instant_wins', { query: { per_page: '100' } })).body.data.map((w: { id: number }) => w.id)).toContain(id);

    expect((await server.client.patch(`/instant_wins/${id}`, { rule_params: { name: 'Scratch it' } })).body).toEqual({ status: 'success', id });
    expect((await server.client.put(`/instant_wins/${id}`, { instant_win: { instant_win_prizes: [prize({ id: read.body.instant_win.instant_win_prizes[0].id, outcome: undefined, weight: '0.5', stock: 10 })] } })).status).toBe(200);
    const after = (await server.client.get(`/instant_wins/${id}`)).body;
    expect(after).toMatchObject({ name: 'Scratch it', instant_win: { instant_win_prizes: [{ id: read.body.instant_win.instant_win_prizes[0].id, weight: 0.5, outcome: { promotion_type: '', promotion_id: null } }] } });
    const old = await server.client.get(`/instant_wins/${read.body.campaign_history_id}`, { query: { search_by: 'campaign_history_id' } });
    expect(old.body).toMatchObject({ id, name: 'Scratch card' });
    await retire(id);
  });

  it('refuses malformed instant wins with 400 naming the field, and writes nothing', async () => {
    const ratio = await server.client.post('/points', { rule_params: { name: 'Per euro', rule_effects: [{ type: 'ratio', value: 10 }] } });
    const loyalGame = await server.client.post('/games', { rule_params: { name: 'Wheel' }, game: { type: 'wheel', game_prizes: [] } });
    expect(loyalGame.status).toBe(200);
    const before = (await server.client.get('/instant_wins', { query: { per_page: '100' } })).body.data.length;
    const cases: [unknown, RegExp][] = [
      [instantWin({ rule_conditions: { conditions: { and: [{ field: 'total', operator: 'foo', value: 1 }] } } }), /^rule_params\.rule_conditions/],
      [instantWin({}, [prize({ weight: 0.6 }), prize({ weight: 0.6 })]), /^instant_win\.instant_win_prizes: the weights/],
      [instantWin({}, [prize({ outcome: { promotion_type: 'points', promotion_id: ratio.body.id } })]), /^instant_win\.instant_win_prizes\[0\]\.outcome\.promotion_id: must be a points campaign giving a fixed number/],
      [instantWin({}, [prize({ outcome: { promotion_type: 'game', promotion_id: loyalGame.body.id } })]), /^instant_win\.instant_win_prizes\[0\]\.outcome\.promotion_id: must be a targeted game/],
      [instantWin({}, [prize({ outcome: { promotion_type: 'reward' } })]), /^instant_win\.instant_win_prizes\[0\]\.outcome\.promotion_id: is required/],
      [instantWin({}, [prize({ outcome: { promotion_type: 'reward', promotion_id: 999999 } })]), /^instant_win\.instant_win_prizes\[0\]\.outcome\.promotion_id: is not a reward/],
      [instantWin({}, [prize({ stock_management_strategy: 'decrement' })]), /^instant_win\.instant_win_prizes\[0\]\.stock_management_strategy/],
      [instantWin({ select_customers: 'all_customers' }), /^rule_params\.select_customers: must be loyalty or targeted/],
      [instantWin({ budget_value: 5 }), /^rule_params\.budget_value: is not a field of games and instant wins/],
      [{ rule_params: { name: 'No prizes' } }, /^instant_win: is required/],
      // A `when` no event can send (a trigger's and a custom event's slug are slugs of at most 255 characters).
      [instantWin({ when: 'has space' }), /^rule_params\.when: must be a slug \(letters, digits, underscores, hyphens\) of at most 255 characters/],
      [instantWin({ when: 'w'.repeat(256) }), /^rule_params\.when: must be a slug/],
    ];
    for (const [body, error] of cases) {
      const res = await server.client.post('/instant_wins', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toMatch(error);
    }
    expect((await server.client.get('/instant_wins', { query: { per_page: '100' } })).body.data.length).toBe(before);
    // One prize id twice: the two shared one stock counter.
    const id = await create(instantWin({}, [prize({ weight: 0.5 }), prize({ name: 'Cup', weight: 0.5 })]));
    const stored = (await server.client.get(`/instant_wins/${id}`)).body;
    const [first] = stored.instant_win.instant_win_prizes;
    const twice = await server.client.patch(`/instant_wins/${id}`, { instant_win: { instant_win_prizes: [prize({ id: first.id, weight: 0.5 }), prize({ id: first.id, name: 'Cup', weight: 0.5 })] } });
    expect(twice.body).toEqual({ code: 'invalid_request', error: 'instant_win.instant_win_prizes[1].id: is the id of another prize of the list' });
    expect((await server.client.get(`/instant_wins/${id}`)).body).toEqual(stored);
    await retire(id);
  });

  it('answers 404 instant_win_not_found for an unknown instant win', async () => {
    for (const res of [
      await server.client.get('/instant_wins/987654'),
      await server.client.patch('/instant_wins/987654', { rule_params: { name: 'x' } }),
      await server.client.get('/instant_wins/NOPE', { query: { search_by: 'static_code' } }),
      await server.client.get('/instant_wins/987654', { query: { search_by: 'loyalty_rule_history_id' } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('instant_win_not_found');
    }
    expect((await server.client.get('/instant_wins/1', { query: { search_by: 'nope' } })).status).toBe(400);
  });

  it('is evaluated by realtime carts as soon as it is written: prize data only when won, limits and remaining_participations', async () => {
    const who = await customer();
    const id = await create(instantWin({ once: 'num_day', once_limit: 2 }, [prize({ stock: 1 })]));
    const first = await cart(who);
    expect(instantEffects(first.body)).toEqual([{
      rule_id: id, rule_name: 'Scratch card', type: 'instant_win', effect_type: '', distribution_type: '', select_customers: 'loyalty',
      line: -1, value: 0, prize_name: 'Mug', prize_description: 'A mug', prize_rule_id: prizePoints, winned_prize_index: 0,
    }]);
    expect((await server.client.get(`/instant_wins/${id}`, { query: { customer_id: String(who) } })).body).toMatchObject({
      remaining_participations: 1, instant_win: { instant_win_prizes: [{ available_stock: 0 }] },
    });
    // The only prize is out of stock: the customer takes part without prize data.
    const second = await cart(who);
    expect(instantEffects(second.body)).toHaveLength(1);
    expect(instantEffects(second.body)[0]).not.toHaveProperty('prize_name');
    expect((await server.client.get(`/instant_wins/${id}`, { query: { customer_code: `C${who}` } })).body.remaining_participations).toBe(0);
    // Limit reached: no instant_win effect at all.
    expect(instantEffects((await cart(who)).body)).toEqual([]);
    // Without a customer there is no remaining_participations.
    expect((await server.client.get(`/instant_wins/${id}`)).body).not.toHaveProperty('remaining_participations');
    // An update bumps the program's version: the carts see it at once.
    await retire(id);
    expect(instantEffects((await cart(await customer())).body)).toEqual([]);
  });

  it('remaining_participations of a once period without once_limit counts the one participation the period allows', async () => {
    const who = await customer();
    const id = await create(instantWin({ once: 'num_day' }));
    const remaining = async () => (await server.client.get(`/instant_wins/${id}`, { query: { customer_id: String(who) } })).body.remaining_participations;
    try {
      expect(await remaining()).toBe(1);
      expect(instantEffects((await cart(who)).body)).toHaveLength(1);
      expect(await remaining()).toBe(0);
      expect(instantEffects((await cart(who)).body)).toEqual([]);
    } finally {
      await retire(id);
    }
  });

  it("a prize without outcome is the contract's no prize: carts and triggers take part without prize data, and consume no stock", async () => {
    const who = await customer();
    const nothing = { name: 'Better luck next time', weight: 1, stock: 2 };
    const id = await create(instantWin({}, [nothing]));
    const bound = await create(instantWin({ name: 'Trigger draw', when: 'no-luck' }, [nothing]));
    try {
      const read = (await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[0];
      expect(read.outcome).toEqual({ promotion_type: '', promotion_id: null });
      const drawn = [...instantEffects((await cart(who)).body), ...instantEffects((await server.client.post('/trigger', { trigger: 'no-luck', customer_id: who })).body)];
      expect(drawn.map((e) => e.rule_id)).toEqual([id, bound]);
      for (const effect of drawn) {
        for (const field of ['prize_name', 'prize_description', 'prize_rule_id', 'winned_prize_index']) expect(effect).not.toHaveProperty(field);
      }
      expect((await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[0].available_stock).toBe(2);
    } finally {
      await retire(id, bound);
    }
  });

  it('an instant win bound to a trigger (when = its slug) is not played by carts', async () => {
    const id = await create(instantWin({ when: 'birthday' }));
    expect(instantEffects((await cart(await customer())).body)).toEqual([]);
    await retire(id);
  });

  it('delivers prizes won by a trigger: a reward is redeemed at no cost while its stock lasts, a game is delivered to play', async () => {
    const who = await customer();
    await server.client.patch('/company', { languages: ['en', 'es'], default_language: 'en' });
    const reward = await server.client.post('/rewards', { name: { en: 'Tote bag', es: 'Bolsa' }, points: 500, type: 'physical', total_stock: 1 });
    expect(reward.status, reward.text).toBe(200);
    const bag = await create(instantWin({ name: 'Lucky bag', when: 'lucky' }, [prize({ name: 'Bag', outcome: { promotion_type: 'reward', promotion_id: reward.body.id } })]));
    const won = [];
    for (let i = 0; i < 2; i++) {
      const lucky = await server.client.post('/trigger', { trigger: 'lucky', customer_id: who });
      expect(lucky.status, lucky.text).toBe(200);
      won.push(instantEffects(lucky.body)[0].prize_name);
    }
    // The reward had one unit: the second draw is a prize without stock (taking part without prize data), not a win nobody hands over.
    expect(won).toEqual(['Bag', undefined]);
    const redemptions = (await server.client.get('/rewards/transactions', { query: { customer_id: String(who) } })).body.data;
    expect(redemptions).toEqual([expect.objectContaining({ reward_id: reward.body.id, score_expense: 0, source: 'instant_win', origin_type: 'instant_win', loyalty_rule_id: bag })]);
    expect((await server.client.get(`/customers/${who}/points`)).body.score).toBe(0);
    // Its zero-point reward transaction names the reward as a redemption does: the name in the default language.
    const rewardTransactions = (await server.client.get('/points/transactions', { query: { customer_id: String(who), origin_type: 'reward' } })).body.data;
    expect(rewardTransactions.map((t: { origin_info: unknown }) => t.origin_info)).toEqual([{ reward: { id: reward.body.id, name: 'Tote bag', type: 'physical' } }]);

    const wheel = await server.client.post('/games', { rule_params: { name: 'Prize wheel', select_customers: 'targeted' }, game: { type: 'wheel', game_prizes: [] } });
    await create(instantWin({ name: 'Lucky spin', when: 'spin-prize' }, [prize({ name: 'A spin', outcome: { promotion_type: 'game', promotion_id: wheel.body.id } })]));
    await server.client.post('/trigger', { trigger: 'spin-prize', customer_id: who });
    const mine = (await server.client.get('/games', { query: { customer_id: String(who), campaign_audience: 'targeted' } })).body.data;
    expect(mine).toEqual([expect.objectContaining({ id: wheel.body.id, loyalty_rule_history_id: expect.any(Number) })]);
    const played = await server.client.post(`/games/${wheel.body.id}/play`, { customer_id: who, loyalty_rule_history_id: mine[0].loyalty_rule_history_id });
    expect(played.body.effects[0].game_info.status).toBe('no_prize');
  });

  it('a coupon reward won delivers its voucher, as a redemption with process_actions does; a rollback deletes it unused; a deleted coupon is no prize', async () => {
    const who = await customer();
    const campaign = await server.client.post('/discounts', {
      rule_params: { name: 'Won coupon', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 2, distribution: 'total' }] },
      coupon_params: { name: 'Two euros off' },
    });
    expect(campaign.status, campaign.text).toBe(200);
    const couponId = (await server.client.get(`/discounts/${campaign.body.id}`)).body.coupon_info.coupon_id;
    const reward = await server.client.post('/rewards', {
      name: 'Coupon', points: 300, type: 'coupon', coupon_id: couponId, total_stock: 5, validity_duration_type: 'fixed', validity_duration_date: '2099-06-30',
    });
    expect(reward.status, reward.text).toBe(200);
    await create(instantWin({ name: 'Coupon draw', when: 'coupon-draw' }, [prize({ name: 'Coupon', outcome: { promotion_type: 'reward', promotion_id: reward.body.id } })]));
    const vouchers = async () => (await server.client.get('/vouchers', { query: { customer_id: String(who) } })).body.data as Array<Record<string, unknown>>;
    const applies = async () =>
      (await server.client.post('/carts/simulate', cartBody(10, { customer_id: who, coupons_desired: 'all' }))).body.effects.some((e: { rule_id: number }) => e.rule_id === campaign.body.id);

    expect(instantEffects((await server.client.post('/trigger', { trigger: 'coupon-draw', customer_id: who })).body)[0].prize_name).toBe('Coupon');
    expect(await vouchers()).toEqual([expect.objectContaining({ status: 'active', loyalty_rule_id: campaign.body.id, available_to: '2099-06-30T23:59:59Z' })]);
    expect(await applies()).toBe(true);
    const [redemption] = (await server.client.get('/rewards/transactions', { query: { customer_id: String(who) } })).body.data;
    expect(redemption).toMatchObject({ reward_id: reward.body.id, score_expense: 0, source: 'instant_win', status: 'available' });
    expect((await server.client.post(`/rewards/transactions/${redemption.id}/rollback`, { status_detail: 'won by mistake' })).status).toBe(200);
    expect(await vouchers()).toEqual([expect.objectContaining({ status: 'deleted' })]);
    expect(await applies()).toBe(false);

    // Without its coupon the reward cannot be handed over: the draw answers no prize, nothing redeemed, no stock taken.
    expect((await server.client.delete(`/coupons/${couponId}`)).status).toBe(200);
    const drawn = instantEffects((await server.client.post('/trigger', { trigger: 'coupon-draw', customer_id: who })).body);
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).not.toHaveProperty('prize_name');
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: String(who) } })).body.data).toHaveLength(1);
    expect(await vouchers()).toHaveLength(1);
    expect((await server.client.get(`/rewards/${reward.body.id}`)).body).toMatchObject({ available_stock: 5, redemptions_quantity: 0 });
  });

  it('a simulation takes part but draws nothing and consumes nothing', async () => {
    const who = await customer();
    const id = await create(instantWin({}, [prize({ name: 'Simulated', stock: 3 })]));
    const simulated = await cart(who, '/carts/simulate');
    expect(instantEffects(simulated.body)).toHaveLength(1);
    expect(instantEffects(simulated.body)[0]).not.toHaveProperty('prize_name');
    expect((await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[0].available_stock).toBe(3);
    await retire(id);
  });

  it('a cart that only returns goods takes no part and consumes nothing; an exchange takes part as a sale', async () => {
    const who = await customer();
    // The ticket is sold before the instant win exists: only the returns below could take part.
    const ticket = nextCart++;
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: ticket, customer_id: who }))).status).toBe(200);
    const id = await create(instantWin({ once: 'always', once_limit: 1 }, [prize({ stock: 2 })]));
    const read = async () => (await server.client.get(`/instant_wins/${id}`, { query: { customer_id: String(who) } })).body;
    const returned = { line_order: 1, ticket_id: ticket, from_line_order: 1, quantity: 1 };
    const refund = await server.client.post('/carts/realtime', cartBody(-10, {
      id: nextCart++, customer_id: who, lines: [{ order: 1, product_id: 1, total: -10, quantity: -1 }], returns: [returned],
    }));
    expect(refund.status, refund.text).toBe(200);
    expect(instantEffects(refund.body)).toEqual([]);
    expect(await read()).toMatchObject({ remaining_participations: 1, instant_win: { instant_win_prizes: [{ available_stock: 2 }] } });
    // The goods given back for others: the new ones are bought, so the cart takes part and wins.
    const exchange = await server.client.post('/carts/realtime', cartBody(2, {
      id: nextCart++, customer_id: who, lines: [{ order: 1, product_id: 1, total: -10, quantity: -1 }, { order: 2, product_id: 2, total: 12, quantity: 1 }], returns: [returned],
    }));
    expect(exchange.status, exchange.text).toBe(200);
    expect(instantEffects(exchange.body)).toMatchObject([{ rule_id: id, prize_name: 'Mug' }]);
    expect(await read()).toMatchObject({ remaining_participations: 0, instant_win: { instant_win_prizes: [{ available_stock: 1 }] } });
    await retire(id);
  });

  it('delivers a points prize won by a realtime cart, in the cart\'s transaction', async () => {
    const who = await customer();
    // Bound to a trigger slug, so carts do not run the points campaign itself: only the prize grants it.
    const points = await server.client.post('/points', { rule_params: { name: 'Prize points', when: 'prize-points', rule_effects: [{ type: 'direct_value', value: 250, distribution: 'total' }] } });
    expect(points.status, points.text).toBe(200);
    const id = await create(instantWin({ name: 'Points scratch' }, [prize({ name: '250 points', outcome: { promotion_type: 'points', promotion_id: points.body.id } })]));
    try {
      const won = await cart(who);
      expect(instantEffects(won.body)).toContainEqual(expect.objectContaining({ rule_id: id, prize_name: '250 points' }));
      const transactions = (await server.client.get('/points/transactions', { query: { customer_id: String(who) } })).body.data;
      // Its origin_info is the cart as answered, as for the points the cart itself earns.
      const { id: _id, ...answer } = won.body;
      expect(transactions).toContainEqual(expect.objectContaining({ type: 'activity', amount: 250, origin_info: { activity: expect.objectContaining({ ...answer, customer_id: who }) } }));
    } finally {
      await retire(id);
    }
  });

  it('list filters: audience, countries, the customer\'s country', async () => {
    const fr = await create(instantWin({ customer_registration_countries: ['FR'] }));
    const targeted = await create(instantWin({ select_customers: 'targeted' }));
    const spanish = await customer();
    const ids = async (query: Record<string, string>) =>
      (await server.client.get('/instant_wins', { query: { per_page: '100', ...query } })).body.data.map((w: { id: number }) => w.id);
    expect(await ids({ countries: 'FR' })).toContain(fr);
    expect(await ids({ countries: 'ES' })).not.toContain(fr);
    expect(await ids({ 'countries[]': 'FR' })).toContain(fr);
    expect(await ids({ 'countries[]': 'ES' })).not.toContain(fr);
    expect((await server.client.get('/instant_wins', { query: { countries: 'fr' } })).status).toBe(400);
    expect(await ids({ customer_id: String(spanish) })).not.toContain(fr);
    expect(await ids({ campaign_audience: 'targeted' })).toEqual([targeted]);
    // A targeted instant win is listed for a customer only with its delivery (a voucher of the campaign).
    expect(await ids({ customer_id: String(spanish) })).not.toContain(targeted);
    expect((await server.client.get('/instant_wins', { query: { customer_id: '99999999' } })).body.code).toBe('customer_not_found');
    await retire(fr, targeted);
  });

  it('GET /instant_wins/{id} with location, country or customer filters finds the campaign only where it runs', async () => {
    const inStore5 = await create(instantWin({
      customer_registration_countries: ['FR'],
      rule_conditions: { conditions: { and: [{ field: 'location_id', operator: 'in', values: [5] }] } },
    }));
    const spanish = await customer();
    const get = (query: Record<string, string>) => server.client.get(`/instant_wins/${inStore5}`, { query });
    expect((await get({})).status).toBe(200);
    expect((await get({ countries: 'FR', location_id: '5' })).status).toBe(200);
    for (const query of [{ countries: 'ES' }, { location_id: '6' }, { customer_id: String(spanish) }] as Record<string, string>[]) {
      const res = await get(query);
      expect([res.status, res.body.code]).toEqual([404, 'instant_win_not_found']);
    }
    await retire(inStore5);
  });

  it('GET /instant_wins/{id} takes every filter of the list (campaign_audience and tier_id too), as the OpenAPI document lists; other parameters are refused', async () => {
    // Inactive: read all the same, and no cart of the other tests draws it.
    const gold = await create(instantWin({ active: false, rule_conditions: { conditions: { and: [{ field: 'customer.tier', operator: 'in', values: ['gold'] }] } } }));
    const get = (query: Record<string, string>) => server.client.get(`/instant_wins/${gold}`, { query });
    const plain = await get({});
    expect(plain.status).toBe(200);
    expect((await get({ campaign_audience: 'loyalty', tier_id: 'gold' })).body).toEqual(plain.body);
    for (const query of [{ campaign_audience: 'targeted' }, { tier_id: 'silver' }] as Record<string, string>[]) {
      const res = await get(query);
      expect([res.status, res.body.code], JSON.stringify(query)).toEqual([404, 'instant_win_not_found']);
    }
    const badAudience = await get({ campaign_audience: 'all_customers' });
    expect([badAudience.status, badAudience.body.error]).toEqual([400, 'campaign_audience: must be one of loyalty, targeted']);
    // A parameter the operation does not take is refused, as on every operation: the discount lists' category_id.
    expect((await get({ category_id: '1' })).body).toEqual({ code: 'invalid_request', error: 'category_id: is not an accepted parameter' });

    const paths = (await server.client.get('/openapi.json')).body.paths;
    const queryOf = (operation: { parameters: { in?: string; name: string }[] }) => operation.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort();
    const paging = ['per_page', 'starting_after'];
    expect(queryOf(paths['/instant_wins/{id}'].get)).toEqual([...queryOf(paths['/instant_wins'].get).filter((name) => !paging.includes(name)), 'search_by'].sort());
  });

  it('the location filters read the location leaves as the campaign lists do: a location_code not_in excludes the location sent by id', async () => {
    expect((await server.client.post('/locations', { id: 551, code: 'IBCN', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    // Inactive: listed and read all the same, and no cart of the other tests draws it.
    const notBcn = await create(instantWin({ active: false, rule_conditions: { conditions: { and: [{ field: 'location_code', operator: 'not_in', values: ['IBCN'] }] } } }));
    const listed = async (query: Record<string, string>) =>
      (await server.client.get('/instant_wins', { query: { per_page: '100', ...query } })).body.data.some((w: { id: number }) => w.id === notBcn);
    expect([await listed({ location_id: '551' }), await listed({ location_code: 'IBCN' }), await listed({ location_id: '552' })]).toEqual([false, false, true]);
    const single = await server.client.get(`/instant_wins/${notBcn}`, { query: { location_id: '551' } });
    expect([single.status, single.body.code]).toEqual([404, 'instant_win_not_found']);
  });

  it('concurrent realtime carts against a stock of 5: exactly 5 prizes won', async () => {
    const id = await create(instantWin({}, [prize({ name: 'Five', stock: 5 })]));
    const players = await Promise.all(Array.from({ length: 8 }, () => customer()));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => cart(players[i % 8])));
    const effects = results.flatMap((r) => instantEffects(r.body));
    expect(effects).toHaveLength(40);
    expect(effects.filter((e) => 'prize_name' in e)).toHaveLength(5);
    expect((await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[0].available_stock).toBe(0);
    await retire(id);
  });

  it('10,000 realtime carts: prize frequencies match the weights (chi-square) and no prize exceeds its stock', { timeout: 120_000 }, async () => {
    const id = await create(instantWin({}, [
      prize({ name: 'Rare', weight: '0.1', stock: -1 }),
      prize({ name: 'Common', weight: '0.3', stock: -1 }),
      prize({ name: 'Limited', weight: '0.2', stock: 300 }),
    ]));
    const who = await customer();
    const counts: Record<string, number> = { Rare: 0, Common: 0, Limited: 0, none: 0 };
    const CARTS = 10_000;
    let sent = 0;
    const worker = async () => {
      while (sent < CARTS) {
        sent += 1;
        const [effect] = instantEffects((await cart(who)).body) as { prize_name?: string }[];
        counts[effect.prize_name ?? 'none'] += 1;
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    expect(counts.Limited).toBe(300);
    // Once Limited is out of stock its draws are "no prize" (remove_prize): test the other outcomes' shares of all draws.
    const expected: Record<string, number> = { Rare: 1000, Common: 3000 };
    const chi = Object.keys(expected).reduce((sum, k) => sum + (counts[k] - expected[k]) ** 2 / expected[k], 0)
      + ((counts.Limited + counts.none) - 6000) ** 2 / 6000;
    // 2 degrees of freedom; the seeds come from the Company's random secret, so the bound is p = 1e-6.
    expect(chi).toBeLessThan(27.63);
    expect((await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[2].available_stock).toBe(0);
    await retire(id);
  });
});
