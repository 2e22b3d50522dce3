/**
 * A chain of tills that lost its connection for two days sends its backlog
 * (store and forward), over HTTP: carts back-dated and out of order, some sent
 * twice (realtime with and without Idempotency-Key, plain POST /carts), while
 * live carts keep arriving. Which date governs each rule (docs/carts.md,
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
  let perUnit: number;
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
  const issue = async (holder: number, code: string) =>
    ok(server.client.post('/discounts/trigger', { customer_id: holder, loyalty_rule_id: targeted, external_voucher_code: code }));

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    await ok(server.client.patch('/company', { cart_cancellation_wait_seconds: 0 }));
    await createCustomer(server.client, customer, { code: 'TILL801', country: 'ES' });
    perUnit = (await ok(server.client.post('/points', { rule_params: { name: 'One a unit', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } }))).id;
    // A weekly campaign that ran on the day of the sales two days ago only.
    twoDaysAgoOnly = (await ok(server.client.post('/points', {
      rule_params: { name: 'Weekday bonus', recurrence_type: 'weekly', recurrence_days: [weekday(hoursAgo(48))], rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] },
    }))).id;
    targeted = (await ok(server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon', available_to: endingSoon() },
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
});
