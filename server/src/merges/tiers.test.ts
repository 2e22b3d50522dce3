/**
 * Tier levels across merges over HTTP: a merge moves the old customer's cart
 * metrics to the new one, an unmerge moves them back; GET
 * /customers/{id}/tiers answers since when each level is held (won_at,
 * expires_at) right after, not only after the customer's next cart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const structure = [
  { level: 1, name: 'Bronze', threshold: 0 },
  { level: 2, name: 'Silver', threshold: 100 },
  { level: 3, name: 'Gold', threshold: 200 },
];
const DAY = 24 * 3600 * 1000;

describe('tier levels after merges and unmerges', () => {
  let server: TestServer;
  const tier = async (id: number) => (await server.client.get(`/customers/${id}/tiers`)).body.data[0];
  // The merge and the unmerge write the customer they change at their own time: its updated_at.
  const updatedAt = async (id: number) => (await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).body.updated_at as string;
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));
  const expectHeldSince = (entry: { won_at: string; expires_at: string }, at: string) => {
    expect(entry.won_at).toBe(at);
    expect(Date.parse(entry.expires_at) - Date.parse(entry.won_at)).toBe(30 * DAY);
  };

  beforeAll(async () => {
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: '300' } });
    expect((await server.client.patch('/company', { timezone: 'UTC' })).status).toBe(200);
    expect((await server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', structure, validity_days: 30 })).status).toBe(200);
    for (const id of [1, 2, 3, 4]) {
      expect((await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, country: 'ES' })).status).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  it('records the level a transfer gives the receiver and leaves the old customer, and what an unmerge gives back', async () => {
    await realtimeCart(server.client, 1, 60, { id: 100 });
    await realtimeCart(server.client, 2, 150, { id: 101 });
    expect(await tier(2)).toMatchObject({ current_level_name: 'Silver', won_at: expect.any(String) });
    await nextSecond();

    const res = await server.client.post('/customers/transfer', { old_customer_id: 2, new_customer_id: 1 });
    expect(res.status, res.text).toBe(200);
    const merged = await updatedAt(2);
    const gold = await tier(1);
    expect(gold).toMatchObject({ current_level: 3, current_level_name: 'Gold', attribute_value: 210 });
    expectHeldSince(gold, merged);
    // The old customer's metrics went with its carts: back to Bronze since the merge.
    const left = await tier(2);
    expect(left).toMatchObject({ current_level: 1, attribute_value: 0 });
    expectHeldSince(left, merged);

    await nextSecond();
    const back = await server.client.post('/customers/2/unmerge', undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'true' } });
    expect(back.status, back.text).toBe(200);
    const unmerged = await updatedAt(2);
    expect(Date.parse(unmerged)).toBeGreaterThan(Date.parse(merged));
    const bronze = await tier(1);
    expect(bronze).toMatchObject({ current_level: 1, attribute_value: 60 });
    expectHeldSince(bronze, unmerged);
    const silver = await tier(2);
    expect(silver).toMatchObject({ current_level: 2, attribute_value: 150 });
    expectHeldSince(silver, unmerged);
  });

  it('records the level the asynchronous transfer-new gives the receiver when it completes', async () => {
    await realtimeCart(server.client, 3, 150, { id: 200 });
    await realtimeCart(server.client, 4, 60, { id: 201 });
    await nextSecond();
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 3, new_customer_id: 4 })).status).toBe(200);
    for (let i = 0; i < 100 && (await server.client.get('/customers/3', { query: { search_param: 'id' } })).body.status !== 'merged'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const merged = await updatedAt(3);
    const gold = await tier(4);
    expect(gold).toMatchObject({ current_level: 3, attribute_value: 210 });
    expectHeldSince(gold, merged);
    expectHeldSince(await tier(3), merged);
  });
});
