/**
 * A reward as an instant-win prize is won only while it can be handed over to the customer (its stock, the
 * customer's redeem_times, the reward active): otherwise the draw answers as a prize without stock, an
 * instant_win effect without prize data (part 2, "Interpretation of an evaluation response"). Carts, triggers
 * and custom events share the reward's units, sequentially and in a concurrent burst, and no delivery is left
 * `pending`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { createReward } from '../rewards/testing.js';
import { openStore } from '../store/env.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';
import type { PrizeDeliveryRecord } from './types.js';

const SERVER_ENV = { WORKERS: '2', REALTIME_WORKERS: '2', CART_TASKS_PER_WORKER: '16' };

describe('a reward prize is won only while the reward can be handed over', () => {
  let server: TestServer;
  let nextCustomer = 100;
  let nextCart = 1;
  let slugs = 0;

  const customer = async () => {
    const id = nextCustomer++;
    await createCustomer(server.client, id, { country: 'ES' });
    return id;
  };
  /** Instant wins drawn by carts, a trigger and a custom event, each with the reward as its only prize (probability 1, unlimited prize stock). */
  const draws = async (reward: number) => {
    const n = slugs++;
    const trigger = `spin-${n}`;
    const event = `visit-${n}`;
    expect((await server.client.post('/custom_event_definitions', { slug: event, schema: { type: 'object' } })).status).toBe(200);
    const ids: number[] = [];
    for (const when of [undefined, trigger, event]) {
      const res = await server.client.post('/instant_wins', {
        rule_params: { name: `Draw ${when ?? 'cart'}`, select_customers: 'loyalty', ...(when ? { when } : {}) },
        instant_win: { instant_win_prizes: [{ name: 'Mug', outcome: { promotion_type: 'reward', promotion_id: reward }, weight: 1, stock: -1 }] },
      });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.id);
    }
    const send = (channel: 'cart' | 'trigger' | 'custom_event', customerId: number) => {
      if (channel === 'cart') return server.client.post('/carts/realtime', cartBody(10, { id: nextCart++, customer_id: customerId }));
      if (channel === 'trigger') return server.client.post('/trigger', { trigger, customer_id: customerId });
      // Each with its own data: an identical custom event within 5 minutes is a duplicate, answered as the first (docs/http.md).
      return server.client.post('/custom_events', { slug: event, customer_id: customerId, data: { visit: nextCart++ } });
    };
    // The cart draw is retired after its test, so the next test's carts draw only their own.
    const retire = async () => expect((await server.client.patch(`/instant_wins/${ids[0]}`, { rule_params: { active: false } })).status).toBe(200);
    return { send, retire };
  };
  /** The instant_win effect of the answer: one per event, with or without prize data. */
  const drawOf = (res: TestResponse) => {
    expect(res.status, res.text).toBe(200);
    const effects = (res.body.effects as { type: string; prize_name?: string }[]).filter((e) => e.type === 'instant_win');
    expect(effects).toHaveLength(1);
    return effects[0];
  };
  const won = (responses: TestResponse[]) => responses.map(drawOf).filter((e) => e.prize_name === 'Mug').length;
  const redemptions = async (reward: number) => {
    const listed = await server.client.get('/rewards/transactions', { query: { per_page: '100' } });
    return (listed.body.data as { reward_id: number; source: string; score_expense: number }[]).filter((r) => r.reward_id === reward);
  };

  beforeAll(async () => {
    server = await startServer({ env: SERVER_ENV });
  });
  afterAll(() => server.dispose());

  it('5 sequential realtime carts against a reward of stock 2: 2 answer the prize, 3 take part without prize data', async () => {
    const reward = await createReward(server.client, { name: `Mug ${slugs}`, total_stock: 2 });
    const { send, retire } = await draws(reward);
    const who = await customer();
    const answers: TestResponse[] = [];
    for (let i = 0; i < 5; i++) answers.push(await send('cart', who));
    await retire();
    expect(answers.map((res) => drawOf(res).prize_name)).toEqual(['Mug', 'Mug', undefined, undefined, undefined]);
    // Only a win carries prize data.
    for (const res of answers.slice(2)) for (const field of ['prize_description', 'prize_rule_id', 'winned_prize_index']) expect(drawOf(res)).not.toHaveProperty(field);
    expect(await redemptions(reward)).toEqual([expect.objectContaining({ source: 'instant_win', score_expense: 0 }), expect.objectContaining({ source: 'instant_win' })]);
    expect((await server.client.get(`/rewards/${reward}`)).body).toMatchObject({ available_stock: 0, redemptions_quantity: 2 });
  });

  it('the same across carts, a trigger and a custom event sharing the reward', async () => {
    const reward = await createReward(server.client, { name: `Mug ${slugs}`, total_stock: 2 });
    const { send, retire } = await draws(reward);
    const who = await customer();
    const answers: TestResponse[] = [];
    for (const channel of ['trigger', 'custom_event', 'cart', 'trigger', 'custom_event'] as const) answers.push(await send(channel, who));
    await retire();
    expect(answers.map((res) => drawOf(res).prize_name)).toEqual(['Mug', 'Mug', undefined, undefined, undefined]);
    expect(await redemptions(reward)).toHaveLength(2);
  });

  it('a concurrent burst of 20 mixed events wins exactly the 2 units', async () => {
    const reward = await createReward(server.client, { name: `Mug ${slugs}`, total_stock: 2 });
    const { send, retire } = await draws(reward);
    const players = await Promise.all(Array.from({ length: 4 }, () => customer()));
    const channels = ['cart', 'trigger', 'custom_event'] as const;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(channels[i % 3], players[i % 4])));
    await retire();
    expect(won(answers)).toBe(2);
    expect(await redemptions(reward)).toHaveLength(2);
    expect((await server.client.get(`/rewards/${reward}`)).body).toMatchObject({ available_stock: 0, redemptions_quantity: 2 });
  });

  it("redeem_times 1: a customer wins it once, and another customer still can; an inactive reward is won by nobody", async () => {
    const reward = await createReward(server.client, { name: `Mug ${slugs}`, total_stock: 10, redeem_times: 1, redeem_chances: 'always' });
    const { send, retire } = await draws(reward);
    const first = await customer();
    const answers: TestResponse[] = [];
    for (const channel of ['cart', 'trigger', 'custom_event', 'cart'] as const) answers.push(await send(channel, first));
    expect(won(answers)).toBe(1);
    const second = await customer();
    expect(drawOf(await send('trigger', second)).prize_name).toBe('Mug');
    expect((await server.client.patch(`/rewards/${reward}`, { status: 'inactive' })).status).toBe(200);
    const third = await customer();
    expect(drawOf(await send('cart', third))).not.toHaveProperty('prize_name');
    await retire();
    expect(await redemptions(reward)).toHaveLength(2);
  });

  it('leaves no delivery pending: every prize answered was handed over', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const deliveries = [...env.db('instant_win_deliveries').getRange({})].map(({ value }) => value as PrizeDeliveryRecord);
      // 2 + 2 + 2 + 2 rewards handed over, as the answers said.
      expect(deliveries.map((d) => d.status)).toEqual(Array(8).fill('delivered'));
    } finally {
      await env.close();
    }
  });
});
