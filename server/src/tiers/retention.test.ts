/**
 * Tier retention: a level won in a program with validity_days is held until
 * its expires_at though the measured value falls, by every reader (GET
 * /customers/{id}/tiers, a cart's customer.tier, audiences, rewards' tiers);
 * at expiry the level the value gives then is won again; a higher level is won
 * at once. Expiries in the past are stored memberships written while the
 * server is stopped (the server has no controllable clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { createReward } from '../rewards/testing.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { startSpendProgram } from './testing.js';
import { TierStore } from './store.js';
import type { TierMembership } from './types.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };
const DAY = 24 * 3600 * 1000;
const structure = [
  { level: 1, name: 'Silver', threshold: 100 },
  { level: 2, name: 'Gold', threshold: 1000 },
  { level: 3, name: 'Platinum', threshold: 5000 },
];
const gold = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Gold' }] } };
const wire = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const second = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('a tier level held until its expires_at', () => {
  let server: TestServer;
  let discount: number;
  let goldReward: number;
  const tier = async (id: number, program = 0) => (await server.client.get(`/customers/${id}/tiers`)).body.data[program];
  const spend = async (id: number, value: number) => expect((await server.client.patch(`/customers/${id}`, { attributes: { spend: value } })).status).toBe(200);
  const discounted = async (id: number) =>
    (await server.client.post('/carts/simulate', cartBody(10, { customer_id: id }))).body.effects.some((e: { rule_id: number }) => e.rule_id === discount);
  const inGoldAudience = async (id: number) => (await server.client.get(`/customers/${id}/audience_validation`, { query: { segment_id: '1' } })).body.result;
  const canRedeemGold = async (id: number) => (await server.client.get(`/rewards/${goldReward}`, { query: { customer_id: String(id) } })).body.can_redeem;
  /** Writes memberships of program 1 while the server is stopped. */
  const storeMemberships = async (memberships: Record<string, TierMembership>) => {
    await server.stop();
    const env = openStore(server.dataDir);
    await env.transact(() => Object.entries(memberships).forEach(([customer, m]) => new TierStore(env).putMembership(tenant, customer, '1', m)));
    await env.close();
    await server.restart();
  };

  beforeAll(async () => {
    server = await startServer();
    const company = await server.client.patch('/company', {
      timezone: 'UTC',
      customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } },
      audiences: [{ id: 1, name: 'Gold members', rule: gold }],
    });
    expect(company.status, company.text).toBe(200);
    const program = await server.client.post('/tier_programs', { name: 'Status', attribute: 'spend', structure, validity_days: 365 });
    expect(program.body.id).toBe(1);
    const created = await server.client.post('/discounts', { rule_params: { name: 'Gold', rule_conditions: gold, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    expect(created.status, created.text).toBe(200);
    discount = created.body.id;
    goldReward = await createReward(server.client, { points: 0, tiers: [{ program_id: 1, level: 2 }] });
    for (const id of [1, 2, 3, 4, 5, 6]) {
      expect((await server.client.post('/customers', { id, name: 'N', registration_location_id: 1, country: 'ES', attributes: { spend: 1500 } })).status).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  it('keeps Gold, its won_at and expires_at for every reader when the value falls; reaching it again does not renew it', async () => {
    const won = await tier(1);
    expect(won).toMatchObject({ current_level: 2, current_level_name: 'Gold', attribute_value: 1500 });
    expect(Date.parse(won.expires_at) - Date.parse(won.won_at)).toBe(365 * DAY);
    await second();
    await spend(1, 150);
    expect(await tier(1)).toEqual({ ...won, attribute_value: 150, to_reach_next_level_value: 4850, to_reach_next_level_name: 'Platinum' });
    expect(await discounted(1)).toBe(true);
    expect(await inGoldAudience(1)).toBe(true);
    expect(await canRedeemGold(1)).toBe(true);
    await spend(1, 2000);
    expect(await tier(1)).toMatchObject({ current_level: 2, won_at: won.won_at, expires_at: won.expires_at });
  });

  it('wins a higher level at once, with its own won_at and expires_at', async () => {
    const won = await tier(2);
    await second();
    await spend(2, 6000);
    const platinum = await tier(2);
    expect(platinum).toMatchObject({ current_level: 3, current_level_name: 'Platinum' });
    expect(platinum).not.toHaveProperty('to_reach_next_level_name');
    expect(Date.parse(platinum.won_at)).toBeGreaterThan(Date.parse(won.won_at));
    expect(Date.parse(platinum.expires_at) - Date.parse(platinum.won_at)).toBe(365 * DAY);
  });

  it('at expiry gives the level the value measured then, won at the expiry, once per expiry passed; below every threshold, none', async () => {
    await spend(3, 150);
    await spend(4, 150);
    await spend(5, 50);
    const now = Date.now();
    const expired = now - 35 * DAY;
    const twiceExpired = now - 435 * DAY;
    await storeMemberships({
      '3': { level: 2, won_at: wire(expired - 365 * DAY), expires_at: wire(expired) },
      '4': { level: 2, won_at: wire(twiceExpired - 365 * DAY), expires_at: wire(twiceExpired) },
      '5': { level: 2, won_at: wire(expired - 365 * DAY), expires_at: wire(expired) },
    });
    expect(await tier(3)).toMatchObject({ current_level: 1, current_level_name: 'Silver', won_at: wire(expired), expires_at: wire(expired + 365 * DAY) });
    expect(await tier(4)).toMatchObject({ current_level: 1, won_at: wire(twiceExpired + 365 * DAY), expires_at: wire(twiceExpired + 730 * DAY) });
    expect(await tier(5)).toMatchObject({ current_level: 0, current_level_name: null, won_at: null, expires_at: null });
    for (const id of [3, 4, 5]) {
      expect(await discounted(id)).toBe(false);
      expect(await inGoldAudience(id)).toBe(false);
      expect(await canRedeemGold(id)).toBe(false);
    }
    // A write stores the level in force: the same dates, and Silver is held though the value falls below it.
    await spend(3, 20);
    expect(await tier(3)).toMatchObject({ current_level: 1, attribute_value: 20, won_at: wire(expired), expires_at: wire(expired + 365 * DAY) });
  });

  it('a program without validity_days gives the measured level, as before', async () => {
    const plain = await server.client.post('/tier_programs', { name: 'Plain', attribute: 'spend', structure });
    expect(plain.status).toBe(200);
    await spend(6, 1600);
    expect(await tier(6, 1)).toMatchObject({ current_level: 2, expires_at: null });
    await spend(6, 150);
    expect(await tier(6, 1)).toMatchObject({ current_level: 1, current_level_name: 'Silver' });
    expect(await tier(6, 0)).toMatchObject({ current_level: 2, current_level_name: 'Gold' });
    expect((await server.client.patch(`/tier_programs/${plain.body.id}`, { active: false })).status).toBe(200);
  });
});

describe('a tier level over cart metrics, returns and cancellations', () => {
  let server: TestServer;
  const tier = async () => (await server.client.get('/customers/1/tiers')).body.data[0];
  const cancel = async (cart: number, id: number) => expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: cart, new_cart_id: id })).status).toBe(200);

  beforeAll(async () => {
    server = await startSpendProgram(structure);
  });
  afterAll(() => server.dispose());

  it('holds Gold through a return; a cancellation of a later cart keeps it, one of the cart that won it takes it back', async () => {
    await realtimeCart(server.client, 1, 1200, { id: 100 });
    const won = await tier();
    expect(won).toMatchObject({ current_level: 2, attribute_value: 1200 });
    await second();
    const returning = cartBody(-300, { id: 101, customer_id: 1, lines: [{ order: 1, product_id: 1, total: -300, quantity: -1 }], returns: [{ ticket_id: 100, line_order: 1, from_line_order: 1, quantity: -1 }] });
    expect((await server.client.post('/carts/realtime', returning)).status).toBe(200);
    await realtimeCart(server.client, 1, 10, { id: 102 });
    expect(await tier()).toMatchObject({ current_level: 2, attribute_value: 910, won_at: won.won_at, expires_at: won.expires_at });
    await cancel(102, 103);
    expect(await tier()).toMatchObject({ current_level: 2, attribute_value: 900, won_at: won.won_at });
    await cancel(100, 104);
    const after = await tier();
    expect(after).toMatchObject({ current_level: 0, attribute_value: -300, won_at: null, expires_at: null });
  });
});
