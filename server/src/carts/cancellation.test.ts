import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';

const CREATED = '2026-11-20T10:00:00Z';
/** The customer summary's points fields, as GET /customers/{id}/points answers them. */
const SUMMARY_FIELDS = ['score', 'score_as_money', 'score_available', 'score_available_as_money', 'score_to_reach_cashback', 'money_to_spend_to_reach_cashback'];
const pick = (body: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.map((f) => [f, body[f]]));
let nextId = 5000;
function cart(extra: Record<string, unknown> = {}) {
  return { id: nextId++, creation_date: CREATED, total: 2.99, customer_id: 7, lines: [{ order: 1, product_id: 100, total: 2.99, quantity: 1 }], ...extra };
}

describe('POST /carts/cancellation', () => {
  let server: TestServer;
  const balance = async () => (await server.client.get('/customers/7/points')).body;
  const balance8 = async () => (await server.client.get('/customers/8/points')).body;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await server.client.post('/customers', { id: 7, name: 'Ann', registration_location_id: 1 });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('waits the Company setting (default 5 minutes) before a cart can be cancelled', async () => {
    const body = cart();
    await server.client.post('/carts/realtime', body);
    const early = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^cart_to_cancel_id: a cart can be cancelled 300 s after its creation/) });
    expect((await server.client.get(`/carts/${body.id}`)).body.cancelled_by_cart_id).toBeNull();
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });

  it('never lets a cancellation in before the wait: the cart\'s stored second counts from its end', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 1 })).status).toBe(200);
    const bodies = Array.from({ length: 5 }, () => cart());
    // Each cancelled at once, well within a second of its cart: the cart's second truncated let about a third of them in.
    for (const body of bodies) {
      expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
      const refused = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id });
      // The age it can vouch for: at least the whole seconds since the end of its stored second.
      expect(refused.body).toEqual({ code: 'invalid_request', error: `cart_to_cancel_id: a cart can be cancelled 1 s after its creation (cart ${body.id} is at least 0 s old)` });
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: bodies[4].id })).status).toBe(200);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });

  it('mirrors the cart with negative amounts and takes back exactly the points earned', async () => {
    const before = await balance();
    const body = cart({ total: 5.98, lines: [{ order: 1, product_id: 100, total: 5.98, quantity: 2 }] });
    expect((await server.client.post('/carts/realtime', body)).body.score).toBe(58);
    expect((await balance()).score).toBe(before.score + 58);
    const res = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id, new_cart_id: 9001, new_cart_code: 'RETURN-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 9001, code: 'RETURN-1', total: -5.98, score: -58, score_returned_from_customer: 58 });
    expect(res.body.lines).toEqual([expect.objectContaining({ total: -5.98, quantity: -2 })]);
    expect(res.body.effects).toEqual([expect.objectContaining({ type: 'points', effect_type: 'rollback', value: -58 })]);
    expect((await balance()).score).toBe(before.score);
    const original = await server.client.get(`/carts/${body.id}`);
    expect(original.body).toMatchObject({ total: 5.98, score: 58, cancelled_by_cart_id: 9001 });
    const mirror = await server.client.get('/carts/RETURN-1');
    expect(mirror.body).toMatchObject({ id: 9001, total: -5.98, cancels_cart_id: body.id });
  });

  it('answers the new cart\'s code when new_cart_code is sent; the original\'s code stays the original\'s', async () => {
    const [coded, other] = [cart({ code: 'TICKET-A' }), cart({ code: 'TICKET-B' })];
    for (const body of [coded, other]) expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
    const named = await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'TICKET-A', new_cart_code: 'RETURN-A' });
    expect(named.status, named.text).toBe(200);
    expect(named.body.code).toBe('RETURN-A');
    expect((await server.client.get('/carts/RETURN-A')).body).toMatchObject({ id: named.body.id, code: 'RETURN-A', cancels_cart_id: coded.id });
    // Without new_cart_code the mirror has no code (codes are unique: TICKET-B names the original), as a cart sent without one.
    const unnamed = await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'TICKET-B' });
    expect(unnamed.status, unnamed.text).toBe(200);
    expect('code' in unnamed.body).toBe(false);
    expect((await server.client.get(`/carts/${unnamed.body.id}`)).body).toMatchObject({ code: null, cancels_cart_id: other.id });
    expect((await server.client.get('/carts/TICKET-B')).body.id).toBe(other.id);
  });

  it('negates the money and quantities of payments, promotions and returns too', async () => {
    const original = cart({ payments: [{ amount: 2.99, type: 'card', change: 0.01 }], promotions: [{ promotion_id: 3, discount: 0.5, line_order: 1 }] });
    expect((await server.client.post('/carts/realtime', original)).status).toBe(200);
    const returning = cart({ returns: [{ ticket_id: original.id, line_order: 1, from_line_order: 1, quantity: 1 }] });
    expect((await server.client.post('/carts/realtime', returning)).status).toBe(200);
    // The return first: once its ticket is cancelled, a return can no longer be (returns.test.ts).
    for (const [cancelled, mirror] of [[returning.id, 9102], [original.id, 9101]]) {
      expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: cancelled, new_cart_id: mirror })).status).toBe(200);
    }
    const [first, second] = [(await server.client.get('/carts/9101')).body, (await server.client.get('/carts/9102')).body];
    expect([first.payments, first.promotions]).toEqual([[{ amount: -2.99, type: 'card', change: -0.01 }], [{ promotion_id: 3, discount: -0.5, discount_int: -50, line_order: 1 }]]);
    expect(second.returns).toEqual([expect.objectContaining({ ticket_id: original.id, quantity: -1 })]);
  });

  it('returns the points spent as cashback (cashback_returns)', async () => {
    await server.client.post('/carts/realtime', cart({ total: 10, lines: [{ order: 1, product_id: 100, total: 10, quantity: 1 }] }));
    const before = await balance();
    const spend = cart({ total: 10, cashback_score_desired: 50, apply_points: false, lines: [{ order: 1, product_id: 100, total: 10, quantity: 1 }] });
    const spent = await server.client.post('/carts/realtime', spend);
    expect(spent.body.score_used).toBe(50);
    expect((await balance()).score).toBe(before.score - 50);
    const res = await server.client.post('/carts/cancellation', { cart_to_cancel_id: spend.id });
    expect(res.status).toBe(200);
    expect(res.body.score_returned_to_customer).toBe(50);
    expect(res.body.cashback_returns).toEqual([{ line_order: 1, score: 50 }]);
    expect((await balance()).score).toBe(before.score);
    // The mirror asks to spend nothing: no desired spend, none left unused.
    const mirror = (await server.client.get(`/carts/${res.body.id}`)).body;
    expect(mirror).not.toHaveProperty('cashback_score_desired');
    expect(mirror.cashback_score_desired_unused).toBe(0);
  });

  // They listed the whole cashback after a return had given back part of it, more than score_returned_to_customer.
  it('lists in cashback_returns only the cashback the cancellation gives back, after what returns gave back', async () => {
    await server.client.post('/carts/realtime', cart({ total: 10, lines: [{ order: 1, product_id: 100, total: 10, quantity: 1 }] }));
    const ticket = cart({ total: 10, cashback_score_desired: 50, apply_points: false, lines: [{ order: 1, product_id: 100, total: 10, quantity: 2 }] });
    expect((await server.client.post('/carts/realtime', ticket)).body.score_used).toBe(50);
    const returning = cart({ total: -5, apply_points: false, lines: [{ order: 1, product_id: 100, total: -5, quantity: -1 }], returns: [{ ticket_id: ticket.id, line_order: 1, from_line_order: 1, quantity: 1 }] });
    expect((await server.client.post('/carts/realtime', returning)).body.score_returned_to_customer).toBe(25);
    const res = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body.score_returned_to_customer).toBe(25);
    expect(res.body.cashback_returns).toEqual([{ line_order: 1, score: 25 }]);
  });

  it('a cart is cancelled once (an identical retry within 5 minutes answers as the first); a cancellation cannot be cancelled; unknown carts are 404', async () => {
    const body = cart({ code: 'ONCE' });
    await server.client.post('/carts/realtime', body);
    const first = await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'ONCE' });
    expect(first.status).toBe(200);
    const points = (await balance()).score;
    // Common rule 8: the same request again is not run again and gets the first answer.
    const retried = await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'ONCE' });
    expect(retried.status).toBe(200);
    expect(retried.text).toBe(first.text);
    expect((await balance()).score).toBe(points);
    const again = await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'ONCE', new_cart_code: 'ONCE-AGAIN' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const ofMirror = await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.body.id });
    expect(ofMirror.status).toBe(400);
    expect((await balance()).score).toBe(points);
    const missing = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 777777 });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('cart_not_found');
    expect((await server.client.post('/carts/cancellation', {})).status).toBe(400);
  });

  it('refuses a new_cart_id that exists (409 duplicate_id) without rolling anything back', async () => {
    const body = cart();
    await server.client.post('/carts/realtime', body);
    const points = (await balance()).score;
    const res = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id, new_cart_id: body.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('duplicate_id');
    expect((await balance()).score).toBe(points);
    expect((await server.client.get(`/carts/${body.id}`)).body.cancelled_by_cart_id).toBeNull();
  });

  it('returns the budget and the once limit the cart consumed', async () => {
    const created = await server.client.post('/discounts', {
      rule_params: { name: 'One euro off once', once: 'always', once_limit: 1, budget_value: 1, rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] },
    });
    expect(created.status).toBe(200);
    const first = cart({ total: 5, lines: [{ order: 1, product_id: 100, total: 5, quantity: 1 }] });
    expect((await server.client.post('/carts/realtime', first)).body.total_discount_applied).toBe(1);
    const blocked = await server.client.post('/carts/simulate', cart({ total: 5, lines: [{ order: 1, product_id: 100, total: 5, quantity: 1 }] }));
    expect(blocked.body.total_discount_applied).toBe(0);
    expect(blocked.body.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: created.body.id })]);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.id })).status).toBe(200);
    const again = await server.client.post('/carts/simulate', cart({ total: 5, lines: [{ order: 1, product_id: 100, total: 5, quantity: 1 }] }));
    expect(again.body.total_discount_applied).toBe(1);
    expect((await server.client.patch(`/discounts/${created.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('answers the customer summary at the balance after the cancellation, money values and cashback distance included', async () => {
    expect((await server.client.patch('/company', { cashback_threshold: 100000 })).status).toBe(200);
    try {
      const body = cart({ total: 5, lines: [{ order: 1, product_id: 100, total: 5, quantity: 1 }] });
      expect((await server.client.post('/carts/realtime', body)).body.score).toBe(50);
      const res = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id });
      expect(res.status).toBe(200);
      const expected = pick(await balance(), SUMMARY_FIELDS);
      expect(pick(res.body.customer[0], SUMMARY_FIELDS)).toEqual(expected);
      expect(pick((await server.client.get(`/carts/${res.body.id}`)).body.customer, SUMMARY_FIELDS)).toEqual(expected);
    } finally {
      expect((await server.client.patch('/company', { cashback_threshold: 0 })).status).toBe(200);
    }
  });

  it('takes back the instant-win prizes the cart won with their stock: points through the ledger, a reward redemption, an unplayed game play', async () => {
    const who = 8;
    await createCustomer(server.client, who);
    const campaign = await server.client.post('/points', { rule_params: { name: 'Prize points', when: 'prize-points', rule_effects: [{ type: 'direct_value', value: 250, distribution: 'total' }] } });
    const reward = await server.client.post('/rewards', { name: { en: 'Tote bag' }, points: 500, type: 'physical', total_stock: 3 });
    const wheel = await server.client.post('/games', { rule_params: { name: 'Prize wheel', select_customers: 'targeted' }, game: { type: 'wheel', game_prizes: [] } });
    const outcomes = [['points', campaign.body.id], ['reward', reward.body.id], ['game', wheel.body.id]] as const;
    const wins: number[] = [];
    for (const [type, id] of outcomes) {
      const win = await server.client.post('/instant_wins', {
        rule_params: { name: `Scratch ${type}`, select_customers: 'loyalty' },
        instant_win: { instant_win_prizes: [{ name: type, description: type, outcome: { promotion_type: type, promotion_id: id }, weight: 1, stock: 5 }] },
      });
      expect(win.status, win.text).toBe(200);
      wins.push(win.body.id);
    }
    const stock = async () => Promise.all(wins.map(async (id) => (await server.client.get(`/instant_wins/${id}`)).body.instant_win.instant_win_prizes[0].available_stock));
    const plays = async () => (await server.client.get('/games', { query: { customer_id: String(who), campaign_audience: 'targeted' } })).body.data;
    const redemptions = async () => (await server.client.get('/rewards/transactions', { query: { customer_id: String(who) } })).body.data;
    try {
      const body = cart({ customer_id: who, total: 5, lines: [{ order: 1, product_id: 100, total: 5, quantity: 1 }] });
      const won = await server.client.post('/carts/realtime', body);
      expect(won.body.effects.filter((e: { type: string }) => e.type === 'instant_win').map((e: { prize_name: string }) => e.prize_name)).toEqual(['points', 'reward', 'game']);
      // The cart's 50 points and the prize's 250: the summary is the balance after both.
      expect(pick(won.body.customer[0], SUMMARY_FIELDS)).toEqual(pick(await balance8(), SUMMARY_FIELDS));
      expect(won.body.customer[0].score).toBe(300);
      expect([await stock(), (await plays()).length, (await redemptions()).map((r: { status: string }) => r.status)]).toEqual([[4, 4, 4], 1, ['available']]);
      const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: body.id });
      expect(cancelled.status, cancelled.text).toBe(200);
      // The mirror's effects are rollbacks, its instant-win effects too (docs/decisions.md), with the prizes they take back.
      expect(cancelled.body.effects.filter((e: { type: string }) => e.type === 'instant_win').map((e: { effect_type: string; prize_name: string }) => [e.effect_type, e.prize_name]))
        .toEqual([['rollback', 'points'], ['rollback', 'reward'], ['rollback', 'game']]);
      expect(cancelled.body.customer[0].score).toBe(0);
      expect(await balance8()).toMatchObject({ score: 0, score_available: 0 });
      expect([await stock(), await plays(), (await redemptions()).map((r: { status: string }) => r.status)]).toEqual([[5, 5, 5], [], ['reverted']]);
      // Each points transaction reversed by one of its own, and the reward's zero-point transaction too.
      const moved = (await transactions(server.client, who)).map((t) => [t.type, t.amount]);
      expect(moved.sort()).toEqual([['activity', -250], ['activity', -50], ['activity', 250], ['activity', 50], ['reward', 0], ['reward', 0]]);
      await expectLedgerAddsUp(server.client, who);
    } finally {
      for (const id of wins) await server.client.patch(`/instant_wins/${id}`, { rule_params: { active: false } });
    }
  });
});
