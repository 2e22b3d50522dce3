/**
 * A tier program over a cart metric as the till and the batch job drive it:
 * carts move the customer up, a cancellation moves it down, a new cart moves
 * it up again; GET /customers/{id}/tiers answers since when each level is
 * held (won_at, expires_at) after every step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { startSpendProgram } from './testing.js';

const structure = [
  { level: 1, name: 'Bronze', threshold: 0 },
  { level: 2, name: 'Silver', threshold: 100 },
  { level: 3, name: 'Gold', threshold: 200 },
];
const DAY = 24 * 3600 * 1000;

describe('a tier level lost by a cancellation and won again', () => {
  let server: TestServer;
  const spend = async () => (await server.client.get('/customers/1/tiers')).body.data[0];
  beforeAll(async () => {
    server = await startSpendProgram(structure);
  });
  afterAll(() => server.dispose());

  it('records the level the cancellation leaves, and the level won again with the new cart\'s time', async () => {
    await realtimeCart(server.client, 1, 150, { id: 100 });
    await realtimeCart(server.client, 1, 60, { id: 101 });
    const gold = await spend();
    expect(gold).toMatchObject({ current_level: 3, current_level_name: 'Gold', attribute_value: 210, won_at: expect.any(String) });
    expect(Date.parse(gold.expires_at) - Date.parse(gold.won_at)).toBe(30 * DAY);

    // Whole seconds: wait for the next one so each write's won_at is told apart.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 101, new_cart_id: 102 })).status).toBe(200);
    const silver = await spend();
    expect(silver).toMatchObject({ current_level: 2, current_level_name: 'Silver', attribute_value: 150, to_reach_next_level_value: 50, to_reach_next_level_name: 'Gold' });
    expect(Date.parse(silver.won_at)).toBeGreaterThan(Date.parse(gold.won_at));
    expect(Date.parse(silver.expires_at) - Date.parse(silver.won_at)).toBe(30 * DAY);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await realtimeCart(server.client, 1, 60, { id: 103 });
    const again = await spend();
    expect(again).toMatchObject({ current_level: 3, attribute_value: 210 });
    // Won again now: the cancelled cart's Gold (and its expiry) is not the one held.
    expect(Date.parse(again.won_at)).toBeGreaterThan(Date.parse(silver.won_at));
    expect(Date.parse(again.expires_at) - Date.parse(again.won_at)).toBe(30 * DAY);
  });
});

// The customer exists before the programs, so no write has recorded its first level (won_at null): a write that
// leaves it at that level wins nothing; the first that moves it records won_at (docs/decisions.md, "Tiers").
describe('a write that leaves the customer at the level it had', () => {
  let server: TestServer;
  const levels = async () => (await server.client.get('/customers/1/tiers')).body.data.map((t: Record<string, unknown>) => [t.name, t.current_level, t.won_at, t.expires_at]);
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0, timezone: 'UTC' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', validity_days: 30, structure: structure.slice(0, 2) })).status).toBe(200);
    expect((await server.client.post('/tier_programs', { name: 'Visits', attribute: 'carts', structure: [{ level: 1, name: 'Member', threshold: 0 }, { level: 2, name: 'Regular', threshold: 5 }] })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('records no won_at after a cart, an update or a cancellation that leave the level; the cart that moves it does', async () => {
    expect(await levels()).toEqual([['Spend', 1, null, null], ['Visits', 1, null, null]]);
    await realtimeCart(server.client, 1, 30, { id: 200 });
    expect(await levels()).toEqual([['Spend', 1, null, null], ['Visits', 1, null, null]]);
    expect((await server.client.patch('/customers/1', { name: 'Ana M.' })).status).toBe(200);
    expect(await levels()).toEqual([['Spend', 1, null, null], ['Visits', 1, null, null]]);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 200, new_cart_id: 201 })).status).toBe(200);
    expect(await levels()).toEqual([['Spend', 1, null, null], ['Visits', 1, null, null]]);
    const before = Math.floor(Date.now() / 1000) * 1000;
    await realtimeCart(server.client, 1, 120, { id: 202 });
    const [spend, visits] = await levels();
    expect(spend).toEqual(['Spend', 2, expect.any(String), expect.any(String)]);
    expect(Date.parse(spend[2])).toBeGreaterThanOrEqual(before);
    expect(Date.parse(spend[3]) - Date.parse(spend[2])).toBe(30 * DAY);
    expect(visits).toEqual(['Visits', 1, null, null]);
  });
});
