/**
 * A tier program over a cart metric as the till and the batch job drive it:
 * carts move the customer up, a cancellation moves it down, a new cart moves
 * it up again; GET /customers/{id}/tiers answers since when each level is
 * held (won_at, expires_at) after every step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCart } from '../testing/carts.js';
import type { TestServer } from '../testing/server.js';
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
