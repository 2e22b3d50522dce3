/**
 * A season of challenges as an app and a till drive it: a level over a custom
 * attribute reached by a profile update, levels granted once across a
 * cancellation and a new cart, and a challenge ended by the back office while
 * the customer is enrolled, as GET /customers/{value}/challenges lists it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, transactions } from '../points/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600 * 1000).toISOString().slice(0, 10);

describe('a season of challenges', () => {
  let server: TestServer;
  const create = async (body: Record<string, unknown>) => {
    const res = await server.client.post('/challenges', body);
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const enroll = async (id: number, customer: number) => expect((await server.client.post(`/challenges/${id}/enroll`, { customer_id: customer })).status).toBe(200);
  /** The customer's list, restricted to `ids` (the other tests' challenges run too). */
  const listed = async (customer: number, ids: number[], query: Record<string, string> = {}) =>
    (await server.client.get(`/customers/${customer}/challenges`, { query })).body.data
      .filter((c: { id: number }) => ids.includes(c.id))
      .map((c: { id: number; enrolled: boolean }) => [c.id, c.enrolled]);
  const challengePoints = async (customer: number, id: number) =>
    (await transactions(server.client, customer)).filter((t) => (t.origin_info.challenge as { id: number } | undefined)?.id === id).map((t) => [t.amount, t.origin_info.level]);

  beforeAll(async () => {
    server = await startServer();
    const company = await server.client.patch('/company', { timezone: 'UTC', cart_cancellation_wait_seconds: 0, customer_attribute_schema: { type: 'object', properties: { visits: { type: 'integer' } } } });
    expect(company.status, company.text).toBe(200);
  });
  afterAll(() => server.dispose());

  it('grants the level a profile update reaches at once, once, for enrolled and open_to_all challenges', async () => {
    expect((await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1, country: 'ES', attributes: { visits: 1 } })).status).toBe(200);
    const enrolled = await create({ name: 'Visits', attribute: 'visits', structure: [{ level: 1, name: 'Regular', threshold: 3, points: 7 }, { level: 2, name: 'Fan', threshold: 10, points: 20 }] });
    const open = await create({ name: 'Open visits', attribute: 'visits', open_to_all: true, structure: [{ level: 1, name: 'Seen', threshold: 5, points: 4 }] });
    const other = await create({ name: 'Not enrolled', attribute: 'visits', structure: [{ level: 1, name: 'Regular', threshold: 3, points: 100 }] });
    await enroll(enrolled, 1);
    expect((await balance(server.client, 1)).score).toBe(0);

    expect((await server.client.patch('/customers/1', { attributes: { visits: 5 } })).status).toBe(200);
    expect((await balance(server.client, 1)).score).toBe(11);
    expect(await challengePoints(1, enrolled)).toEqual([[7, 1]]);
    expect(await challengePoints(1, open)).toEqual([[4, 1]]);
    expect(await challengePoints(1, other)).toEqual([]);
    const view = (await server.client.get(`/customers/1/challenges/${enrolled}`)).body;
    expect(view).toMatchObject({ attribute_value: 5, current_level: 1, current_level_name: 'Regular', enrolled: true, last_execution_time: expect.any(String) });

    // Down and up again: a level is rewarded once per customer and challenge.
    await server.client.patch('/customers/1', { attributes: { visits: 0 } });
    await server.client.patch('/customers/1', { attributes: { visits: 6 } });
    // A change of another field measures nothing again.
    await server.client.patch('/customers/1', { name: 'Ana María' });
    expect((await balance(server.client, 1)).score).toBe(11);
    // A customer created above a threshold gets the open challenge's level with its creation.
    expect((await server.client.post('/customers', { id: 2, name: 'Bea', registration_location_id: 1, country: 'ES', attributes: { visits: 8 } })).status).toBe(200);
    expect(await challengePoints(2, open)).toEqual([[4, 1]]);
    expect(await challengePoints(2, enrolled)).toEqual([]);
  });

  it('grants a level once: not again after its cart is cancelled and a new cart reaches it', async () => {
    expect((await server.client.post('/customers', { id: 3, name: 'Carla', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    const spend = await create({ name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Fifty', threshold: 50, points: 10 }] });
    await enroll(spend, 3);
    await realtimeCart(server.client, 3, 60, { id: 300 });
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 300, new_cart_id: 301 })).status).toBe(200);
    expect((await server.client.get(`/customers/3/challenges/${spend}`)).body).toMatchObject({ attribute_value: 0, current_level: 0 });
    await realtimeCart(server.client, 3, 60, { id: 302 });
    expect((await server.client.get(`/customers/3/challenges/${spend}`)).body).toMatchObject({ attribute_value: 60, current_level: 1 });
    expect(await challengePoints(3, spend)).toEqual([[10, 1]]);
    const { score, score_available } = await balance(server.client, 3);
    expect([score, score_available]).toEqual([10, 10]);
  });

  it('a challenge ended while enrolled stops counting, leaves the lists and still answers its own read', async () => {
    expect((await server.client.post('/customers', { id: 4, name: 'Dora', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    const ending = await create({ name: 'Carts', attribute: 'carts', available_from: day(-30), structure: [{ level: 1, name: 'One', threshold: 1, points: 3 }, { level: 2, name: 'Two', threshold: 2, points: 5 }] });
    const shown = await create({ name: 'Shown later', attribute: 'carts', available_to: day(-1), display_to: day(30), structure: [{ level: 1, name: 'One', threshold: 1, points: 1 }] });
    await enroll(ending, 4);
    await realtimeCart(server.client, 4, 10);
    expect(await challengePoints(4, ending)).toEqual([[3, 1]]);
    expect(await listed(4, [ending, shown])).toEqual([[ending, true]]);
    expect(await listed(4, [ending, shown], { use_display_dates: 'true' })).toEqual([[ending, true], [shown, false]]);

    expect((await server.client.patch(`/challenges/${ending}`, { available_to: day(-1) })).status).toBe(200);
    await realtimeCart(server.client, 4, 10);
    expect(await challengePoints(4, ending)).toEqual([[3, 1]]);
    expect(await listed(4, [ending, shown])).toEqual([]);
    expect(await listed(4, [ending, shown], { only_enrolled: 'true' })).toEqual([]);
    expect(await listed(4, [ending, shown], { use_display_dates: 'true' })).toEqual([[shown, false]]);
    const read = await server.client.get(`/customers/4/challenges/${ending}`);
    expect(read.status).toBe(200);
    // Measured over its own dates, which now end before both of today's carts; the level points granted stay.
    expect(read.body).toMatchObject({ enrolled: true, attribute_value: 0, current_level: 0, available_to: day(-1), expires_at: `${day(-1)}T23:59:59Z` });
    const refused = await server.client.post(`/challenges/${ending}/enroll`, { customer_id: 1 });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden_request']);
  });
});
