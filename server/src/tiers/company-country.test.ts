/**
 * A customer without a country of its own is of the Company's country for tier
 * programs, as it is for carts, rewards and challenges: GET
 * /customers/{id}/tiers, the level a reward asks for, and `customer.tier` in
 * cart and game conditions all see the programs of that country.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const structure = [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Gold', threshold: 100 }];
const goldOnly = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Gold' }] } };

describe("tier programs of the Company's country", () => {
  let server: TestServer;
  let program: number;

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await server.client.patch('/company', { country: 'PT', customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } } });
    const created = await server.client.post('/tier_programs', { name: 'Clube', countries: ['PT'], attribute: 'spend', structure, validity_days: 30 });
    expect(created.status, created.text).toBe(200);
    program = created.body.id;
    // 1 has no country (the Company's, PT); 2 is of Spain.
    await customersWithPoints(server.client, [1], 50, { country: undefined, attributes: { spend: 150 } });
    await customersWithPoints(server.client, [2], 50, { country: 'ES', attributes: { spend: 150 } });
  });
  afterAll(() => server.dispose());

  it('GET /customers/{id}/tiers answers the program, with the level won when the customer was created', async () => {
    const [entry] = (await server.client.get('/customers/1/tiers')).body.data;
    expect(entry).toMatchObject({ id: program, countries: ['PT'], current_level: 2, current_level_name: 'Gold', won_at: expect.any(String), expires_at: expect.any(String) });
    expect((await server.client.get('/customers/2/tiers')).body.data).toEqual([]);
  });

  it('a customer moving to the program\'s country wins its level then: won_at and expires_at recorded', async () => {
    await customersWithPoints(server.client, [3], 1, { country: 'ES', attributes: { spend: 150 } });
    expect((await server.client.get('/customers/3/tiers')).body.data).toEqual([]);
    expect((await server.client.patch('/customers/3', { country: 'PT' })).status).toBe(200);
    const [entry] = (await server.client.get('/customers/3/tiers')).body.data;
    expect(entry).toMatchObject({ id: program, current_level: 2, won_at: expect.any(String), expires_at: expect.any(String) });
  });

  it('a reward asking for the level is redeemable, and cart and game conditions see the tier', async () => {
    const reward = await createReward(server.client, { points: 10, tiers: [{ program_id: program, level: 2 }] });
    expect((await server.client.get(`/rewards/${reward}`, { query: { customer_id: '1' } })).body).toMatchObject({ can_redeem: true, missing_redeem_conditions: [] });
    expect((await redeem(server.client, reward, 1)).status).toBe(200);
    expect((await redeem(server.client, reward, 2)).body.code).toBe('forbidden_request');

    const discount = await server.client.post('/discounts', { rule_params: { name: 'Gold', rule_conditions: goldOnly, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    const applies = async (customer: number) =>
      (await server.client.post('/carts/simulate', cartBody(10, { customer_id: customer }))).body.effects.some((e: { rule_id: number }) => e.rule_id === discount.body.id);
    expect(await applies(1)).toBe(true);
    expect(await applies(2)).toBe(false);

    const game = await server.client.post('/games', { rule_params: { name: 'Gold wheel', rule_conditions: goldOnly }, game: { type: 'wheel', game_prizes: [{ name: 'Five', outcome: 'points', points: 5, weight: 1, stock: -1 }] } });
    expect((await server.client.post(`/games/${game.body.id}/play`, { customer_id: 1 })).body.effects).toHaveLength(1);
    expect((await server.client.post(`/games/${game.body.id}/play`, { customer_id: 2 })).body.effects).toEqual([]);
  });
});
