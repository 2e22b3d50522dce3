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

// The customers exist before the programs, so no write has recorded their levels (won_at null): a merge (or an unmerge)
// that leaves the receiver at the level it measured wins nothing; one that raises it wins the level at the merge
// (docs/decisions.md).
describe('a merge into a customer measured before by programs created after it', () => {
  let server: TestServer;
  const levels = async (id: number) => (await server.client.get(`/customers/${id}/tiers`)).body.data.map((t: Record<string, unknown>) => [t.name, t.current_level, t.won_at, t.expires_at]);
  const mergedAt = async (id: number) => (await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).body.updated_at as string;

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { timezone: 'UTC' })).status).toBe(200);
    for (const id of [1, 2, 3, 4]) {
      expect((await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, country: 'ES' })).status).toBe(200);
    }
    await realtimeCart(server.client, 1, 120, { id: 100 });
    await realtimeCart(server.client, 2, 30, { id: 101 });
    await realtimeCart(server.client, 3, 60, { id: 102 });
    await realtimeCart(server.client, 4, 75, { id: 103 });
    await realtimeCart(server.client, 4, 75, { id: 104 });
    expect((await server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', structure, validity_days: 30 })).status).toBe(200);
    expect((await server.client.post('/tier_programs', { name: 'Visits', attribute: 'carts', structure: [{ level: 1, name: 'Member', threshold: 0 }, { level: 2, name: 'Regular', threshold: 3 }] })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('records no won_at for a level the merge, or its unmerge, leaves the receiver at', async () => {
    expect(await levels(1)).toEqual([['Spend', 2, null, null], ['Visits', 1, null, null]]);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 2, new_customer_id: 1 })).status).toBe(200);
    // 150 spent, 2 carts: Silver and Member still, held since before the programs recorded anything.
    expect(await levels(1)).toEqual([['Spend', 2, null, null], ['Visits', 1, null, null]]);
    // Nor does the unmerge that gives the old customer's records back (120 spent, 1 cart).
    const back = await server.client.post('/customers/2/unmerge', undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'true' } });
    expect(back.status, back.text).toBe(200);
    expect(await levels(1)).toEqual([['Spend', 2, null, null], ['Visits', 1, null, null]]);
  });

  it('records the merge as won_at of a level it raises the receiver to', async () => {
    expect(await levels(3)).toEqual([['Spend', 1, null, null], ['Visits', 1, null, null]]);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_id: 3 })).status).toBe(200);
    const merged = await mergedAt(4);
    // 210 spent, 3 carts: Gold (valid 30 days from the merge) and Regular.
    expect(await levels(3)).toEqual([['Spend', 3, merged, new Date(Date.parse(merged) + 30 * DAY).toISOString().replace('.000', '')], ['Visits', 2, merged, null]]);
  });
});
