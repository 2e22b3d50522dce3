/**
 * A chain of tills that lost its connection for two days sends its backlog
 * (store and forward), over HTTP: carts back-dated and out of order, some sent
 * twice (realtime with and without Idempotency-Key, plain POST /carts), while
 * live carts keep arriving. Which date governs each rule (docs/decisions.md,
 * "Back-dated carts"): the sale's for targeting, points dates and voucher
 * dates; the receipt's for counters and a voucher's use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';
import { startServer, type TestServer } from '../testing/server.js';
import { endingSoon, passed } from '../vouchers/testing.js';

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
      coupon_params: { name: 'Five off, open coupon' },
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
