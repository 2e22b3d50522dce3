/**
 * The back office of tier programs (POST, PATCH/PUT /tier_programs) over HTTP:
 * what GET /customers/{id}/tiers answers after each write, the refusals, and
 * the customer's tier as the `customer.tier` fact of cart conditions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const structure = [
  { level: 1, name: 'Bronze', threshold: 0 },
  { level: 2, name: 'Silver', threshold: 100 },
  { level: 3, name: 'Gold', threshold: 1000 },
];

describe('tier programs back office', () => {
  let server: TestServer;
  const tiers = async (id: number) => (await server.client.get(`/customers/${id}/tiers`)).body.data;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2' } });
    await server.client.patch('/company', { customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' }, nick: { type: 'string' } } } });
    await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1, country: 'ES', attributes: { spend: 150 } });
  });
  afterAll(() => server.dispose());

  it('creates a program answered {status, id}, shown by GET /customers/{id}/tiers with the customer standing', async () => {
    const res = await server.client.post('/tier_programs', { name: 'Club', countries: ['ES'], attribute: 'spend', structure, validity_days: 365 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'success', id: expect.any(Number) });
    const [entry] = await tiers(1);
    expect(entry).toMatchObject({
      id: res.body.id, name: 'Club', countries: ['ES'], current_level: 2, current_level_name: 'Silver',
      attribute_value: 150, to_reach_next_level_value: 850, to_reach_next_level_name: 'Gold', structure,
    });
  });

  it('updates with PATCH or PUT (fields sent replace the stored ones); an inactive program or one of another country is not shown', async () => {
    const { body } = await server.client.post('/tier_programs', { name: 'Second', attribute: 'spend', structure });
    expect((await tiers(1)).map((t: { id: number }) => t.id)).toContain(body.id);
    const renamed = await server.client.put(`/tier_programs/${body.id}`, { name: 'Renamed' });
    expect(renamed.body).toEqual({ status: 'success', id: body.id });
    expect((await tiers(1)).find((t: { id: number }) => t.id === body.id)).toMatchObject({ name: 'Renamed', current_level: 2 });
    await server.client.patch(`/tier_programs/${body.id}`, { countries: ['PT'] });
    expect((await tiers(1)).map((t: { id: number }) => t.id)).not.toContain(body.id);
    await server.client.patch(`/tier_programs/${body.id}`, { countries: [], active: false });
    expect((await tiers(1)).map((t: { id: number }) => t.id)).not.toContain(body.id);
  });

  it('refuses levels given twice, thresholds that do not rise with the level, and a non-numeric or unknown attribute, writing nothing', async () => {
    const before = await tiers(1);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', attribute: 'spend', structure: [structure[0], { ...structure[1], level: 1 }] }, 'structure'],
      [{ name: 'X', attribute: 'spend', structure: [structure[0], { ...structure[1], threshold: 0 }] }, 'structure'],
      [{ name: 'X', attribute: 'nick', structure }, 'attribute'],
      [{ name: 'X', attribute: 'missing', structure }, 'attribute'],
      [{ name: 'X', attribute: 'spend' }, 'structure'],
      [{ name: 'X', attribute: 'spend', structure, countries: ['es'] }, 'countries[0]'],
    ];
    for (const [body, field] of cases) {
      const res = await server.client.post('/tier_programs', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true);
    }
    expect(await tiers(1)).toEqual(before);
  });

  it('answers 404 tier_program_not_found for an update of an unknown program', async () => {
    const res = await server.client.patch('/tier_programs/999', { name: 'Nobody' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('tier_program_not_found');
  });

  it('gives cart conditions the customer tier (customer.tier: the level held in the first program that applies)', async () => {
    await server.client.post('/discounts', {
      rule_params: {
        name: 'Gold only',
        rule_conditions: { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Gold' }] } },
        rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }],
      },
    });
    const cart = cartBody(10, { customer_id: 1 });
    const silver = await server.client.post('/carts/simulate', cart);
    expect(silver.status, silver.text).toBe(200);
    expect(silver.body.effects.filter((e: { rule_name: string }) => e.rule_name === 'Gold only')).toEqual([]);
    await server.client.patch('/customers/1', { attributes: { spend: 1000 } });
    const gold = await server.client.post('/carts/simulate', cart);
    expect(gold.body.effects.filter((e: { rule_name: string }) => e.rule_name === 'Gold only')).toHaveLength(1);
  });

  it('gives every worker a program changed between two carts (workers keep the programs in memory until one changes)', async () => {
    await server.client.patch('/customers/1', { attributes: { spend: 1000 } });
    // Sixteen at once: more than one batch, so both workers answer some.
    const goldEffects = async () => {
      const answers = await Promise.all(Array.from({ length: 16 }, () => server.client.post('/carts/simulate', cartBody(11, { customer_id: 1 }))));
      return answers.map((res) => res.body.effects.filter((e: { rule_name: string }) => e.rule_name === 'Gold only').length);
    };
    expect(await goldEffects()).toEqual(Array(16).fill(1));
    const [first] = await tiers(1);
    // Renamed: the customer holds the level it won (retained until its expires_at), under its new name.
    const renamed = structure.map((level) => (level.name === 'Gold' ? { ...level, name: 'Oro' } : level));
    expect((await server.client.patch(`/tier_programs/${first.id}`, { structure: renamed })).status).toBe(200);
    expect(await goldEffects()).toEqual(Array(16).fill(0));
    expect((await server.client.patch(`/tier_programs/${first.id}`, { structure })).status).toBe(200);
  });

  it('gives trigger conditions the customer tier too', async () => {
    const onlyFor = (tier: string, points: number) =>
      server.client.post('/points', {
        rule_params: {
          name: `${tier} welcome`, when: 'welcome',
          rule_conditions: { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: tier }] } },
          rule_effects: [{ type: 'direct_value', value: points, distribution: 'total' }],
        },
      });
    await onlyFor('Gold', 30);
    await onlyFor('Bronze', 5);
    await server.client.patch('/customers/1', { attributes: { spend: 1000 } });
    const res = await server.client.post('/trigger', { trigger: 'welcome', customer_id: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.score).toBe(30);
  });

  it('measures a cart metric (points earned in the last 12 months) from realtime carts, recording since when the level is held', async () => {
    await server.client.post('/customers', { id: 2, name: 'Bea', registration_location_id: 1, country: 'FR' });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
    const created = await server.client.post('/tier_programs', {
      name: 'Earned', countries: ['FR'], attribute: 'points_earned', period_months: 12,
      structure: [{ level: 1, name: 'Member', threshold: 0 }, { level: 2, name: 'Star', threshold: 50 }],
    });
    expect(created.status, created.text).toBe(200);
    const earned = async () => (await tiers(2)).find((t: { id: number }) => t.id === created.body.id);
    expect(await earned()).toMatchObject({ attribute_value: 0, current_level: 1, won_at: null });
    expect((await realtimeCart(server.client, 2, 2.99)).body.score).toBe(29);
    expect(await earned()).toMatchObject({ attribute_value: 29, current_level: 1, to_reach_next_level_value: 21 });
    await realtimeCart(server.client, 2, 3);
    expect(await earned()).toMatchObject({ attribute_value: 59, current_level: 2, current_level_name: 'Star', won_at: expect.any(String) });
    const bad = await server.client.patch(`/tier_programs/${created.body.id}`, { period_months: 0 });
    expect(bad.status).toBe(400);
  });
});
