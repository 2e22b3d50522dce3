import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

/**
 * A merge moves the old customer's `once` uses to the new customer (one person, one use of a once-per-customer
 * campaign) and an unmerge gives them back; over HTTP, through the carts that use and are refused them.
 */
describe('once uses and customer merges', () => {
  let server: TestServer;
  let nextCart = 90_000;
  const json = { 'Content-Type': 'application/json' };
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
  /** Noon UTC `days` days ago (the Company's timezone is UTC): a sale on a day of its own. */
  const daysAgo = (days: number) => {
    const today = new Date();
    return at(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - days, 12));
  };

  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  let nextName = 1;
  // Each its own name: an identical create would be answered as the first (duplicate suppression), a retired one.
  const discount = async (limits: Record<string, unknown>) =>
    (await ok(server.client.post('/discounts', {
      rule_params: { name: `One euro off ${nextName++}`, rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }], ...limits },
    }))).id as number;
  const retire = (id: number) => ok(server.client.patch(`/discounts/${id}`, { rule_params: { active: false } }));
  const sell = (customer: number, creation = at(Date.now()), id = nextCart++) =>
    ok(server.client.post('/carts/realtime', cartBody(20, { id, customer_id: customer, creation_date: creation })));
  const simulate = (customer: number, creation = at(Date.now())) =>
    ok(server.client.post('/carts/simulate', cartBody(20, { customer_id: customer, creation_date: creation })));
  /** Whether the customer's cart gets the campaign (simulated: nothing counted); a refusal must be the once limit's. */
  const gets = async (customer: number, campaign: number, creation?: string) => {
    const answer = await simulate(customer, creation);
    if (answer.effects.some((e: { rule_id: number }) => e.rule_id === campaign)) return true;
    expect(answer.rejected_campaigns).toContainEqual(expect.objectContaining({ rule_id: campaign, error: expect.stringMatching(/^once_limit/) }));
    return false;
  };
  const transfer = (from: number, to: number) => ok(server.client.post('/customers/transfer', { old_customer_id: from, new_customer_id: to }));
  const unmerge = (id: number, withActivities: boolean) =>
    ok(server.client.post(`/customers/${id}/unmerge`, undefined, { headers: json, query: { with_activites: String(withActivities) } }));
  const customers = async (...ids: number[]) => {
    for (const id of ids) await createCustomer(server.client, id);
  };

  beforeAll(async () => {
    server = await startServer();
    await ok(server.client.patch('/company', { cart_cancellation_wait_seconds: 0 }));
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('a once-ever discount used by A is used by B after A is merged into B; an unmerge gives the use back to A', async () => {
    await customers(1, 2);
    const once = await discount({ once: 'always', once_limit: 1 });
    try {
      await sell(1);
      expect([await gets(1, once), await gets(2, once)]).toEqual([false, true]);
      await transfer(1, 2);
      // The same person: B's next cart does not get it again, nor does a cart naming A (recorded for B).
      expect([await gets(2, once), await gets(1, once)]).toEqual([false, false]);
      await unmerge(1, false);
      expect([await gets(1, once), await gets(2, once)]).toEqual([false, true]);
    } finally {
      await retire(once);
    }
  });

  it('adds A\'s uses to B\'s (once_limit 2: one each leaves B none), and gives back only A\'s', async () => {
    await customers(3, 4);
    const twice = await discount({ once: 'always', once_limit: 2 });
    try {
      await sell(3);
      await sell(4);
      await transfer(3, 4);
      expect(await gets(4, twice)).toBe(false);
      await unmerge(3, true);
      expect([await gets(3, twice), await gets(4, twice)]).toEqual([true, true]);
      await sell(3);
      expect(await gets(3, twice)).toBe(false);
    } finally {
      await retire(twice);
    }
  });

  it('a once-a-day discount: every day A used moves, each its own day, and goes back', async () => {
    await customers(5, 6);
    const daily = await discount({ once: 'num_day' });
    try {
      await sell(5, daysAgo(2));
      await sell(5, daysAgo(0));
      await transfer(5, 6);
      expect([await gets(6, daily, daysAgo(2)), await gets(6, daily, daysAgo(1)), await gets(6, daily, daysAgo(0))]).toEqual([false, true, false]);
      await unmerge(5, false);
      expect([await gets(5, daily, daysAgo(2)), await gets(5, daily, daysAgo(1)), await gets(5, daily, daysAgo(0))]).toEqual([false, true, false]);
      expect([await gets(6, daily, daysAgo(2)), await gets(6, daily, daysAgo(0))]).toEqual([true, true]);
    } finally {
      await retire(daily);
    }
  });

  it('a chain (A into B, B into C): A\'s use reaches C; unmerging A takes it back from C, unmerging B then gives B nothing', async () => {
    await customers(7, 8, 9);
    const once = await discount({ once: 'always', once_limit: 1 });
    try {
      await sell(7);
      await transfer(7, 8);
      await transfer(8, 9);
      expect(await gets(9, once)).toBe(false);
      await unmerge(7, false);
      expect([await gets(7, once), await gets(9, once)]).toEqual([false, true]);
      await unmerge(8, false);
      expect([await gets(8, once), await gets(9, once), await gets(7, once)]).toEqual([true, true, false]);
    } finally {
      await retire(once);
    }
  });

  it('a moved cart cancelled while merged takes its use off B, and the unmerge gives A nothing the cancellation took', async () => {
    await customers(10, 11);
    const once = await discount({ once: 'always', once_limit: 1 });
    try {
      const cart = nextCart++;
      await sell(10, undefined, cart);
      await transfer(10, 11);
      await ok(server.client.post('/carts/cancellation', { cart_to_cancel_id: cart, new_cart_id: nextCart++ }));
      expect(await gets(11, once)).toBe(true);
      await unmerge(10, true);
      expect([await gets(10, once), await gets(11, once)]).toEqual([true, true]);
    } finally {
      await retire(once);
    }
  });

  it('a cart left with B by an unmerge without activities, cancelled, leaves B its one use (not two)', async () => {
    await customers(12, 13);
    const once = await discount({ once: 'always', once_limit: 1 });
    try {
      const cart = nextCart++;
      await sell(12, undefined, cart);
      await transfer(12, 13);
      await unmerge(12, false);
      // The use went back to A; the cart stayed with B, whose cancellation has no use of B's to take back.
      await ok(server.client.post('/carts/cancellation', { cart_to_cancel_id: cart, new_cart_id: nextCart++ }));
      expect(await gets(13, once)).toBe(true);
      await sell(13);
      expect(await gets(13, once)).toBe(false);
    } finally {
      await retire(once);
    }
  });

  it('instant-win participations move and come back as the campaigns\' uses do', async () => {
    await customers(14, 15);
    const points = await ok(server.client.post('/points', { rule_params: { name: 'Prize point', when: 'merge-prize-only', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } }));
    const win = (await ok(server.client.post('/instant_wins', {
      rule_params: { name: 'Scratch card', select_customers: 'loyalty', once: 'always' },
      instant_win: { instant_win_prizes: [{ name: 'Mug', description: 'A mug', outcome: { promotion_type: 'points', promotion_id: points.id }, weight: 1, stock: -1 }] },
    }))).id as number;
    const remaining = async (customer: number) =>
      (await ok(server.client.get(`/instant_wins/${win}`, { query: { customer_id: String(customer) } }))).remaining_participations;
    try {
      await sell(14);
      await transfer(14, 15);
      expect(await remaining(15)).toBe(0);
      await unmerge(14, false);
      expect([await remaining(14), await remaining(15)]).toEqual([0, 1]);
    } finally {
      await ok(server.client.patch(`/instant_wins/${win}`, { rule_params: { active: false } }));
    }
  });
});

describe('once uses and transfer-new', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('the asynchronous merge moves the uses too', async () => {
    for (const id of [1, 2]) await createCustomer(server.client, id);
    const once = await server.client.post('/discounts', {
      rule_params: { name: 'One euro off', once: 'always', once_limit: 1, rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] },
    });
    expect(once.status, once.text).toBe(200);
    expect((await server.client.post('/carts/realtime', cartBody(20, { id: 1, customer_id: 1 }))).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 1, new_customer_id: 2 })).status).toBe(200);
    for (let i = 0; i < 100 && (await server.client.get('/customers/1', { query: { search_param: 'id' } })).body.status !== 'merged'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await server.client.get('/customers/1', { query: { search_param: 'id' } })).body.status).toBe('merged');
    const cart = await server.client.post('/carts/simulate', cartBody(20, { customer_id: 2 }));
    expect(cart.body.rejected_campaigns).toContainEqual(expect.objectContaining({ rule_id: once.body.id, error: expect.stringMatching(/^once_limit/) }));
  });
});
