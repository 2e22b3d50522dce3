import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, grant, transactions, triggerCampaign } from '../points/testing.js';

describe('POST /trigger', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]) await createCustomer(server.client, id, { country: id === 23 ? 'FR' : 'ES', code: `C${id}` });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('grants a campaign\'s points as they are after a change (programs are cached by the records\' versions)', async () => {
    await createCustomer(server.client, 41);
    const campaign = await triggerCampaign(server.client, 'anniversary', 10);
    expect((await grant(server.client, 'anniversary', 41, campaign)).score).toBe(10);
    expect((await grant(server.client, 'anniversary', 41, campaign, { score_overwrite: 7 })).score).toBe(7);
    const patched = await server.client.patch(`/points/${campaign}`, { rule_params: { rule_effects: [{ type: 'direct_value', value: 25, distribution: 'total' }] } });
    expect(patched.status, patched.text).toBe(200);
    expect((await grant(server.client, 'anniversary', 41, campaign)).score).toBe(25);
    expect((await grant(server.client, 'anniversary', 41, campaign, { score_overwrite: 7 })).score).toBe(7);
  });

  it('grants a campaign\'s points with the contract\'s response, location, comments and author', async () => {
    const campaign = await triggerCampaign(server.client, 'birthday', 200);
    expect((await server.client.post('/locations', { id: 9, name: 'Shop 9', country: 'ES' })).status).toBe(200);
    const res = await server.client.post(
      '/trigger',
      { trigger: 'birthday', customer_id: 20, loyalty_rule_id: campaign, location_id: 9, comments: 'happy day' },
      { headers: { 'X-Author-Email': 'crm@shop.example' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customer_code: 'C20',
      loyalty_score_id: campaign,
      score: 200,
      score_as_money: 2,
      customer: { id: 20, code: 'C20', score: 200, score_available: 200 },
      scores: [{ score: 200, loyalty_score_id: campaign, available_from: expect.any(String), available_to: null }],
      effects: [expect.objectContaining({ rule_id: campaign, type: 'points', value: 200, line: -1 })],
    });
    const [tx] = await transactions(server.client, 20);
    expect(tx).toMatchObject({ type: 'trigger', location_id: 9, author: 'crm@shop.example', origin_info: { comments: 'happy day', slug: 'birthday' } });
    const alias = await server.client.post('/scores/trigger', { trigger: 'birthday', customer_id: 20, loyalty_score_id: campaign });
    expect(alias.body.score).toBe(200);
    expect((await balance(server.client, 20)).score).toBe(400);
    expect((await server.client.post('/locations', { id: 77, code: 'SHOP-77', name: 'Shop', country: 'ES' })).status).toBe(200);
    await server.client.post('/trigger', { trigger: 'birthday', customer_id: 20, loyalty_rule_id: campaign, location_code: 'SHOP-77' });
    expect((await transactions(server.client, 20)).at(-1)).toMatchObject({ location_id: 77 });
    // Either identifier must name a location: the transaction records it.
    for (const [field, value] of [['location_code', 'NOPE'], ['location_id', 76]] as const) {
      const unknown = await server.client.post('/trigger', { trigger: 'birthday', customer_id: 20, loyalty_rule_id: campaign, [field]: value });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 'location_not_found', error: `${field}: no location ${value}` });
    }
    // Both identifiers (the contract lists both, exclusive nowhere): they must name the same location.
    for (const location of [{ location_id: 77, location_code: 'SHOP-88' }, { location_id: 9, location_code: 'SHOP-77' }]) {
      const differ = await server.client.post('/trigger', { trigger: 'birthday', customer_id: 20, loyalty_rule_id: campaign, ...location });
      expect(differ.body).toEqual({ code: 'invalid_request', error: `location_code: is not the code of location ${location.location_id}` });
    }
    expect((await balance(server.client, 20)).score).toBe(600);
    const both = await server.client.post('/trigger', { trigger: 'birthday', customer_id: 20, loyalty_rule_id: campaign, location_id: 77, location_code: 'SHOP-77' });
    expect(both.status, both.text).toBe(200);
    expect((await transactions(server.client, 20)).at(-1)).toMatchObject({ location_id: 77 });
    expect((await balance(server.client, 20)).score).toBe(800);
  });

  it('gives location rules the trigger\'s location, by either identifier, as a cart does', async () => {
    expect((await server.client.post('/locations', { id: 88, code: 'SHOP-88', name: 'Shop 88', country: 'ES' })).status).toBe(200);
    await createCustomer(server.client, 40);
    await triggerCampaign(server.client, 'visit', 30, { rule_conditions: { conditions: { and: [{ field: 'location_code', operator: 'in', values: ['SHOP-88'] }] } } });
    const scoreAt = async (location: Record<string, unknown>) => {
      const res = await server.client.post('/trigger', { trigger: 'visit', customer_id: 40, ...location });
      expect(res.status, res.text).toBe(200);
      return res.body.score as number;
    };
    expect(await scoreAt({ location_id: 88 })).toBe(30);
    expect(await scoreAt({ location_code: 'SHOP-88' })).toBe(30);
    expect((await server.client.post('/locations', { id: 87, code: 'SHOP-87', name: 'Shop 87', country: 'ES' })).status).toBe(200);
    expect(await scoreAt({ location_id: 87 })).toBe(0);
    expect(await scoreAt({})).toBe(0);
    expect((await balance(server.client, 40)).score).toBe(60);
  });

  it('score_overwrite replaces the campaign\'s points, up to 50000000, and needs loyalty_rule_id', async () => {
    const campaign = await triggerCampaign(server.client, 'bonus', 10);
    const res = await server.client.post('/trigger', { trigger: 'bonus', customer_id: 21, loyalty_rule_id: campaign, score_overwrite: 50000000 });
    expect(res.body.score).toBe(50000000);
    const over = await server.client.post('/trigger', { trigger: 'bonus', customer_id: 21, loyalty_rule_id: campaign, score_overwrite: 50000001 });
    expect(over.status).toBe(400);
    expect(over.body.error).toContain('score_overwrite');
    const fraction = await server.client.post('/trigger', { trigger: 'bonus', customer_id: 21, loyalty_rule_id: campaign, score_overwrite: 2.5 });
    expect([fraction.status, fraction.body.error.startsWith('score_overwrite')]).toEqual([400, true]);
    const alone = await server.client.post('/trigger', { trigger: 'bonus', customer_id: 21, score_overwrite: 5 });
    expect(alone.status).toBe(400);
    expect(alone.body.error).toContain('score_overwrite');
    expect((await balance(server.client, 21)).score).toBe(50000000);
  });

  it('engine version 2 runs every bound campaign whose conditions hold; version 1 runs one and needs country', async () => {
    const a = await triggerCampaign(server.client, 'signup', 10);
    const b = await triggerCampaign(server.client, 'signup', 20);
    const french = await triggerCampaign(server.client, 'signup', 40, {
      rule_conditions: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'FR' }] } },
    });
    await triggerCampaign(server.client, 'other-slug', 1000);
    // loyalty_rule_id is optional although the body list says required: the engine versions' text runs rules without it.
    const v2 = await server.client.post('/trigger', { trigger: 'signup', customer_id: 22 });
    expect(v2.status, v2.text).toBe(200);
    expect(v2.body.score).toBe(30);
    expect(v2.body.effects.map((e: { rule_id: number }) => e.rule_id)).toEqual([a, b]);
    const fr = await server.client.post('/trigger', { trigger: 'signup', customer_id: 23 });
    expect(fr.body.score).toBe(70);
    expect(fr.body.effects.map((e: { rule_id: number }) => e.rule_id)).toContain(french);

    await server.client.patch('/company', { trigger_engine_version: 1 });
    const noCountry = await server.client.post('/trigger', { trigger: 'signup', customer_id: 24 });
    expect(noCountry.status).toBe(400);
    expect(noCountry.body.error).toContain('country');
    const v1 = await server.client.post('/trigger', { trigger: 'signup', customer_id: 24, country: 'ES' });
    expect(v1.body.score).toBe(10);
    expect(v1.body.effects).toHaveLength(1);
    await server.client.patch('/company', { trigger_engine_version: 2 });
    expect((await balance(server.client, 24)).score).toBe(10);
  });

  it('checks campaigns\' countries against the trigger\'s country, by default the customer\'s', async () => {
    const campaign = await triggerCampaign(server.client, 'french-only', 9, { customer_registration_countries: ['FR'] });
    const spanish = await server.client.post('/trigger', { trigger: 'french-only', customer_id: 26, loyalty_rule_id: campaign });
    expect(spanish.body.score).toBe(0);
    const inFrance = await server.client.post('/trigger', { trigger: 'french-only', customer_id: 26, loyalty_rule_id: campaign, country: 'FR' });
    expect(inFrance.body.score).toBe(9);
    const french = await server.client.post('/trigger', { trigger: 'french-only', customer_id: 23, loyalty_rule_id: campaign });
    expect(french.body.score).toBe(9);
    expect((await server.client.post('/trigger', { trigger: 'french-only', customer_id: 26, country: 'fr' })).status).toBe(400);
    // Two capitals that name no country: refused as every country a request takes is.
    const unknown = await server.client.post('/trigger', { trigger: 'french-only', customer_id: 26, loyalty_rule_id: campaign, country: 'XX' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: 'invalid_request', error: 'country: XX is not an ISO 3166-1 alpha-2 country' });
    expect((await balance(server.client, 26)).score).toBe(9);
    // Registered at a French store, Spanish by profile: the registration location's country applies, and is the one recorded.
    expect((await server.client.post('/locations', { id: 78, name: 'Lyon', country: 'FR' })).status).toBe(200);
    await createCustomer(server.client, 31, { country: 'ES', registration_location_id: 78 });
    const registered = await server.client.post('/trigger', { trigger: 'french-only', customer_id: 31, loyalty_rule_id: campaign });
    expect(registered.body.score).toBe(9);
    const [recorded] = await transactions(server.client, 31, { origin_type: 'trigger' });
    expect(recorded.origin_info).toMatchObject({ slug: 'french-only', country: 'FR' });
  });

  it('applies once limits: a second trigger within the period grants nothing', async () => {
    const campaign = await triggerCampaign(server.client, 'once', 15, { once: 'always', once_limit: 1 });
    expect((await server.client.post('/trigger', { trigger: 'once', customer_id: 25, loyalty_rule_id: campaign })).body.score).toBe(15);
    const again = await server.client.post('/trigger', { trigger: 'once', customer_id: 25, loyalty_rule_id: campaign });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ score: 0, scores: [], effects: [] });
    expect((await balance(server.client, 25)).score).toBe(15);
  });

  it('takes the deprecated loyalty_score_id beside loyalty_rule_id only when both name the same campaign', async () => {
    await createCustomer(server.client, 43);
    const [chosen, other] = [await triggerCampaign(server.client, 'welcome', 15), await triggerCampaign(server.client, 'welcome', 90)];
    const differ = await server.client.post('/scores/trigger', { trigger: 'welcome', customer_id: 43, loyalty_rule_id: chosen, loyalty_score_id: other });
    expect({ status: differ.status, body: differ.body }).toEqual({
      status: 400, body: { code: 'invalid_request', error: `loyalty_score_id: is not loyalty_rule_id ${chosen} (send one of them)` },
    });
    expect(await transactions(server.client, 43)).toEqual([]);
    const same = await server.client.post('/trigger', { trigger: 'welcome', customer_id: 43, loyalty_rule_id: chosen, loyalty_score_id: `00${chosen}` });
    expect([same.status, same.body.score, same.body.loyalty_score_id]).toEqual([200, 15, chosen]);
    expect((await balance(server.client, 43)).score).toBe(15);
  });

  it('refuses unknown customers and campaigns, campaigns of another trigger, and bad fields', async () => {
    const campaign = await triggerCampaign(server.client, 'known', 5);
    for (const [body, status, code, field] of [
      [{ trigger: 'known', customer_id: 999, loyalty_rule_id: campaign }, 404, 'customer_not_found', 'customer_id'],
      [{ trigger: 'known', customer_id: 26, loyalty_rule_id: 987654 }, 404, 'loyalty_rule_not_found', 'loyalty_rule_id'],
      [{ trigger: 'unknown', customer_id: 26, loyalty_rule_id: campaign }, 400, 'invalid_request', 'loyalty_rule_id'],
      [{ customer_id: 26 }, 400, 'invalid_request', 'trigger'],
      [{ trigger: 'has space', customer_id: 26 }, 400, 'invalid_request', 'trigger'],
      [{ trigger: 'known' }, 400, 'invalid_request', 'customer_id'],
    ] as const) {
      const res = await server.client.post('/trigger', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toContain(field);
    }
    expect((await transactions(server.client, 26)).filter((t) => t.origin_info.slug === 'known')).toEqual([]);
  });

  it('never overspends a budget under concurrent triggers', async () => {
    // 1.00 of budget at 0.01 a point: 100 points in all.
    const campaign = await triggerCampaign(server.client, 'budgeted', 30, { budget_value: 1, budget_period: 'always' });
    const customers = [27, 28, 29];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.client.post('/trigger', { trigger: 'budgeted', customer_id: customers[i % 3], loyalty_rule_id: campaign })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const granted = results.reduce((sum, r) => sum + r.body.score, 0);
    // Re-evaluated inside the transaction when the budget moved: the budget is used exactly, never more.
    expect(granted).toBe(100);
    let inLedger = 0;
    for (const id of customers) inLedger += (await balance(server.client, id)).score;
    expect(inLedger).toBe(granted);
  });

  it('draws the instant wins bound to the slug: prize data only when won, stock never exceeded, points prizes delivered', async () => {
    const prizePoints = await server.client.post('/points', { rule_params: { name: 'Prize points', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 100 }] } });
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: 'Spin', select_customers: 'loyalty', when: 'spin' },
      instant_win: { instant_win_prizes: [{ name: 'Hundred', weight: 1, stock: 2, outcome: { promotion_type: 'points', promotion_id: prizePoints.body.id } }] },
    });
    expect(win.status, win.text).toBe(200);
    const spins = [];
    for (let i = 0; i < 3; i++) spins.push((await server.client.post('/trigger', { trigger: 'spin', customer_id: 30 })).body);
    const effects = spins.map((b) => b.effects.filter((e: { type: string }) => e.type === 'instant_win'));
    expect(effects.every((e) => e.length === 1 && e[0].rule_id === win.body.id)).toBe(true);
    expect(effects.map((e) => e[0].prize_name ?? null)).toEqual(['Hundred', 'Hundred', null]);
    expect((await balance(server.client, 30)).score).toBe(200);
    // Another slug draws nothing.
    const other = await server.client.post('/trigger', { trigger: 'not-spin', customer_id: 30 });
    expect(other.body.effects).toEqual([]);
  });

  it('names campaigns and instant wins in the Accept-Language language, as carts do; the points transaction keeps the default name', async () => {
    expect((await server.client.patch('/company', { languages: ['en', 'es'] })).status).toBe(200);
    await createCustomer(server.client, 42);
    const campaign = await triggerCampaign(server.client, 'fiesta', 5, { name: { en: 'Party points', es: 'Puntos de fiesta' } });
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: { en: 'Party wheel', es: 'Ruleta de fiesta' }, when: 'fiesta' },
      instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] },
    });
    expect(win.status, win.text).toBe(200);
    const named = (body: { effects: { rule_id: number; rule_name: string }[] }) => body.effects.map((effect) => [effect.rule_id, effect.rule_name]);
    const spanish = await server.client.post('/trigger', { trigger: 'fiesta', customer_id: 42 }, { headers: { 'Accept-Language': 'es' } });
    expect(spanish.status, spanish.text).toBe(200);
    expect(spanish.body.effects).toContainEqual(expect.objectContaining({ rule_id: campaign, rule_name: 'Puntos de fiesta', value: 5 }));
    expect(named(spanish.body)).toEqual([[campaign, 'Puntos de fiesta'], [win.body.id, 'Ruleta de fiesta']]);
    const plain = await server.client.post('/trigger', { trigger: 'fiesta', customer_id: 42 });
    expect(named(plain.body)).toEqual([[campaign, 'Party points'], [win.body.id, 'Party wheel']]);
    const recorded = await server.client.get('/points/transactions', { query: { customer_id: '42', origin_type: 'trigger', include: 'historical' } });
    expect(recorded.body.data.map((tx: { scores: { loyalty_score_name: string }[] }) => tx.scores[0].loyalty_score_name)).toEqual(['Party points', 'Party points']);
  });
});
