/**
 * Several channels of a retailer (till carts, POST /trigger, POST /custom_events, reward and voucher
 * redemptions, the points wallet operations) racing in one burst for the same limited things: a reward's
 * stock, a voucher's max_redemptions and a campaign's budget, a customer's points. Afterwards nothing is
 * overspent, the answers add up to what the stock reads, counters and ledgers show, every refusal carries
 * its contract code and nothing answers 5xx. Carts racing alone are carts/concurrency.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCounterStore } from './store.js';
import { balance, createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { openStore } from '../store/env.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

const TENANT = { companyId: 'default', environment: 'sandbox' } as const;
const SERVER_ENV = { WORKERS: '2', REALTIME_WORKERS: '2', CART_TASKS_PER_WORKER: '16' };

/** The contract's refusal body: exactly `{error, code}`. */
function expectRefusal(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: expect.any(String), code });
}

describe('one reward stock won by carts, triggers and custom events and redeemed directly, in one burst', () => {
  let server: TestServer;
  let mug: number;
  const customers = [1, 2, 3, 4, 5, 6];
  const sent: { channel: string; customer: number; res: TestResponse }[] = [];

  beforeAll(async () => {
    server = await startServer({ env: SERVER_ENV });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await customersWithPoints(server.client, customers, 1000);
    mug = await createReward(server.client, { name: 'Mug', points: 10, total_stock: 5 });
    expect((await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } })).status).toBe(200);
    // Three instant wins whose prize is the same reward: one drawn by carts, one by a trigger, one by a custom event.
    for (const when of [undefined, 'spin', 'visit']) {
      const win = await server.client.post('/instant_wins', {
        rule_params: { name: `Mug draw ${when ?? 'cart'}`, select_customers: 'loyalty', ...(when ? { when } : {}) },
        instant_win: { instant_win_prizes: [{ name: 'Mug', outcome: { promotion_type: 'reward', promotion_id: mug }, weight: 1, stock: -1 }] },
      });
      expect(win.status, win.text).toBe(200);
    }
    const requests = Array.from({ length: 60 }, (_, i) => {
      const customer = customers[i % customers.length];
      switch (i % 4) {
        case 0: return { channel: 'cart', customer, res: server.client.post('/carts/realtime', cartBody(2, { id: 1000 + i, customer_id: customer })) };
        case 1: return { channel: 'trigger', customer, res: server.client.post('/trigger', { trigger: 'spin', customer_id: customer }) };
        case 2: return { channel: 'custom_event', customer, res: server.client.post('/custom_events', { slug: 'visit', customer_id: customer, data: { i } }) };
        default: return { channel: 'redeem', customer, res: redeem(server.client, mug, customer) };
      }
    });
    for (const r of requests) sent.push({ ...r, res: await r.res });
  });
  afterAll(() => server.dispose());

  const prizeWon = (res: TestResponse) => (res.body.effects as { type: string; prize_name?: string }[]).some((e) => e.type === 'instant_win' && e.prize_name === 'Mug');

  it('answers 200, or 409 conflict for a direct redemption out of stock; never 5xx', () => {
    for (const { channel, res } of sent) {
      if (channel === 'redeem' && res.status !== 200) expectRefusal(res, 409, 'conflict');
      else expect(res.status, `${channel}: ${res.text}`).toBe(200);
    }
  });

  // A reward prize out of stock is a prize without stock: the draw answers no prize data (docs/games.md), so the
  // answers say exactly what was handed over.
  it('hands over exactly the stock: direct redemptions plus prizes answered equal the units the reward reads as redeemed', async () => {
    const redeemed = sent.filter((s) => s.channel === 'redeem' && s.res.status === 200).length;
    const won = sent.filter((s) => s.channel !== 'redeem' && s.res.status === 200 && prizeWon(s.res)).length;
    expect((await server.client.get(`/rewards/${mug}`)).body).toMatchObject({ total_stock: 5, available_stock: 0, redemptions_quantity: 5 });
    const listed = await server.client.get('/rewards/transactions', { query: { per_page: '100' } });
    const ofMug = (listed.body.data as { reward_id: number; status: string; source: string }[]).filter((r) => r.reward_id === mug);
    expect(ofMug.every((r) => r.status === 'available')).toBe(true);
    expect(ofMug).toHaveLength(5);
    expect(ofMug.filter((r) => r.source === 'api')).toHaveLength(redeemed);
    expect(ofMug.filter((r) => r.source === 'instant_win')).toHaveLength(won);
  });

  it('charges the points of direct redemptions only, and every ledger adds up', async () => {
    for (const customer of customers) {
      const redeemed = sent.filter((s) => s.customer === customer && s.channel === 'redeem' && s.res.status === 200).length;
      expect((await balance(server.client, customer)).score_available).toBe(1000 - 10 * redeemed);
      await expectLedgerAddsUp(server.client, customer);
    }
  });
});

describe('one voucher and one budget used by carts, POST /vouchers/redeem and POST /discounts/redeem in one burst', () => {
  let server: TestServer;
  let campaign: string;
  const sent: { channel: string; res: TestResponse }[] = [];

  beforeAll(async () => {
    server = await startServer({ env: SERVER_ENV });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await createCustomer(server.client, 1, { country: 'ES' });
    // 1.00 off a cart, 8 uses of the voucher, 5.00 of budget.
    const created = await server.client.post('/discounts', {
      rule_params: { name: 'One off', select_customers: 'targeted', budget_value: 5, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Shared', max_redemptions: 8 },
    });
    expect(created.status, created.text).toBe(200);
    campaign = String(created.body.id);
    expect((await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: created.body.id, external_voucher_code: 'SHARED' })).status).toBe(200);
    const requests = Array.from({ length: 30 }, (_, i) => {
      switch (i % 3) {
        case 0: return { channel: 'cart', res: server.client.post('/carts/realtime', cartBody(5, { id: 2000 + i, customer_id: 1, coupons_desired: ['SHARED'] })) };
        case 1: return { channel: 'vouchers', res: server.client.post('/vouchers/redeem', { codes: ['SHARED'], customer_id: 1, location_id: LOCATION.id }) };
        default: return { channel: 'discounts', res: server.client.post('/discounts/redeem', { voucher_code: 'SHARED', customer_id: 1, cart_code: `EXT-${i}`, discount: 100 }) };
      }
    });
    for (const r of requests) sent.push({ ...r, res: await r.res });
  });
  afterAll(() => server.dispose());

  const cartDiscount = (res: TestResponse) => Math.round(res.body.total_discount_applied * 100);
  const cartUsed = (res: TestResponse) => (res.body.effects as { coupon_info?: { voucher_code: string } }[]).some((e) => e.coupon_info?.voucher_code === 'SHARED');

  it('carts are always accepted; other redemptions beyond the voucher answer 402 voucher_redeemed; never 5xx', () => {
    for (const { channel, res } of sent) {
      if (channel !== 'cart' && res.status !== 200) expectRefusal(res, 402, 'voucher_redeemed');
      else expect(res.status, `${channel}: ${res.text}`).toBe(200);
    }
  });

  it('uses the voucher exactly max_redemptions times across the three channels, as the voucher reads', async () => {
    const used = sent.filter((s) => s.res.status === 200 && (s.channel !== 'cart' || cartUsed(s.res))).length;
    expect(used).toBe(8);
    expect((await server.client.get('/vouchers/SHARED')).body).toMatchObject({ status: 'redeemed', redemptions: 8, available_redemptions: 0, max_redemptions: 8 });
    const redeemedHere = sent.filter((s) => s.channel === 'discounts' && s.res.status === 200).length;
    const listed = await server.client.get('/discounts/transactions', { query: { customer_id: '1' } });
    expect(listed.body.data).toHaveLength(redeemedHere);
  });

  it('carts never discount beyond the budget; the budget counter is what carts and /discounts/redeem answered', async () => {
    const carts = sent.filter((s) => s.channel === 'cart').reduce((sum, s) => sum + cartDiscount(s.res), 0);
    const external = sent.filter((s) => s.channel === 'discounts' && s.res.status === 200).reduce((sum, s) => sum + s.res.body.value, 0);
    // A cart discounts only when it used the voucher (targeted), and only within the budget left.
    for (const s of sent.filter((x) => x.channel === 'cart')) expect(cartDiscount(s.res)).toBe(cartUsed(s.res) ? 100 : 0);
    expect(carts).toBeLessThanOrEqual(500);
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      expect(new LmdbCounterStore(env).budgetSpent(TENANT, campaign, 'always')).toBe(carts + external);
    } finally {
      await env.close();
    }
  });
});

describe("one customer's points spent at once by redeem, redeem_cart, transfer, rewards and cashback carts", () => {
  let server: TestServer;
  const sent: { channel: string; res: TestResponse }[] = [];

  beforeAll(async () => {
    server = await startServer({ env: SERVER_ENV });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await customersWithPoints(server.client, [1], 1000);
    await createCustomer(server.client, 2, { country: 'ES' });
    const gift = await createReward(server.client, { name: 'Gift card', points: 100 });
    await realtimeCart(server.client, 1, 1, { id: 900 });
    const requests = Array.from({ length: 50 }, (_, i) => {
      switch (i % 5) {
        case 0: return { channel: 'redeem_cart', res: server.client.post('/points/redeem_cart', { activity_id: 900, customer_id: 1, amount: 100 }) };
        case 1: return { channel: 'transfer', res: server.client.post('/points/transfer', { from_customer_id: 1, to_customer_id: 2, score: 100 }) };
        case 2: return { channel: 'reward', res: redeem(server.client, gift, 1) };
        case 3: return { channel: 'cart', res: server.client.post('/carts/realtime', cartBody(10, { id: 3000 + i, customer_id: 1, cashback_score_desired: 100 })) };
        default: return { channel: 'subtract', res: server.client.post('/points/redeem', { customer_id: 1, amount: 30, comments: 'till' }) };
      }
    });
    for (const r of requests) sent.push({ ...r, res: await r.res });
  });
  afterAll(() => server.dispose());

  const spent = (channel: string, res: TestResponse): number => (channel === 'transfer' ? res.body.score : res.body.score_used);

  it('answers 200, or 402 customer_not_enough_score for a checked spend beyond the balance; never 5xx', () => {
    for (const { channel, res } of sent) {
      if (res.status !== 200 && channel !== 'cart' && channel !== 'subtract') expectRefusal(res, 402, 'customer_not_enough_score');
      else expect(res.status, `${channel}: ${res.text}`).toBe(200);
    }
  });

  it('the points the answers spent are the points the balance lost, and the transfers are what the receiver holds', async () => {
    const total = sent.filter((s) => s.res.status === 200).reduce((sum, s) => sum + spent(s.channel, s.res), 0);
    expect((await balance(server.client, 1)).score_available).toBe(1000 - total);
    const transferred = sent.filter((s) => s.channel === 'transfer' && s.res.status === 200).reduce((sum, s) => sum + s.res.body.score, 0);
    expect((await balance(server.client, 2)).score_available).toBe(transferred);
    await expectLedgerAddsUp(server.client, 1);
    await expectLedgerAddsUp(server.client, 2);
  });

  it('no checked spend ever took the balance below zero: only POST /points/redeem may', async () => {
    let running = 0;
    for (const t of await transactions(server.client, 1)) {
      running += t.amount;
      if (t.amount < 0 && t.type !== 'subtract') expect(running, `${t.type} ${t.id}`).toBeGreaterThanOrEqual(0);
    }
  });
});
