import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const prize = (extra: Record<string, unknown> = {}) => ({ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1, ...extra });
const game = (params: Record<string, unknown> = {}, prizes: unknown[] = [prize()], extra: Record<string, unknown> = {}) => ({
  rule_params: { name: 'Wheel', select_customers: 'loyalty', ...params },
  game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: prizes },
  ...extra,
});

describe('games over HTTP', () => {
  let server: TestServer;
  let nextCustomer = 1000;
  const customer = async (extra: Record<string, unknown> = {}) => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, name: `Player ${id}`, registration_location_id: 1, country: 'ES', code: `P${id}`, ...extra });
    expect(res.status).toBe(200);
    return id;
  };
  const create = async (body: unknown) => {
    const res = await server.client.post('/games', body);
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const play = (id: number | string, body: Record<string, unknown>) => server.client.post(`/games/${id}/play`, body);
  const score = async (id: number) => (await server.client.get(`/customers/${id}/points`)).body.score as number;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('keeps an integer beyond 2^53 in a config or display options object with every digit (it was a 500)', async () => {
    const id = await create(game({}, [prize({ display_options: { serial: 123456789012345678901234567890n } })], {}));
    await server.client.patch(`/games/${id}`, { game: { config: { seed: 9007199254740993n } } });
    const read = await server.client.get(`/games/${id}`);
    expect(read.body.game.config).toBe('{"seed":9007199254740993}');
    expect(read.body.game.game_prizes[0].display_options).toBe('{"serial":123456789012345678901234567890}');
  });

  it('takes config and display_options as an object or its JSON text, and refuses any other text (clients parse them)', async () => {
    const id = await create(game({}, [prize({ display_options: '{"color": "red"}' })], {}));
    const sent = await server.client.patch(`/games/${id}`, { game: { config: '{"slices": 6}' } });
    expect(sent.status, sent.text).toBe(200);
    const read = (await server.client.get(`/games/${id}`)).body.game;
    expect([read.config, read.game_prizes[0].display_options]).toEqual(['{"slices": 6}', '{"color": "red"}']);
    for (const [text, error] of [['{not json', 'is not valid JSON'], ['', 'is not valid JSON'], ['[1, 2]', 'must be the JSON text of an object'], ['"wheel"', 'must be the JSON text of an object'], ['null', 'must be the JSON text of an object']]) {
      const config = await server.client.post('/games', game({}, [prize()], { game: { type: 'wheel', config: text, game_prizes: [prize()] } }));
      expect(config.body).toEqual({ code: 'invalid_request', error: `game.config: ${error}` });
      const options = await server.client.patch(`/games/${id}`, { game: { game_prizes: [prize(), prize({ display_options: text })] } });
      expect(options.body).toEqual({ code: 'invalid_request', error: `game.game_prizes[1].display_options: ${error}` });
    }
    // Nothing refused was stored.
    expect((await server.client.get(`/games/${id}`)).body.game).toMatchObject({ config: '{"slices": 6}', game_prizes: [{ display_options: '{"color": "red"}' }] });
  });

  it('creates a game, reads it back in the contract shape, lists it, updates it with PATCH and PUT', async () => {
    const created = await server.client.post('/games', game({ description: 'Spin it', rule_conditions: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } } }));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', id: expect.any(Number) });
    const id = created.body.id;
    const read = await server.client.get(`/games/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id, name: 'Wheel', description: 'Spin it', rule_type: 'gaming', select_customers: 'loyalty', active: true,
      campaign_history_id: expect.any(Number),
      rule_conditions: JSON.stringify({ conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } }),
      game: {
        id: expect.any(Number), loyalty_rule_id: id, type: 'wheel', config: '{"slices":8}', template: 'spin',
        game_prizes: [{ id: expect.any(Number), name: 'Fifty points', outcome: 'points', weight: 1, stock: -1, available_stock: -1, stock_management_strategy: 'decrement', points: 50 }],
      },
    });
    // The rest of a campaign read ("fields of a campaign as above"): a game has no cart, so its cart-only settings are empty.
    expect(read.body).toMatchObject({ currency: null, coupon_required: false, tiers: [], budget_value: null, chances_to_accrue_limit: null, locations_ids: [], product_ids_rule_conditions: [] });
    const list = await server.client.get('/games', { query: { per_page: '100' } });
    expect(list.body.data.map((g: { id: number }) => g.id)).toContain(id);

    const prizeId = read.body.game.game_prizes[0].id;
    const patched = await server.client.patch(`/games/${id}`, { rule_params: { name: 'Big wheel' }, game: { game_prizes: [prize({ id: prizeId, weight: '0.5' }), prize({ name: 'Nothing', outcome: 'no_prize', weight: '0.5' })] } });
    expect(patched.body).toEqual({ status: 'success', id });
    const put = await server.client.put(`/games/${id}`, { rule_params: { description: 'Spin again' } });
    expect(put.status).toBe(200);
    const after = (await server.client.get(`/games/${id}`)).body;
    expect(after).toMatchObject({ name: 'Big wheel', description: 'Spin again' });
    expect(after.game.game_prizes.map((p: { id: number; weight: number }) => [p.id === prizeId, p.weight])).toEqual([[true, 0.5], [false, 0.5]]);
    expect(after.campaign_history_id).toBeGreaterThan(read.body.campaign_history_id);
    // An older version stays readable by its campaign_history_id.
    const old = await server.client.get(`/games/${read.body.campaign_history_id}`, { query: { search_by: 'campaign_history_id' } });
    expect(old.body).toMatchObject({ id, name: 'Wheel' });
  });

  it('suppresses a repeated PATCH by the game, not the path text: 007, 7, 007 runs all three', async () => {
    const id = await create(game());
    const name = async () => (await server.client.get(`/games/${id}`)).body.name;
    expect((await server.client.patch(`/games/00${id}`, { rule_params: { name: 'A' } })).status).toBe(200);
    expect((await server.client.patch(`/games/${id}`, { rule_params: { name: 'B' } })).status).toBe(200);
    expect((await server.client.patch(`/games/00${id}`, { rule_params: { name: 'A' } })).status).toBe(200);
    expect(await name()).toBe('A');
  });

  it('answers names in the Accept-Language language', async () => {
    await server.client.patch('/company', { languages: ['en', 'es'], default_language: 'en' });
    const id = await create(game({ name: { en: 'Wheel', es: 'Ruleta' } }));
    expect((await server.client.get(`/games/${id}`, { headers: { 'Accept-Language': 'es' } })).body.name).toBe('Ruleta');
    expect((await server.client.get(`/games/${id}`)).body.name).toBe('Wheel');
  });

  it('refuses malformed games with 400 naming the field, and writes nothing', async () => {
    const before = (await server.client.get('/games', { query: { per_page: '100' } })).body.data.length;
    const cases: [unknown, RegExp][] = [
      [game({ rule_conditions: { conditions: { and: [{ field: 'customer.country', operator: 'foo', value: 'ES' }] } } }), /^rule_params\.rule_conditions/],
      [game({ rule_conditions: '{"conditions": ' }), /^rule_params\.rule_conditions: is not valid JSON/],
      [game({}, [prize({ weight: 0.7 }), prize({ weight: 0.7 })]), /^game\.game_prizes: the weights/],
      [game({}, [prize({ points: undefined })]), /^game\.game_prizes\[0\]\.points: is required/],
      [game({}, [prize({ outcome: 'discount', points: undefined })]), /^game\.game_prizes\[0\]\.promotion_id: is required/],
      [game({}, [prize({ outcome: 'discount', points: undefined, promotion_id: 999999 })]), /^game\.game_prizes\[0\]\.promotion_id: is not a discount campaign/],
      [game({}, [prize({ stock: -2 })]), /^game\.game_prizes\[0\]\.stock/],
      [game({ name: undefined }), /^rule_params\.name: is required/],
      [game({ select_customers: 'all_customers' }), /^rule_params\.select_customers: must be loyalty or targeted/],
      [game({ budget_value: 10 }), /^rule_params\.budget_value: is not a field of games/],
      [game({ once: 'num_week', once_limit: 1 }), /^rule_params\.once: must be one of/],
      [{ rule_params: { name: 'No game' } }, /^game: is required/],
    ];
    for (const [body, error] of cases) {
      const res = await server.client.post('/games', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toMatch(error);
    }
    expect((await server.client.get('/games', { query: { per_page: '100' } })).body.data.length).toBe(before);
  });

  it('answers 404 game_not_found for an unknown game on every operation', async () => {
    for (const res of [
      await server.client.get('/games/987654'),
      await server.client.patch('/games/987654', { rule_params: { name: 'x' } }),
      await play(987654, { customer_id: 1 }),
      await server.client.get('/games/NOPE', { query: { search_by: 'static_code' } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('game_not_found');
    }
  });

  it('finds a game by static code, and by loyalty_rule_history_id only when targeted (else 400 invalid_request)', async () => {
    const loyal = await create(game({}, [prize()], { coupon_params: { static_code: 'SPIN-1' } }));
    expect((await server.client.get('/games/SPIN-1', { query: { search_by: 'static_code' } })).body.id).toBe(loyal);
    const clash = await server.client.post('/games', game({ name: 'Other' }, [prize()], { coupon_params: { static_code: 'SPIN-1' } }));
    expect(clash.status).toBe(400);
    expect(clash.body.error).toMatch(/^coupon_params\.static_code: is already used/);

    const targeted = await create(game({ select_customers: 'targeted' }));
    const who = await customer();
    const assigned = await server.client.post(`/games/${targeted}/assignments`, { customer_id: who });
    expect(assigned.body).toEqual({ status: 'success', id: expect.any(Number) });
    const history = assigned.body.id;
    const read = await server.client.get(`/games/${history}`, { query: { search_by: 'loyalty_rule_history_id' } });
    expect(read.body).toMatchObject({ id: targeted, loyalty_rule_history_id: history });
    // The game stops being targeted: the delivery no longer names it.
    await server.client.patch(`/games/${targeted}`, { rule_params: { select_customers: 'loyalty' } });
    const refused = await server.client.get(`/games/${history}`, { query: { search_by: 'loyalty_rule_history_id' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_request');
    const notTargeted = await server.client.post(`/games/${loyal}/assignments`, { customer_id: who });
    expect(notTargeted.status).toBe(400);
  });

  it('plays: a won points prize is credited through the ledger, once', async () => {
    const id = await create(game());
    const who = await customer();
    const res = await play(id, { customer_id: who });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 'success',
      effects: [{
        game_info: {
          config: '{"slices":8}', game_id: expect.any(Number), game_type: 'wheel', outcome: expect.any(String),
          prize_id: expect.any(Number), status: 'won', status_message: 'prize won', template: { String: 'spin', Valid: true },
          won_prize: { name: 'Fifty points', points: 50, type: 'points' },
        },
        line: -1, order_apply: 0, rule_id: id, rule_name: 'Wheel', rule_unique_id: expect.any(String), select_customers: 'loyalty', type: 'gaming',
      }],
    });
    expect(JSON.parse(res.body.effects[0].game_info.outcome)).toMatchObject({ status: 'won', type: 'points', points: 50, points_transaction_id: expect.any(String) });
    expect(await score(who)).toBe(50);
    const byCode = await play(id, { customer_code: `P${who}` });
    expect(byCode.body.effects[0].game_info.status).toBe('won');
    expect(await score(who)).toBe(100);
  });

  it('a play repeated with the same Idempotency-Key is answered as the first and plays once', async () => {
    const id = await create(game({ name: 'Replayed wheel' }));
    const who = await customer();
    const headers = { 'Idempotency-Key': `play-${who}` };
    const first = await server.client.post(`/games/${id}/play`, { customer_id: who }, { headers });
    const again = await server.client.post(`/games/${id}/play`, { customer_id: who }, { headers });
    expect(again.text).toBe(first.text);
    expect(await score(who)).toBe(50);
  });

  it('plays: a won discount prize issues a voucher of the discount campaign', async () => {
    const discount = await server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off', max_redemptions: 1, priority: 3 },
    });
    expect(discount.status, discount.text).toBe(200);
    const id = await create(game({}, [{ name: 'Voucher', outcome: 'discount', promotion_id: discount.body.id, weight: 1, stock: 10 }]));
    const who = await customer();
    const res = await play(id, { customer_id: who });
    const outcome = JSON.parse(res.body.effects[0].game_info.outcome);
    expect(outcome).toMatchObject({ status: 'won', type: 'discount', voucher_code: expect.any(String) });
    const voucher = await server.client.get(`/discounts/${outcome.voucher_code}`, { query: { search_by: 'voucher_code' } });
    expect(voucher.status).toBe(200);
    expect(voucher.body.id).toBe(discount.body.id);
    // Issued as every voucher of its coupon is: with the coupon's priority (it was 0, used after the coupon's others).
    expect((await server.client.get(`/vouchers/${outcome.voucher_code}`)).body).toMatchObject({ priority: 3, customer_id: who });
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[0].available_stock).toBe(9);
  });

  // Two prizes of one id shared one stock counter and one delivery: the second was never won as itself.
  it('refuses a prize list that sends one id twice, writing nothing', async () => {
    const id = await create(game({}, [prize({ name: 'First', weight: 0.5 }), prize({ name: 'Second', weight: 0.5 })]));
    const before = (await server.client.get(`/games/${id}`)).body;
    const [first] = before.game.game_prizes;
    const twice = await server.client.patch(`/games/${id}`, { game: { game_prizes: [{ ...prize({ name: 'X', weight: 0.5 }), id: first.id }, { ...prize({ name: 'Y', weight: 0.5 }), id: first.id }] } });
    expect(twice.body).toEqual({ code: 'invalid_request', error: 'game.game_prizes[1].id: is the id of another prize of the list' });
    expect((await server.client.get(`/games/${id}`)).body).toEqual(before);
  });

  it('a discount prize needs a coupon: refused without one when written, drawn without one it is no prize and takes no stock', async () => {
    const discount = async (coupon: boolean) => {
      const res = await server.client.post('/discounts', {
        rule_params: { name: 'Ten off', rule_effects: [{ type: 'direct_value', value: 10, distribution: 'total' }] },
        ...(coupon ? { coupon_params: { name: 'Ten off' } } : {}),
      });
      expect(res.status, res.text).toBe(200);
      return res.body.id as number;
    };
    const voucherPrize = (promotionId: number) => ({ name: 'Voucher', outcome: 'discount', promotion_id: promotionId, weight: 1, stock: 10 });
    const uncouponed = await discount(false);
    const created = await server.client.post('/games', game({}, [voucherPrize(uncouponed)]));
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^game\.game_prizes\[0\]\.promotion_id: is a discount campaign without a coupon/) });

    const couponed = await discount(true);
    const id = await create(game({}, [voucherPrize(couponed)]));
    const patched = await server.client.patch(`/games/${id}`, { game: { game_prizes: [voucherPrize(uncouponed)] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/^game\.game_prizes\[0\]\.promotion_id: is a discount campaign without a coupon/);

    const couponId = (await server.client.get(`/discounts/${couponed}`)).body.coupon_info.coupon_id;
    expect((await server.client.delete(`/coupons/${couponId}`)).status).toBe(200);
    const who = await customer();
    const info = (await play(id, { customer_id: who })).body.effects[0].game_info;
    expect(info).toMatchObject({ status: 'no_prize', prize_id: null, won_prize: null });
    expect(JSON.parse(info.outcome)).toEqual({ status: 'no_prize', prize_id: null });
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[0].available_stock).toBe(10);
  });

  it('a no_prize slot drawn answers status no_prize (not won), names the slot, takes no stock and still counts as a play', async () => {
    const id = await create(game({ once: 'num_day', once_limit: 1 }, [prize({ name: 'Nothing', outcome: 'no_prize', points: undefined, stock: 2 })]));
    const slot = (await server.client.get(`/games/${id}`)).body.game.game_prizes[0].id;
    const who = await customer();
    const res = await play(id, { customer_id: who });
    expect(res.status).toBe(200);
    const info = res.body.effects[0].game_info;
    expect(info).toMatchObject({ status: 'no_prize', status_message: 'no prize', prize_id: slot, won_prize: null });
    expect(JSON.parse(info.outcome)).toEqual({ status: 'no_prize', prize_id: String(slot) });
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[0].available_stock).toBe(2);
    expect(await score(who)).toBe(0);
    expect((await play(id, { customer_id: who })).body.effects).toEqual([]);
  });

  it('answers 200 with no effects when the customer may not play, and plays nothing', async () => {
    const who = await customer();
    const french = await customer({ country: 'FR' });
    const cases: [Record<string, unknown>, number][] = [
      [{ active: false }, who],
      [{ available_from: '2099-01-01' }, who],
      [{ customer_registration_countries: ['ES'] }, french],
      [{ rule_conditions: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'IT' }] } } }, who],
    ];
    for (const [params, player] of cases) {
      const id = await create(game(params));
      const res = await play(id, { customer_id: player });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: 'success', effects: [] });
    }
    expect(await score(who)).toBe(0);
    expect(await score(french)).toBe(0);
  });

  it('conditions read the customer\'s tier', async () => {
    await server.client.patch('/company', { customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } } });
    const structure = [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Silver', threshold: 100 }];
    expect((await server.client.post('/tier_programs', { name: 'Club', attribute: 'spend', structure })).status).toBe(200);
    const silver = await customer({ attributes: { spend: 150 } });
    const bronze = await customer({ attributes: { spend: 10 } });
    const id = await create(game({ rule_conditions: { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Silver' }] } } }));
    expect((await play(id, { customer_id: silver })).body.effects).toHaveLength(1);
    expect((await play(id, { customer_id: bronze })).body.effects).toEqual([]);
  });

  it('plays a game as it is after a change (its program is cached by the game\'s version)', async () => {
    const id = await create(game());
    const who = await customer();
    const points = async () => JSON.parse((await play(id, { customer_id: who })).body.effects[0].game_info.outcome).points;
    expect(await points()).toBe(50);
    const patched = await server.client.patch(`/games/${id}`, { game: { game_prizes: [prize({ name: 'Seventy points', points: 70 })] } });
    expect(patched.status, patched.text).toBe(200);
    expect(await points()).toBe(70);
  });

  it('limits plays per customer with once and once_limit', async () => {
    const id = await create(game({ once: 'num_day', once_limit: 2 }));
    const who = await customer();
    const other = await customer();
    for (const expected of [1, 1, 0]) expect((await play(id, { customer_id: who })).body.effects).toHaveLength(expected);
    expect((await play(id, { customer_id: other })).body.effects).toHaveLength(1);
    expect(await score(who)).toBe(100);
  });

  it('a targeted game plays only with an unplayed delivery of the customer', async () => {
    const id = await create(game({ select_customers: 'targeted' }));
    const who = await customer();
    const other = await customer();
    const history = (await server.client.post(`/games/${id}/assignments`, { customer_code: `P${who}` })).body.id;
    expect((await play(id, { customer_id: who })).body.effects).toEqual([]);
    expect((await play(id, { customer_id: other, loyalty_rule_history_id: history })).body.effects).toEqual([]);
    expect((await play(id, { customer_id: who, loyalty_rule_history_id: 424242 })).body.effects).toEqual([]);
    expect((await play(id, { customer_id: who, loyalty_rule_history_id: history })).body.effects).toHaveLength(1);
    expect((await play(id, { customer_id: who, loyalty_rule_history_id: history })).body.effects).toEqual([]);
    // A customer's list shows the targeted games delivered to them, with the delivery.
    const second = (await server.client.post(`/games/${id}/assignments`, { customer_id: who })).body.id;
    const mine = (await server.client.get('/games', { query: { customer_id: String(who), campaign_audience: 'targeted', per_page: '100' } })).body.data;
    expect(mine.map((g: { id: number; loyalty_rule_history_id: number }) => [g.id, g.loyalty_rule_history_id])).toContainEqual([id, second]);
    const theirs = (await server.client.get('/games', { query: { customer_id: String(other), campaign_audience: 'targeted', per_page: '100' } })).body.data;
    expect(theirs.map((g: { id: number }) => g.id)).not.toContain(id);
  });

  it('a merge moves the old customer\'s deliveries to the new customer', async () => {
    const id = await create(game({ name: 'Merged wheel', select_customers: 'targeted' }));
    const old = await customer();
    const kept = await customer();
    const history = (await server.client.post(`/games/${id}/assignments`, { customer_id: old })).body.id;
    expect((await server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: kept })).status).toBe(200);
    expect((await play(id, { customer_id: kept, loyalty_rule_history_id: history })).body.effects).toHaveLength(1);
    expect(await score(kept)).toBe(50);
  });

  it('validates the play body: exactly one of customer_id and customer_code, an existing customer', async () => {
    const id = await create(game());
    const who = await customer();
    for (const body of [{}, { customer_id: who, customer_code: `P${who}` }, { customer_id: 0 }, { customer_code: 'x'.repeat(256) }]) {
      const res = await play(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
    const missing = await play(id, { customer_id: 99999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer_not_found');
    // The contract gives the play's customer_code up to 255 characters: a code longer than any customer's (36) names nobody.
    const longCode = await play(id, { customer_code: 'x'.repeat(255) });
    expect(longCode.status).toBe(404);
    expect(longCode.body.code).toBe('customer_not_found');
  });

  it('list filters: audience, countries, tier and location from the rule conditions, pagination', async () => {
    const tierRule = { conditions: { and: [{ field: 'customer.tier', operator: 'in', values: ['gold'] }, { field: 'location_id', operator: 'eq', value: 77 }] } };
    const fr = await create(game({ customer_registration_countries: ['FR'] }));
    const gold = await create(game({ rule_conditions: tierRule }));
    const ids = async (query: Record<string, string>) =>
      (await server.client.get('/games', { query: { per_page: '100', ...query } })).body.data.map((g: { id: number }) => g.id);
    expect(await ids({ countries: 'FR' })).toContain(fr);
    expect(await ids({ countries: 'IT' })).not.toContain(fr);
    // The repeatable filter's other forms (as on GET /discounts and GET /rewards), each code in capitals.
    expect(await ids({ 'countries[]': 'FR' })).toContain(fr);
    expect(await ids({ 'countries[]': 'IT' })).not.toContain(fr);
    expect(await ids({ countries: 'IT,FR' })).toContain(fr);
    const lower = await server.client.get('/games', { query: { countries: 'fr' } });
    expect([lower.status, lower.body.code, lower.body.error]).toEqual([400, 'invalid_request', 'countries: fr is not an ISO 3166-1 alpha-2 code in capitals']);
    expect(await ids({ tier_id: 'gold' })).toContain(gold);
    expect(await ids({ tier_id: 'silver' })).not.toContain(gold);
    expect(await ids({ tier_id: '' })).toContain(gold);
    expect(await ids({ location_id: '77' })).toContain(gold);
    expect(await ids({ location_id: '78' })).not.toContain(gold);
    expect(await ids({ campaign_audience: 'targeted' })).not.toContain(gold);
    const first = await server.client.get('/games', { query: { per_page: '2' } });
    expect(first.body.data).toHaveLength(2);
    const second = await server.client.get('/games', { query: { per_page: '2', starting_after: first.body.next_token_starts_after } });
    expect(second.body.data[0].id).toBeGreaterThan(first.body.data[1].id);
    expect((await server.client.get('/games', { query: { campaign_audience: 'all' } })).status).toBe(400);
  });

  it('list filters by location keep the games whose location leaves admit it, by id or code (either resolved through company data)', async () => {
    for (const [id, code] of [[770, 'GMAD'], [771, 'GBCN']] as const) {
      expect((await server.client.post('/locations', { id, code, name: code, country: 'ES' })).status).toBe(200);
    }
    const leaf = (field: string, operator: string, value: unknown) => ({ field, operator, [Array.isArray(value) ? 'values' : 'value']: value });
    const withLeaves = (...items: unknown[]) => create(game({ rule_conditions: { conditions: { and: items } } }));
    const inMadrid = await withLeaves(leaf('location_id', 'in', [770]));
    const notBcn = await withLeaves(leaf('location_code', 'not_in', ['GBCN']));
    const notMadrid = await withLeaves(leaf('location_id', 'neq', 770));
    const madridOrGold = await withLeaves({ or: [leaf('location_code', 'eq', 'GMAD'), leaf('customer.tier', 'in', ['gold'])] });
    const ids = async (query: Record<string, string>) => {
      const res = await server.client.get('/games', { query: { per_page: '100', ...query } });
      expect(res.status, res.text).toBe(200);
      const listed = (res.body.data as { id: number }[]).map((g) => g.id);
      return [inMadrid, notBcn, notMadrid, madridOrGold].filter((id) => listed.includes(id));
    };
    for (const atBarcelona of [{ location_code: 'GBCN' }, { location_id: '771' }] as Record<string, string>[]) expect(await ids(atBarcelona)).toEqual([notMadrid, madridOrGold]);
    for (const atMadrid of [{ location_code: 'GMAD' }, { location_id: '770' }] as Record<string, string>[]) expect(await ids(atMadrid)).toEqual([inMadrid, notBcn, madridOrGold]);
    expect((await server.client.get('/games', { query: { location_id: '771', location_code: 'GBCN' } })).status).toBe(400);
  });

  it('concurrent plays against a stock of 5: exactly 5 prizes granted', async () => {
    const id = await create(game({}, [prize({ stock: 5 })]));
    const players = await Promise.all(Array.from({ length: 10 }, () => customer()));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => play(id, { customer_id: players[i % 10] })));
    const statuses = results.map((r) => r.body.effects[0].game_info.status);
    expect(statuses.filter((s) => s === 'won')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'stock_exhausted')).toHaveLength(35);
    const scores = await Promise.all(players.map(score));
    expect(scores.reduce((a, b) => a + b, 0)).toBe(250);
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[0].available_stock).toBe(0);
  });

  it('stock strategies: decrement answers stock_exhausted once the stock is won; unlimited ignores the stock, read as available_stock -1', async () => {
    const counted = await create(game({ name: 'Counted' }, [prize({ stock: 1 })]));
    const endless = await create(game({ name: 'Endless' }, [prize({ stock: 0, stock_management_strategy: 'unlimited' })]));
    const who = await customer();
    const status = async (id: number) => (await play(id, { customer_id: who })).body.effects[0].game_info;
    expect(await status(counted)).toMatchObject({ status: 'won', won_prize: { points: 50 } });
    expect(await status(counted)).toMatchObject({ status: 'stock_exhausted', won_prize: null, status_message: 'the prize drawn is out of stock' });
    for (let i = 0; i < 2; i++) expect(await status(endless)).toMatchObject({ status: 'won', won_prize: { points: 50 } });
    expect(await score(who)).toBe(150);
    const prizes = async (id: number) => (await server.client.get(`/games/${id}`)).body.game.game_prizes;
    expect(await prizes(counted)).toEqual([expect.objectContaining({ stock: 1, available_stock: 0, stock_management_strategy: 'decrement' })]);
    expect(await prizes(endless)).toEqual([expect.objectContaining({ stock: 0, available_stock: -1, stock_management_strategy: 'unlimited' })]);
  });

  it('a stock lowered below what was already won leaves none: available_stock 0 and every later play stock_exhausted', async () => {
    const id = await create(game({}, [prize({ stock: 3 })]));
    const who = await customer();
    for (let i = 0; i < 3; i += 1) expect((await play(id, { customer_id: who })).body.effects[0].game_info.status).toBe('won');
    const prizeId = (await server.client.get(`/games/${id}`)).body.game.game_prizes[0].id;
    expect((await server.client.patch(`/games/${id}`, { game: { game_prizes: [prize({ id: prizeId, stock: 2, points: 7 })] } })).status).toBe(200);
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[0]).toMatchObject({ stock: 2, available_stock: 0 });
    for (let i = 0; i < 3; i += 1) expect((await play(id, { customer_id: who })).body.effects[0].game_info.status).toBe('stock_exhausted');
    expect(await score(who)).toBe(150);
  });

  it('10,000 plays: outcome frequencies match the weights (chi-square) and no prize exceeds its stock', { timeout: 120_000 }, async () => {
    const id = await create(game({}, [
      prize({ name: 'Rare', weight: '0.1', stock: -1 }),
      prize({ name: 'Common', weight: '0.3', stock: -1, stock_management_strategy: 'unlimited' }),
      prize({ name: 'Limited', weight: '0.2', stock: 500 }),
    ]));
    const who = await customer();
    const counts: Record<string, number> = { Rare: 0, Common: 0, Limited: 0, none: 0 };
    let limitedWon = 0;
    const PLAYS = 10_000;
    const CONCURRENCY = 32;
    let next = 0;
    const worker = async () => {
      while (next < PLAYS) {
        next += 1;
        const info = (await play(id, { customer_id: who })).body.effects[0].game_info;
        const drawn = info.prize_id === null ? 'none' : info.status === 'won' ? info.won_prize.name : 'Limited';
        counts[drawn] += 1;
        if (drawn === 'Limited' && info.status === 'won') limitedWon += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const expected: Record<string, number> = { Rare: 1000, Common: 3000, Limited: 2000, none: 4000 };
    const chi = Object.keys(expected).reduce((sum, k) => sum + (counts[k] - expected[k]) ** 2 / expected[k], 0);
    // 3 degrees of freedom; the seeds come from the Company's random secret, so the bound is p = 1e-6.
    expect(chi).toBeLessThan(30.66);
    expect(limitedWon).toBe(500);
    expect((await server.client.get(`/games/${id}`)).body.game.game_prizes[2].available_stock).toBe(0);
  });
});

// A fresh Company environment: its first plays wait for the draw secret's transaction between their status check
// and their own transaction, and the merge sent among them commits in that gap.
describe('game plays racing a merge of their customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('never credit the merged customer: the status is read again inside the play\'s transaction', async () => {
    for (const id of [1, 2]) await server.client.post('/customers', { id, name: `P${id}`, registration_location_id: 1 });
    const created = await server.client.post('/games', game());
    expect(created.status, created.text).toBe(200);
    const playing = () => Array.from({ length: 20 }, () => server.client.post(`/games/${created.body.id}/play`, { customer_id: 1 }));
    const before = playing();
    const transfer = server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 });
    const plays = [...before, ...playing()];
    expect((await transfer).status).toBe(200);
    const won = (await Promise.all(plays)).filter((res) => res.body.effects.length > 0).length;
    expect((await server.client.get('/points/transactions', { query: { customer_id: '1' } })).body.data).toEqual([]);
    expect((await server.client.get('/customers/2/points')).body.score).toBe(50 * won);
  });
});

describe('game deliveries to merged and merging customers', () => {
  let server: TestServer;
  beforeAll(async () => {
    // transfer-new's merges stay merging for the file's duration.
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: '600000' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('are refused (402 customer_inactive), delivering nothing: nobody could play them; unmerged, the customer gets one', async () => {
    for (const id of [1, 2, 3, 4]) await server.client.post('/customers', { id, code: `G${id}`, name: `G${id}`, registration_location_id: 1 });
    expect((await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 3, new_customer_id: 4 })).status).toBe(200);
    const created = await server.client.post('/games', game({ select_customers: 'targeted' }));
    expect(created.status, created.text).toBe(200);
    const assign = (body: Record<string, unknown>) => server.client.post(`/games/${created.body.id}/assignments`, body);
    for (const [body, id, status] of [[{ customer_id: 1 }, 1, 'merged'], [{ customer_code: 'G1' }, 1, 'merged'], [{ customer_id: 3 }, 3, 'merging']] as const) {
      const [field] = Object.keys(body);
      const res = await assign(body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([402, { code: 'customer_inactive', error: `${field}: customer ${id} is ${status}` }]);
    }
    // Nothing delivered: no customer, the one merged into included, sees the game.
    for (const id of [1, 2, 3, 4]) expect((await server.client.get('/games', { query: { customer_id: String(id) } })).body.data, `customer ${id}`).toEqual([]);
    const unmerged = await server.client.post('/customers/1/unmerge', undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'false' } });
    expect(unmerged.status).toBe(200);
    const delivered = await assign({ customer_id: 1 });
    expect(delivered.status, delivered.text).toBe(200);
    const played = await server.client.post(`/games/${created.body.id}/play`, { customer_id: 1, loyalty_rule_history_id: delivered.body.id });
    expect(played.body.effects).toHaveLength(1);
  });
});

// Plays in flight while the soft delete commits: found before it, written after. The audit log orders them: its
// entries are numbered in commit order, a play's and the delete's alike.
describe('game plays racing a soft delete of their customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('credit nothing once the delete committed: the customer is read again inside the play\'s transaction', async () => {
    const created = await server.client.post('/games', game());
    expect(created.status, created.text).toBe(200);
    const entries = async (query: Record<string, string>) => (await server.client.get('/audit_log', { query: { per_page: '100', ...query } })).body.data as { id: number; body: string }[];
    // A first play writes the draw secret in a transaction of its own (an entry more): made here, each play is one entry.
    await server.client.post('/customers', { id: 100, name: 'P100', registration_location_id: 1 });
    expect((await server.client.post(`/games/${created.body.id}/play`, { customer_id: 100 })).status).toBe(200);
    for (let id = 1; id <= 5; id++) {
      await server.client.post('/customers', { id, name: `P${id}`, registration_location_id: 1 });
      const playing = () => Array.from({ length: 10 }, () => server.client.post(`/games/${created.body.id}/play`, { customer_id: id }));
      const before = playing();
      const deleted = server.client.delete(`/customers/${id}`, { query: { hard: 'false' }, headers: { 'Content-Type': 'application/json' } });
      const plays = [...before, ...playing()];
      expect((await deleted).status).toBe(200);
      await Promise.all(plays);
      const [deletion] = await entries({ operation: 'customers.delete', target: `customer:${id}` });
      // The delete redacted the bodies of the plays naming the customer: its plays are those between its create and its delete.
      const [creation] = await entries({ operation: 'customers.create', target: `customer:${id}` });
      const playedBefore = (await entries({ operation: 'games.play' })).filter((e) => e.id > creation.id && e.id < deletion.id);
      // Every play wins 50 points; those committed after the delete win nothing.
      const exported = await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } });
      expect(exported.body.points.score, `customer ${id}`).toBe(50 * playedBefore.length);
    }
  });
});

describe('a game play\'s tier', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  // Cart metrics are kept by the Company's local date and a tier measures them up to its local today (as carts
  // and triggers do). At UTC+14 the local date is the UTC date's next day from 10:00 UTC: a play measuring up to
  // the UTC date then misses today's carts (before 10:00 UTC both dates agree and this asserts the same tier).
  it('measures cart metrics up to the Company\'s local date', async () => {
    expect((await server.client.patch('/company', { timezone: 'Pacific/Kiritimati' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
    const structure = [{ level: 1, name: 'Member', threshold: 0 }, { level: 2, name: 'Star', threshold: 20 }];
    expect((await server.client.post('/tier_programs', { name: 'Earned', attribute: 'points_earned', period_months: 12, structure })).status).toBe(200);
    expect((await realtimeCart(server.client, 1, 2.99)).body.score).toBe(29);
    const created = await server.client.post('/games', game({ rule_conditions: { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Star' }] } } }));
    expect(created.status, created.text).toBe(200);
    const played = await server.client.post(`/games/${created.body.id}/play`, { customer_id: 1 });
    expect(played.status, played.text).toBe(200);
    expect(played.body.effects).toHaveLength(1);
  });
});
