/**
 * A cart's cancellation gives back the points spent on it with POST /points/redeem_cart (contract: "Rollback of
 * earned and used points"), as it gives back the points the cart itself spent (cashback): in the cancellation's
 * answer and as activity transactions of their own, to whoever holds the spend now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';
import { startServer, type TestServer } from '../testing/server.js';

const CREATED = '2026-11-20T10:00:00Z';
let nextId = 8000;
/** A cart of one line of `quantity` units worth `total`; `customer` undefined: anonymous. */
function cart(customer: number | undefined, total: number, extra: Record<string, unknown> = {}, quantity = 1) {
  return { id: nextId++, creation_date: CREATED, ...(customer === undefined ? {} : { customer_id: customer }), total, lines: [{ order: 1, product_id: 100, total, quantity }], ...extra };
}

describe('POST /carts/cancellation gives back the points spent with POST /points/redeem_cart', () => {
  let server: TestServer;
  const post = async (path: string, body: unknown) => {
    const res = await server.client.post(path, body);
    expect(res.status, `${path} ${res.text}`).toBe(200);
    return res.body;
  };
  /** 200 points (ten a unit, available 30 days) from a cart of 20.00. */
  const seed = async (customer: number) => expect((await post('/carts/realtime', cart(customer, 20))).score).toBe(200);

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    for (const id of [71, 72, 73, 74, 75]) await createCustomer(server.client, id);
    await post('/points', {
      rule_params: {
        name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    });
    await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('beside the cashback spend, in the answer and as a transaction of its own per spend, with their dates; once only', async () => {
    await seed(71);
    const start = await balance(server.client, 71);
    const ticket = cart(71, 10, { cashback_score_desired: 30, apply_points: false });
    const answered = await post('/carts/realtime', ticket);
    expect(answered.score_used).toBe(30);
    await post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 71, amount: 15, comments: 'till 1' });
    await post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 71, amount: 5 });
    const spends = (await transactions(server.client, 71, { origin_type: 'activity' })).filter((t) => t.amount === -15 || t.amount === -5);
    expect(spends).toHaveLength(2);

    const mirror = await post('/carts/cancellation', { cart_to_cancel_id: ticket.id, new_cart_id: 8901 });
    expect(mirror).toMatchObject({
      score_returned_from_customer: answered.score,
      score_returned_to_customer: 50,
      score_returned_to_customer_as_money: 0.5,
      cashback_returns: [{ line_order: 1, score: 30 }],
    });
    expect(await balance(server.client, 71)).toEqual(start);
    expect(mirror.customer[0]).toMatchObject({ score: start.score, score_available: start.score_available });

    // One reversal of the cart's own transaction, and one per redeem_cart spend, its comments naming the spend.
    const reversals = (await transactions(server.client, 71, { origin_type: 'activity' })).filter((t) => (t.origin_info.activity as { id: number }).id === 8901);
    expect(reversals.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-answered.score + 30, 5, 15].sort((a, b) => a - b));
    for (const spend of spends) {
      const back = reversals.find((t) => t.amount === -spend.amount)!;
      expect(back.origin_info.comments).toBe(`points spent on cart ${ticket.id} (points transaction ${spend.id}) given back`);
      expect(back.origin_info.activity).toMatchObject({ id: 8901, total: -answered.total, customer_id: 71 });
      // The points come back with the dates they were spent with.
      expect(back.scores).toEqual(spend.scores.map((s) => ({ ...s, score: -s.score })));
    }
    await expectLedgerAddsUp(server.client, 71);

    // A second cancellation and a spend on the cancelled cart are refused, and move nothing.
    const again = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id, new_cart_id: 8902 });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    const spent = await server.client.post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 71, amount: 1 });
    expect(spent.body).toEqual({ code: 'invalid_request', error: `activity_id: cart ${ticket.id} is cancelled` });
    expect(await balance(server.client, 71)).toEqual(start);
    // The mirror records no spend of its own: nothing of the original's to give back twice.
    expect(await server.client.get('/carts/8901').then((r) => r.body)).not.toHaveProperty('points_redemptions');
  });

  it('an anonymous cart gives the spend back to the customer who spent it', async () => {
    await seed(72);
    const start = await balance(server.client, 72);
    const ticket = cart(undefined, 10);
    await post('/carts/realtime', ticket);
    await post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 72, amount: 25 });
    expect((await balance(server.client, 72)).score).toBe(start.score - 25);
    const mirror = await post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(mirror).toMatchObject({ score_returned_from_customer: 0, score_returned_to_customer: 25, customer: [] });
    expect(await balance(server.client, 72)).toEqual(start);
    await expectLedgerAddsUp(server.client, 72);
  });

  it('after a merge, gives the spend back to the customer merged into, as the cart\'s cashback spend', async () => {
    await seed(73);
    const ticket = cart(73, 10, { cashback_score_desired: 30, apply_points: false });
    const answered = await post('/carts/realtime', ticket);
    await post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 73, amount: 20 });
    await post('/customers/transfer', { old_customer_id: 73, new_customer_id: 74 });
    const merged = await balance(server.client, 74);
    expect(merged.score).toBe(200 + answered.score - 30 - 20);

    const mirror = await post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(mirror).toMatchObject({ score_returned_from_customer: answered.score, score_returned_to_customer: 50 });
    expect((await balance(server.client, 74)).score).toBe(200);
    expect((await balance(server.client, 73)).score).toBe(0);
    const back = (await transactions(server.client, 74, { origin_type: 'activity' })).find((t) => t.amount === 20);
    expect(back).toMatchObject({ customer_id: 74, associate_id: 73 });
    for (const id of [73, 74]) await expectLedgerAddsUp(server.client, id);
  });

  it('a return gives back its share of the spend, rounded down; the ticket\'s cancellation gives back the rest', async () => {
    await seed(75);
    const ticket = cart(75, 10, {}, 2);
    expect((await post('/carts/realtime', ticket)).score).toBe(100);
    await post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 75, amount: 21 });
    // One unit of 2: floor(21 / 2) = 10.
    const returned = await post('/carts/realtime', cart(75, -5, { returns: [{ ticket_id: ticket.id, line_order: 1, from_line_order: 1, quantity: -1 }] }, -1));
    expect(returned).toMatchObject({ score_returned_from_customer: 50, score_returned_to_customer: 10 });
    expect((await balance(server.client, 75)).score).toBe(200 + 100 - 21 - 50 + 10);

    const mirror = await post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(mirror).toMatchObject({ score_returned_from_customer: 50, score_returned_to_customer: 11 });
    expect((await balance(server.client, 75)).score).toBe(200);
    const back = (await transactions(server.client, 75, { origin_type: 'activity' })).filter((t) => (t.origin_info.activity as { id: number }).id === mirror.id);
    expect(back.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-50, 11]);
    await expectLedgerAddsUp(server.client, 75);
  });
});
