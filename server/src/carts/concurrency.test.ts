import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCounterStore } from '../counters/store.js';
import { createCustomer, grant, transactions, triggerCampaign } from '../points/testing.js';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';

const TENANT = { companyId: 'default', environment: 'sandbox' } as const;
const PARALLEL = 60;

function cart(id: number, customer: number) {
  return { id, customer_id: customer, creation_date: '2026-11-20T10:00:00Z', total: 2, lines: [{ order: 1, product_id: 1, total: 2, quantity: 1 }] };
}

// Two writer threads (REALTIME_WORKERS=2) racing for the write lock, and many carts in flight in each.
describe('concurrent realtime carts against a small budget, a once limit and a small stock', () => {
  let server: TestServer;
  let budgetCampaign: string;
  let instantWin: string;
  const responses: { status: number; body: any }[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2', CART_TASKS_PER_WORKER: '16' } });
    for (let id = 1; id <= 3; id++) await server.client.post('/customers', { id, name: `C${id}`, registration_location_id: 1 });
    // 1.00 of budget, 0.20 off each 2.00 cart: five carts' worth.
    const budget = await server.client.post('/discounts', {
      rule_params: { name: 'Ten percent, one euro of budget', budget_value: 1, rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
    });
    budgetCampaign = String(budget.body.id);
    await server.client.post('/points', { rule_params: { name: 'Once ever', once: 'always', once_limit: 1, rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total_cart' }] } });
    // A prize is won only with an outcome (without one it is the contract's "no prize").
    const mug = await server.client.post('/rewards', { name: 'Mug', points: 0, type: 'physical' });
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: 'Scratch', select_customers: 'loyalty' },
      instant_win: { instant_win_prizes: [{ name: 'Mug', outcome: { promotion_type: 'reward', promotion_id: mug.body.id }, weight: 1, stock: 3 }] },
    });
    expect(win.status, win.text).toBe(200);
    instantWin = String(win.body.id);
    const carts = Array.from({ length: PARALLEL }, (_, i) => cart(100 + i, (i % 3) + 1));
    responses.push(...(await Promise.all(carts.map((c) => server.client.post('/carts/realtime', c)))));
    await server.stop();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('every cart is accepted', () => {
    expect(responses.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
  });

  it('the budget is never overspent and the discounts granted add up to the counter', async () => {
    const granted = responses.reduce((sum, r) => sum + Math.round(r.body.total_discount_applied * 100), 0);
    expect(granted).toBe(100);
    const env = openStore(server.dataDir);
    try {
      expect(new LmdbCounterStore(env).budgetSpent(TENANT, budgetCampaign, 'always')).toBe(granted);
    } finally {
      await env.close();
    }
  });

  it('the once limit lets each customer earn once', () => {
    const earned = responses.flatMap((r) => r.body.effects.filter((e: any) => e.type === 'points').map(() => r.body.customer[0].id));
    expect(earned.sort()).toEqual([1, 2, 3]);
  });

  it('the prize stock is never exceeded and the prizes won add up to the counter', async () => {
    const won = responses.filter((r) => r.body.effects.some((e: any) => e.type === 'instant_win' && e.prize_name === 'Mug')).length;
    expect(won).toBe(3);
    const env = openStore(server.dataDir);
    try {
      const prize = (await readPrizeIds(env, instantWin))[0];
      expect(new LmdbCounterStore(env).stockConsumed(TENANT, instantWin, prize)).toBe(won);
    } finally {
      await env.close();
    }
  });
});

/** The prize ids of an instant win, read from the counters' keys (the stock consumed is keyed by prize). */
async function readPrizeIds(env: ReturnType<typeof openStore>, campaign: string): Promise<string[]> {
  const ids: string[] = [];
  for (const key of env.db('counters').getKeys({ start: ['default/sandbox', 'stock', campaign], end: ['default/sandbox', 'stock', campaign, '\uffff'] })) {
    ids.push(String((key as string[])[3]));
  }
  return ids;
}

describe('concurrent realtime carts using one single-use voucher', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', CART_TASKS_PER_WORKER: '16' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('exactly one cart redeems it; the others are evaluated again without it', async () => {
    await server.client.post('/customers', { id: 1, name: 'C1', registration_location_id: 1 });
    const campaign = await server.client.post('/discounts', {
      rule_params: { name: 'Two off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 2, distribution: 'total' }] },
      coupon_params: { name: 'Gift', max_redemptions: 1 },
    });
    expect(campaign.status, campaign.text).toBe(200);
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: campaign.body.id, external_voucher_code: 'ONE-USE' });
    expect(issued.status, issued.text).toBe(200);
    // Sold now: the voucher, issued today, is pending for the fixture's earlier sale date.
    const soldNow = new Date().toISOString().slice(0, 19) + 'Z';
    const carts = Array.from({ length: 20 }, (_, i) => ({ ...cart(500 + i, 1), creation_date: soldNow, total: 5, lines: [{ order: 1, product_id: 1, total: 5, quantity: 1 }], coupons_desired: ['ONE-USE'] }));
    const responses = await Promise.all(carts.map((c) => server.client.post('/carts/realtime', c)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const used = responses.filter((r) => r.body.effects.some((e: any) => e.coupon_info?.voucher_code === 'ONE-USE'));
    expect(used.length).toBe(1);
    expect(used[0].body.effects).toEqual([expect.objectContaining({ value: 200, coupon_info: expect.objectContaining({ voucher_code: 'ONE-USE', coupon_id: expect.any(Number) }) })]);
    expect(responses.reduce((sum, r) => sum + Math.round(r.body.total_discount_applied * 100), 0)).toBe(200);
  });
});

// A till prints the customer summary: it must be the balance the cart left, not the one it was evaluated against
// while other carts and spends of the customer committed (docs/decisions.md, "The customer summary is the balance
// after the cart's transaction").
describe('concurrent realtime carts and points spends of one customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '2', POINTS_SETTLEMENT_INTERVAL_MS: '0' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('each cart answers the customer summary at the balance after its own transaction', async () => {
    await createCustomer(server.client, 1);
    await grant(server.client, 'gift', 1, await triggerCampaign(server.client, 'gift', 100));
    const points = await server.client.post('/points', { rule_params: { name: 'Five a cart', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] } });
    expect(points.status, points.text).toBe(200);
    const sent = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0
        ? server.client.post('/carts/realtime', cart(700 + i, 1))
        : server.client.post('/points/redeem', { customer_id: 1, amount: 3, comments: `spend ${i}` }));
    const answers = await Promise.all(sent);
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    // The ledger in commit order (ids are allocated inside the write transaction): the balance after each cart's.
    const after = new Map<number, { score: number; score_available: number }>();
    let score = 0;
    let available = 0;
    for (const tx of await transactions(server.client, 1)) {
      score += tx.amount + tx.pending_amount;
      available += tx.amount;
      const cartId = (tx.origin_info as { activity?: { id: number } }).activity?.id;
      if (cartId !== undefined) after.set(Number(cartId), { score, score_available: available });
    }
    for (const res of answers.filter((r) => r.body.id !== undefined)) {
      const [summary] = res.body.customer;
      expect({ score: summary.score, score_available: summary.score_available }, `cart ${res.body.id}`).toEqual(after.get(Number(res.body.id)));
    }
  });
});
