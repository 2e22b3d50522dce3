/**
 * A chain of tills that lost its connection for two days sends its backlog
 * (store and forward), over HTTP: carts back-dated and out of order, some sent
 * twice (realtime with and without Idempotency-Key, plain POST /carts), while
 * live carts keep arriving. Which date governs each rule (docs/decisions.md,
 * "Back-dated carts"): the sale's for targeting, points dates and voucher
 * dates, and for counters and daily metrics (never later than the receipt's); the receipt's for a voucher's use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChallengeStore } from '../challenges/store.js';
import { createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { endingSoon, passed } from '../vouchers/testing.js';
import { CartStore } from './store.js';

const at = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const now = () => at(Date.now());
const hoursAgo = (hours: number) => at(Date.now() - hours * 3_600_000);
/** ISO weekday (1 = Monday) of an instant in UTC, the Company's timezone here. */
const weekday = (iso: string) => ((new Date(iso).getUTCDay() + 6) % 7) + 1;

describe('a till sends two days of backlog', () => {
  let server: TestServer;
  let nextCart = 50_000;
  let targeted: number;
  let openTargeted: number;
  let twoDaysAgoOnly: number;
  const customer = 801;

  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const cart = (creation: string, total: number, extra: Record<string, unknown> = {}) => ({
    id: nextCart++,
    creation_date: creation,
    customer_id: customer,
    total,
    lines: [{ order: 1, product_id: 100, total, quantity: 1 }],
    ...extra,
  });
  const issue = async (holder: number, code: string, campaign = targeted) =>
    ok(server.client.post('/discounts/trigger', { customer_id: holder, loyalty_rule_id: campaign, external_voucher_code: code }));

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    await ok(server.client.patch('/company', { cart_cancellation_wait_seconds: 0 }));
    await createCustomer(server.client, customer, { code: 'TILL801', country: 'ES' });
    await ok(server.client.post('/points', { rule_params: { name: 'One a unit', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } }));
    // A weekly campaign that ran on the day of the sales two days ago only.
    twoDaysAgoOnly = (await ok(server.client.post('/points', {
      rule_params: { name: 'Weekday bonus', recurrence_type: 'weekly', recurrence_days: [weekday(hoursAgo(48))], rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] },
    }))).id;
    targeted = (await ok(server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon', available_to: endingSoon() },
    }))).id;
    openTargeted = (await ok(server.client.post('/discounts', {
      rule_params: { name: 'Five off, open', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      // A start of its own, long past: a sale of the day before its vouchers' issue may use them.
      coupon_params: { name: 'Five off, open coupon', available_from: '2020-01-01' },
    }))).id;
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('a voucher valid on the day of the sale is used by the cart sent after it expired; a live cart is refused it', async () => {
    await issue(customer, 'LATE-1');
    const end = (await ok(server.client.get('/vouchers/LATE-1'))).available_to as string;
    const sale = now();
    await passed(end);
    const answer = await ok(server.client.post('/carts/realtime', cart(sale, 20, { coupons_desired: ['LATE-1'] })));
    expect(answer.rejected_campaigns).toEqual([]);
    expect(answer.effects).toContainEqual(expect.objectContaining({ rule_id: targeted, type: 'discount', value: 500, coupon_info: expect.objectContaining({ voucher_code: 'LATE-1' }) }));
    expect(answer.total).toBe(15);
    const voucher = await ok(server.client.get('/vouchers/LATE-1'));
    expect(voucher.redemptions).toBe(1);
    // Today the voucher has expired: a live cart is refused it.
    const live = await ok(server.client.post('/carts/realtime', cart(now(), 20, { coupons_desired: ['LATE-1'] })));
    expect(live.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: targeted, error: expect.stringMatching(/^voucher_(expired|redeemed)/) })]);
  });

  it('a voucher a live cart used meanwhile is voucher_redeemed for the backlog cart of the day before: used once', async () => {
    await issue(customer, 'USED-1', openTargeted);
    const sale = hoursAgo(20);
    const live = await ok(server.client.post('/carts/realtime', cart(now(), 20, { coupons_desired: ['USED-1'] })));
    expect(live.total).toBe(15);
    const backlog = await ok(server.client.post('/carts/realtime', cart(sale, 20, { coupons_desired: ['USED-1'] })));
    expect(backlog.total).toBe(20);
    expect(backlog.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: openTargeted, error: expect.stringMatching(/^voucher_redeemed/) })]);
    expect((await ok(server.client.get('/vouchers/USED-1'))).redemptions).toBe(1);
  });

  it('the backlog out of order, with retries, beside live carts: each sale earns its own day\'s campaigns once, and the ledger adds up', async () => {
    const sales = [50, 49, 48, 47, 30, 26, 25, 24, 2, 1].map((hours, i) => ({ hours, total: 10 + i }));
    // Out of order: the tills send newest first, interleaved with live carts.
    const answers = new Map<number, { hours: number; score: number; effects: { rule_id: number; value: number }[] }>();
    const live: number[] = [];
    for (const [i, sale] of [...sales].reverse().entries()) {
      const body = cart(hoursAgo(sale.hours), sale.total);
      const key = `till-${body.id}`;
      const first = await ok(server.client.post('/carts/realtime', body, { headers: { 'Idempotency-Key': key } }));
      answers.set(body.id, { ...first, hours: sale.hours });
      // A retry after a timeout: with its key, the first answer; without it, a real-time duplicate; by POST /carts, a deferred one.
      expect(await ok(server.client.post('/carts/realtime', body, { headers: { 'Idempotency-Key': key } }))).toEqual(first);
      const again = await server.client.post('/carts/realtime', body);
      expect(again.status, again.text).toBe(409);
      expect(again.body.code).toBe('duplicate_id');
      if (i % 3 === 0) {
        // Answered with its evaluation, nothing written: the customer summary is the balance, not the balance plus its points again.
        const deferred = await ok(server.client.post('/carts', body));
        expect(deferred.score).toBe(first.score);
        expect(deferred.customer).toEqual(first.customer);
      }
      const liveCart = cart(now(), 5);
      live.push(liveCart.id);
      await ok(server.client.post('/carts/realtime', liveCart));
    }
    for (const [id, answer] of answers) {
      const bonus = answer.effects.find((e) => e.rule_id === twoDaysAgoOnly);
      const onBonusDay = weekday(hoursAgo(answer.hours)) === weekday(hoursAgo(48));
      expect(bonus?.value, `cart ${id} sold ${answer.hours} h ago`).toBe(onBonusDay ? 7 : undefined);
      const stored = await ok(server.client.get(`/carts/${id}`));
      expect(stored.score).toBe(answer.score);
    }
    // Every cart's points were granted once: the activity transactions are the carts', and the balance their sum.
    const txs = (await transactions(server.client, customer)).filter((t) => t.type === 'activity');
    const carts = (await ok(server.client.get('/carts', { query: { customer_id: String(customer), per_page: '100' } }))).data as { id: number; score: number; deferred_errors?: unknown[] }[];
    expect(txs.length).toBe(carts.filter((c) => c.score > 0).length);
    expect(txs.reduce((sum, t) => sum + t.amount + t.pending_amount, 0)).toBe(carts.reduce((sum, c) => sum + c.score, 0) - carts.reduce((sum, c) => sum + ((c as { score_used?: number }).score_used ?? 0), 0));
    expect(carts.filter((c) => c.deferred_errors !== undefined).length).toBe(4);
    await expectLedgerAddsUp(server.client, customer);
  });
});

/**
 * A voucher issued after the sale (docs/decisions.md, "A cart judges its vouchers' dates on the day of the sale"):
 * one without a start of its own is pending for a sale of a local day, in the Company's timezone, before the day
 * it was issued, and usable by a sale of its issue day, earlier or later than the issue, and of a later day.
 */
describe('a till sends its backlog: a voucher issued after the sale', () => {
  let server: TestServer;
  let nextCart = 70_000;
  let campaign: number;
  const customer = 820;
  // Nine hours ahead of UTC, without summer time: its local days are not UTC's.
  const TIMEZONE = 'Asia/Tokyo';
  const OFFSET_MS = 9 * 3_600_000;

  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** A 20.00 cart of the customer sold at `creation`, naming the voucher. */
  const cart = (creation: string, code: string) => ({
    id: nextCart++,
    creation_date: creation,
    customer_id: customer,
    total: 20,
    lines: [{ order: 1, product_id: 100, total: 20, quantity: 1 }],
    coupons_desired: [code],
  });
  /** The voucher issued now, and the local midnight (Tokyo) of its issue, in ms. */
  const issue = async (code: string) => {
    await ok(server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: campaign, external_voucher_code: code }));
    const { created_at: created, available_from: from } = await ok(server.client.get(`/vouchers/${code}`));
    expect(from).toBeNull();
    const issued = Date.parse(created);
    const local = new Date(issued + OFFSET_MS);
    return { issued, midnight: Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - OFFSET_MS };
  };

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    await ok(server.client.patch('/company', { timezone: TIMEZONE }));
    await createCustomer(server.client, customer, { code: 'TILL820', country: 'ES' });
    campaign = (await ok(server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon' },
    }))).id;
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('a sale of the local day before the issue is refused the voucher as pending; nothing used', async () => {
    const { midnight } = await issue('AFTER-1');
    // The last second of the day before in Tokyo: in UTC, the same day as the issue for half of it.
    const answer = await ok(server.client.post('/carts/realtime', cart(at(midnight - 1000), 'AFTER-1')));
    expect(answer.total).toBe(20);
    expect(answer.effects).toEqual([]);
    expect(answer.invalid_coupons).toEqual([]);
    expect(answer.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: campaign, error: expect.stringMatching(/^voucher_out_date: voucher AFTER-1: available from \d{4}-\d\d-\d\d, the day it was issued/) })]);
    expect((await ok(server.client.get('/vouchers/AFTER-1'))).redemptions).toBe(0);
    // POST /carts judges it alike.
    const stored = await ok(server.client.post('/carts', cart(at(midnight - 1000), 'AFTER-1')));
    expect(stored.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: campaign, error: expect.stringMatching(/^voucher_out_date/) })]);
  });

  it('a sale earlier on the issue day uses the voucher (a till clock behind the server\'s), and so does a sale of a later day', async () => {
    const { issued, midnight } = await issue('AFTER-2');
    const earlier = await ok(server.client.post('/carts/realtime', cart(at(Math.max(midnight, issued - 3_600_000)), 'AFTER-2')));
    expect(earlier.rejected_campaigns).toEqual([]);
    expect(earlier.total).toBe(15);
    await issue('AFTER-3');
    const later = await ok(server.client.post('/carts/realtime', cart(at(Date.now() + 86_400_000), 'AFTER-3')));
    expect(later.rejected_campaigns).toEqual([]);
    expect(later.total).toBe(15);
    for (const code of ['AFTER-2', 'AFTER-3']) expect((await ok(server.client.get(`/vouchers/${code}`))).redemptions).toBe(1);
  });
});

/**
 * The same backlog and its counters (docs/decisions.md, "Counters and daily metrics count on the day of the sale"):
 * each sale consumes its own day's `once` limit and budget and counts in its own day's challenge metrics, whenever
 * it arrives; its cancellation gives them back to that day. The Company's timezone is UTC here.
 */
describe('a till sends two days of backlog: counters and metrics of the day of each sale', () => {
  let server: TestServer;
  let nextCart = 60_000;
  const TENANT = { companyId: 'default', environment: 'sandbox' } as const;
  /** Noon UTC `days` days ago (plus `minutes`): a sale on a local day of its own. */
  const daysAgo = (days: number, minutes = 0) => {
    const today = new Date();
    return at(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - days, 12, minutes));
  };
  const dateOf = (days: number) => daysAgo(days).slice(0, 10);

  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const sell = (customer: number, creation: string, total = 20, id = nextCart++) =>
    ok(server.client.post('/carts/realtime', { id, creation_date: creation, customer_id: customer, total, lines: [{ order: 1, product_id: 100, total, quantity: 1 }] }));
  /** A discount of `value` for one customer only (its own counters), with `limits` (once, budget). */
  const discountFor = async (customer: number, value: number, limits: Record<string, unknown>) =>
    (await ok(server.client.post('/discounts', {
      rule_params: {
        name: `For ${customer}`,
        rule_conditions: { conditions: { and: [{ field: 'customer.id', operator: 'eq', value: String(customer) }] } },
        rule_effects: [{ type: 'direct_value', value, distribution: 'total' }],
        ...limits,
      },
    }))).id as number;
  const applied = (answer: { effects: { rule_id: number }[] }, campaign: number) => answer.effects.some((e) => e.rule_id === campaign);
  const refusal = (answer: { rejected_campaigns: { rule_id: number; error: string }[] }, campaign: number) =>
    answer.rejected_campaigns.find((r) => r.rule_id === campaign)?.error;
  const cancel = (id: number) => ok(server.client.post('/carts/cancellation', { cart_to_cancel_id: id, new_cart_id: nextCart++ }));
  const challenge = async (body: Record<string, unknown>) =>
    (await ok(server.client.post('/challenges', { name: 'November', attribute: 'total_spent', open_to_all: true, structure: [{ level: 1, name: 'Spender', threshold: 25, points: 9 }], ...body }))).id as number;
  const progress = (customer: number, id: number) => ok(server.client.get(`/customers/${customer}/challenges/${id}`));
  const levelPoints = async (customer: number) => (await transactions(server.client, customer)).filter((t) => t.type === 'challenge').map((t) => t.amount);

  beforeAll(async () => {
    server = await startServer();
    await ok(server.client.patch('/company', { cart_cancellation_wait_seconds: 0 }));
    for (const customer of [811, 812, 813, 814, 815, 816]) await createCustomer(server.client, customer, { country: 'ES' });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('a once-a-day campaign: the sales of two past days sent together are both granted, each day once', async () => {
    const daily = await discountFor(811, 1, { once: 'num_day' });
    // Sent on one day, newest first, with today's sale in between.
    expect(applied(await sell(811, daysAgo(1)), daily)).toBe(true);
    expect(applied(await sell(811, daysAgo(0, -60)), daily)).toBe(true);
    expect(applied(await sell(811, daysAgo(2)), daily)).toBe(true);
    // A second sale on a day that used it is refused, as it would have been at the till.
    const again = await sell(811, daysAgo(2, 30));
    expect(refusal(again, daily)).toMatch(/^once_limit: reached \(1 of 1\)/);
  });

  it('a creation_date ahead of the clock counts today: it does not consume tomorrow\'s limit', async () => {
    const daily = await discountFor(815, 1, { once: 'num_day' });
    const tomorrow = at(Date.now() + 24 * 3_600_000);
    expect(applied(await sell(815, tomorrow), daily)).toBe(true);
    expect(refusal(await sell(815, now()), daily)).toMatch(/^once_limit/);
  });

  it('a daily budget: a back-dated sale spends its own day\'s, not today\'s', async () => {
    const budgeted = await discountFor(812, 5, { budget_period: 'num_day', budget_value: 5 });
    const past = await sell(812, daysAgo(2));
    expect(past.effects).toContainEqual(expect.objectContaining({ rule_id: budgeted, value: 500 }));
    expect(refusal(await sell(812, daysAgo(2, 10)), budgeted)).toMatch(/^budget: exhausted/);
    // Today's budget is whole: the campaign read says so, and a live sale spends it.
    expect(await ok(server.client.get(`/discounts/${budgeted}`))).toMatchObject({ budget_spent: 0, budget_available: 5 });
    expect((await sell(812, now())).effects).toContainEqual(expect.objectContaining({ rule_id: budgeted, value: 500 }));
    // The day before the sales, untouched all along.
    expect(applied(await sell(812, daysAgo(3)), budgeted)).toBe(true);
  });

  it('the cancellation of a back-dated cart gives its use back to the day of its sale', async () => {
    const daily = await discountFor(813, 1, { once: 'num_day' });
    const first = nextCart++;
    expect(applied(await sell(813, daysAgo(2), 20, first), daily)).toBe(true);
    expect(applied(await sell(813, now()), daily)).toBe(true);
    expect(refusal(await sell(813, daysAgo(2, 20)), daily)).toMatch(/^once_limit/);
    await cancel(first);
    expect(applied(await sell(813, daysAgo(2, 40)), daily)).toBe(true);
    // Today's use stays.
    expect(refusal(await sell(813, now()), daily)).toMatch(/^once_limit/);
  });

  it('a sale made within a challenge counts in it when sent after its end; its cancellation takes it out of that day', async () => {
    const ended = await challenge({ challenge_type: 'ended', available_from: dateOf(5), available_to: dateOf(1) });
    const fromToday = await challenge({ challenge_type: 'from-today', available_from: dateOf(0) });
    const sale = nextCart++;
    await sell(814, daysAgo(2), 30, sale);
    expect(await progress(814, ended)).toMatchObject({ attribute_value: 30, current_level: 1 });
    // A challenge that began after the sale does not count it.
    expect(await progress(814, fromToday)).toMatchObject({ attribute_value: 0, current_level: 0 });
    expect(await levelPoints(814)).toEqual([9]);
    await cancel(sale);
    expect(await progress(814, ended)).toMatchObject({ attribute_value: 0 });
    expect(await levelPoints(814)).toEqual([9]);
  });

  it('a tier program over the last month measures a back-dated sale in the window of its own day', async () => {
    await createCustomer(server.client, 817, { country: 'ES' });
    const structure = [{ level: 1, name: 'Member', threshold: 0 }, { level: 2, name: 'Big', threshold: 25 }];
    await ok(server.client.post('/tier_programs', { name: 'Monthly spend', attribute: 'total_spent', period_months: 1, structure }));
    const tier = async () => (await ok(server.client.get('/customers/817/tiers'))).data[0];
    // Sold 40 days ago: outside the last month, though it arrives today.
    await sell(817, daysAgo(40), 30);
    expect(await tier()).toMatchObject({ attribute_value: 0, current_level: 1 });
    await sell(817, daysAgo(3), 30);
    expect(await tier()).toMatchObject({ attribute_value: 30, current_level: 2 });
  });

  it('a cart stored before carts recorded their metrics day is taken out of the day it was stored', async () => {
    const ended = await challenge({ challenge_type: 'legacy', available_from: dateOf(5), available_to: dateOf(1), structure: [{ level: 1, name: 'Spender', threshold: 1000, points: 9 }] });
    const sale = nextCart++;
    await sell(816, daysAgo(2), 30, sale);
    expect(await progress(816, ended)).toMatchObject({ attribute_value: 30 });
    // As an earlier version stored it: counted on the day it arrived, no metrics_day.
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const carts = new CartStore(env);
      await env.transact(() => {
        const { metrics_day: _day, ...legacy } = carts.get(TENANT, String(sale))!;
        carts.putInTransaction(TENANT, legacy);
        const metrics = new ChallengeStore(env);
        metrics.addCartInTransaction(TENANT, '816', dateOf(2), { total_spent_cents: -3000, carts: -1, points_earned: 0 });
        metrics.addCartInTransaction(TENANT, '816', legacy.stored_at.slice(0, 10), { total_spent_cents: 3000, carts: 1, points_earned: 0 });
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect(await progress(816, ended)).toMatchObject({ attribute_value: 0 });
    await cancel(sale);
    // Taken out of the day it was stored, not of the day of the sale (which would read -30).
    expect(await progress(816, ended)).toMatchObject({ attribute_value: 0 });
  });
});
