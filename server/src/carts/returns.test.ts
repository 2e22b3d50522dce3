import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { createCustomer, expectLedgerAddsUp, transactions, utcDate } from '../points/testing.js';

const CREATED = '2026-11-20T10:00:00Z';
let nextId = 7000;
const line = (order: number, total: number, quantity: number, productId = 100) => ({ order, product_id: productId, total, quantity });

/** A cart of customer 8 (or `customer_id` in extra). */
function cart(lines: ReturnType<typeof line>[], extra: Record<string, unknown> = {}) {
  const total = lines.reduce((sum, l) => sum + l.total, 0);
  return { id: nextId++, creation_date: CREATED, customer_id: 8, total: Math.round(total * 100) / 100, lines, ...extra };
}

/** A cart returning `quantity` units of line `from` of the ticket (its own line 1, negative). */
function returning(ticket: { id: number }, from: number, quantity: number, unitPrice: number, extra: Record<string, unknown> = {}) {
  return cart([line(1, -unitPrice * quantity, -quantity)], { returns: [{ ticket_id: ticket.id, line_order: 1, from_line_order: from, quantity: -quantity }], ...extra });
}

describe('returns take back the points the returned units earned', () => {
  let server: TestServer;
  const balance = async (customer = 8) => (await server.client.get(`/customers/${customer}/points`)).body;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await createCustomer(server.client, 8);
    await createCustomer(server.client, 9);
    await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('pro rata to the units returned, cumulatively, never more than the line earned; a cancellation of the ticket takes back only the rest', async () => {
    const start = (await balance()).score;
    // Line 1: 2 x 2.99 earns 59, a multiple of 2: 58. Line 2: 10.00 earns 100.
    const ticket = cart([line(1, 5.98, 2), line(2, 10, 1, 101)]);
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(158);

    const simulated = await server.client.post('/carts/simulate', returning(ticket, 1, 1, 2.99));
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ score: 0, score_returned_from_customer: 29, score_returned_from_customer_as_money: 0.29, score_returned_to_customer: 0 });
    expect((await balance()).score).toBe(start + 158);

    const first = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 2.99));
    expect(first.status).toBe(200);
    expect(first.body.score_returned_from_customer).toBe(29);
    expect(first.body.returns).toEqual([{ ticket_id: ticket.id, line_order: 1, from_line_order: 1, quantity: -1, score: 29 }]);
    expect(first.body.customer[0].score).toBe(start + 158 - 29);
    expect((await balance()).score).toBe(start + 158 - 29);
    expect((await server.client.get(`/carts/${first.body.id}`)).body.score_returned_from_customer).toBe(29);
    const transactions = (await server.client.get('/points/transactions', { query: { customer_id: '8' } })).body.data;
    expect(transactions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'activity', amount: -29 })]));

    // The second unit takes back the rest of the line's 58; a third (more than the line held in all) nothing.
    expect((await server.client.post('/carts/realtime', returning(ticket, 1, 1, 2.99))).body.score_returned_from_customer).toBe(29);
    expect((await server.client.post('/carts/realtime', returning(ticket, 1, 1, 2.99))).body.score_returned_from_customer).toBe(0);
    expect((await balance()).score).toBe(start + 100);

    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.score_returned_from_customer).toBe(100);
    expect((await balance()).score).toBe(start);
    // Its returns can no longer be undone: that would give back points the ticket's cancellation settled.
    const undo = await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.body.id });
    expect([undo.status, undo.body.code]).toEqual([409, 'conflict']);
    expect(undo.body.error).toMatch(/which cart \d+ has cancelled since$/);
    expect((await balance()).score).toBe(start);
    // A cancelled ticket has nothing left to take back.
    expect((await server.client.post('/carts/realtime', returning(ticket, 2, 1, 10))).body.score_returned_from_customer).toBe(0);
    expect((await balance()).score).toBe(start);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('gives back, pro rata, the points spent on the line; cancelling the return undoes it and uncounts it', async () => {
    await server.client.post('/carts/realtime', cart([line(1, 10, 1)]));
    const start = (await balance()).score;
    // 40 points spent on a line of 2 x 5.00: 9.60 left earns 96.
    const ticket = cart([line(1, 10, 2)], { cashbacks: [{ line_order: 1, score: 40 }] });
    const bought = await server.client.post('/carts/realtime', ticket);
    expect([bought.body.score, bought.body.score_used]).toEqual([96, 40]);
    expect((await balance()).score).toBe(start + 56);

    const back = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 4.8));
    expect(back.body).toMatchObject({ score_returned_from_customer: 48, score_returned_to_customer: 20, score_returned_to_customer_as_money: 0.2 });
    expect((await balance()).score).toBe(start + 56 - 48 + 20);

    const undone = await server.client.post('/carts/cancellation', { cart_to_cancel_id: back.body.id });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ score_returned_from_customer: 20, score_returned_to_customer: 48 });
    expect(undone.body.returns).toEqual([expect.objectContaining({ quantity: 1, score: -48 })]);
    expect((await balance()).score).toBe(start + 56);
    // Uncounted: the same unit moves the same points again.
    const again = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 4.8));
    expect(again.body).toMatchObject({ score_returned_from_customer: 48, score_returned_to_customer: 20 });

    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(cancelled.body).toMatchObject({ score_returned_from_customer: 48, score_returned_to_customer: 20 });
    expect((await balance()).score).toBe(start);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('gives back the returned units\' share of the points spent on the ticket with redeem_cart, cumulatively; the ticket\'s cancellation gives back the rest', async () => {
    await server.client.post('/carts/realtime', cart([line(1, 10, 1)]));
    // Line 1: 3 x 2.00, line 2: 3.00, earning 90. Of 25 points spent with redeem_cart (15, then 10), line 1's share is
    // floor(25 x 6/9) = 16 and line 2's floor(25 x 3/9) = 8, as points earned on the whole cart are shared.
    const ticket = cart([line(1, 6, 3), line(2, 3, 1, 101)]);
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(90);
    for (const amount of [15, 10]) {
      const spent = await server.client.post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 8, amount, comments: `spend ${amount} on ${ticket.id}` });
      expect(spent.status).toBe(200);
    }
    const second = (await transactions(server.client, 8)).find((t) => t.origin_info.comments === `spend 10 on ${ticket.id}`)!;
    const start = (await balance()).score;

    const simulated = await server.client.post('/carts/simulate', returning(ticket, 1, 1, 2));
    expect(simulated.body).toMatchObject({ score_returned_from_customer: 20, score_returned_to_customer: 5 });
    expect((await balance()).score).toBe(start);

    // One unit of 3 gives back floor(16 / 3) = 5; the other two the rest of 16 (the first spend's last 10, the second's first 1).
    const first = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 2));
    expect(first.body).toMatchObject({ score_returned_from_customer: 20, score_returned_to_customer: 5, score_returned_to_customer_as_money: 0.05 });
    const rest = await server.client.post('/carts/realtime', returning(ticket, 1, 2, 2));
    expect(rest.body).toMatchObject({ score_returned_from_customer: 40, score_returned_to_customer: 11 });
    expect((await balance()).score).toBe(start - 20 + 5 - 40 + 11);
    // A fourth unit of the line gives back nothing more.
    expect((await server.client.post('/carts/simulate', returning(ticket, 1, 1, 2))).body.score_returned_to_customer).toBe(0);

    // Cancelling a return takes back what it gave back and uncounts it: the same units give it back again.
    const undone = await server.client.post('/carts/cancellation', { cart_to_cancel_id: rest.body.id });
    expect(undone.body).toMatchObject({ score_returned_from_customer: 11, score_returned_to_customer: 40 });
    expect((await balance()).score).toBe(start - 20 + 5);
    expect((await server.client.post('/carts/realtime', returning(ticket, 1, 2, 2))).body.score_returned_to_customer).toBe(11);

    // The ticket's cancellation: the 30 earned that returns did not take back, and the 9 of the 25 spent that they did
    // not give back, all of the second spend's (the first came back whole: no transaction for it).
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(cancelled.body).toMatchObject({ score_returned_from_customer: 30, score_returned_to_customer: 9 });
    const reversals = (await transactions(server.client, 8, { origin_type: 'activity' })).filter((t) => (t.origin_info.activity as { id: number }).id === cancelled.body.id);
    expect(reversals.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-30, 9]);
    expect(reversals.find((t) => t.amount === 9)!.origin_info.comments).toBe(`points spent on cart ${ticket.id} (points transaction ${second.id}) given back`);
    // Returns and the cancellation took back the 90 earned and gave back the 25 spent: the balance is as before the ticket.
    expect((await balance()).score).toBe(start - 90 + 25);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('a return may take the balance below zero; cancelling the return restores it exactly', async () => {
    await createCustomer(server.client, 10);
    const ticket = cart([line(1, 10, 1)], { customer_id: 10 });
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(100);
    expect((await server.client.post('/points/redeem', { customer_id: 10, amount: 90, comments: 'spent elsewhere' })).status).toBe(200);
    expect((await balance(10)).score).toBe(10);
    const back = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 10, { customer_id: 10 }));
    expect(back.body.score_returned_from_customer).toBe(100);
    expect((await balance(10)).score).toBe(-90);
    const undone = await server.client.post('/carts/cancellation', { cart_to_cancel_id: back.body.id });
    expect(undone.body.score_returned_to_customer).toBe(100);
    expect((await balance(10)).score).toBe(10);
    await expectLedgerAddsUp(server.client, 10);
  });

  it('only the ticket customer\'s returns move points; an anonymous or another customer\'s return moves none', async () => {
    const ticket = cart([line(1, 10, 1)], { code: 'TICKET-ANN' });
    await server.client.post('/carts/realtime', ticket);
    const bob = (await balance(9)).score;
    const byBob = await server.client.post('/carts/realtime', { ...returning(ticket, 1, 1, 10, { customer_id: 9 }), returns: [{ ticket_code: 'TICKET-ANN', line_order: 1, quantity: -1 }] });
    expect(byBob.body.score_returned_from_customer).toBe(0);
    expect((await balance(9)).score).toBe(bob);
    const { customer_id: _, ...anonymous } = returning(ticket, 1, 1, 10);
    expect((await server.client.post('/carts/realtime', anonymous)).body.score_returned_from_customer).toBe(0);
    const byAnn = await server.client.post('/carts/realtime', { ...returning(ticket, 1, 1, 10), returns: [{ ticket_code: 'TICKET-ANN', line_order: 1, quantity: -1 }] });
    expect(byAnn.body.score_returned_from_customer).toBe(100);
  });

  it('a return that moved no points can be cancelled after its ticket was: a second return of the line, a line that earned nothing', async () => {
    const ticket = cart([line(1, 10, 1), line(2, 5, 1, 101)], { apply_points: false });
    await server.client.post('/carts/realtime', ticket);
    const start = (await balance()).score;
    // Line 2 earned nothing (apply_points false): its return moves no points.
    const nothingEarned = returning(ticket, 2, 1, 5);
    expect((await server.client.post('/carts/realtime', nothingEarned)).body.returns).toEqual([expect.objectContaining({ quantity: -1, score: 0 })]);
    const earning = cart([line(1, 10, 1)]);
    await server.client.post('/carts/realtime', earning);
    const first = await server.client.post('/carts/realtime', returning(earning, 1, 1, 10));
    expect(first.body.score_returned_from_customer).toBe(100);
    // The clerk scans the same return again: the unit was returned already, nothing moves.
    const again = returning(earning, 1, 1, 10);
    expect((await server.client.post('/carts/realtime', again)).body.score_returned_from_customer).toBe(0);
    for (const original of [ticket, earning]) expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: original.id })).status).toBe(200);
    const after = (await balance()).score;
    for (const mistaken of [nothingEarned, again]) {
      const undone = await server.client.post('/carts/cancellation', { cart_to_cancel_id: mistaken.id });
      expect(undone.status, undone.text).toBe(200);
      expect(undone.body).toMatchObject({ score_returned_from_customer: 0, score_returned_to_customer: 0 });
    }
    // The return that took back points still cannot be undone.
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.body.id })).status).toBe(409);
    expect(after).toBe(start);
    expect((await balance()).score).toBe(start);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('ticket_id with ticket_code must name the same ticket, else 400 naming ticket_code and nothing stored', async () => {
    const ticket = cart([line(1, 10, 1)], { code: 'BOTH-1' });
    const other = cart([line(1, 20, 1)], { code: 'BOTH-2' });
    const uncoded = cart([line(1, 10, 1)]);
    for (const stored of [ticket, other, uncoded]) await server.client.post('/carts/realtime', stored);
    const before = (await balance()).score;
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ ticket_id: ticket.id, ticket_code: 'BOTH-2' }, new RegExp(`^returns\\[0\\]\\.ticket_code: cart ${ticket.id} \\(ticket_id\\) has code BOTH-1$`)],
      [{ ticket_id: uncoded.id, ticket_code: 'BOTH-2' }, new RegExp(`^returns\\[0\\]\\.ticket_code: is the code of cart ${other.id}, not of cart ${uncoded.id} \\(ticket_id\\)$`)],
      [{ ticket_id: 424242, ticket_code: 'BOTH-1' }, new RegExp(`^returns\\[0\\]\\.ticket_code: is the code of cart ${ticket.id}, not of cart 424242 \\(ticket_id\\)$`)],
    ];
    for (const [names, message] of refusals) {
      const body = { ...returning(ticket, 1, 1, 10), returns: [{ ...names, line_order: 1, quantity: -1 }] };
      const refused = await server.client.post('/carts/realtime', body);
      expect([refused.status, refused.body.code], refused.text).toEqual([400, 'invalid_request']);
      expect(refused.body.error).toMatch(message);
      expect((await server.client.get(`/carts/${body.id}`)).status).toBe(404);
    }
    expect((await balance()).score).toBe(before);
    // Both naming the ticket, or a code the uncoded ticket never had, are the ticket_id's return.
    const agreeing = await server.client.post('/carts/realtime', { ...returning(ticket, 1, 1, 10), returns: [{ ticket_id: ticket.id, ticket_code: 'BOTH-1', line_order: 1, quantity: -1 }] });
    expect(agreeing.body.score_returned_from_customer).toBe(100);
    const unknownCode = await server.client.post('/carts/simulate', { ...returning(uncoded, 1, 1, 10), returns: [{ ticket_id: uncoded.id, ticket_code: 'RECEIPT-77', line_order: 1, quantity: -1 }] });
    expect(unknownCode.body.score_returned_from_customer).toBe(100);
  });

  it('parallel returns of the same line never take back more than it earned', async () => {
    const ticket = cart([line(1, 10, 10)]);
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(100);
    const before = (await balance()).score;
    const answers = await Promise.all(Array.from({ length: 16 }, () => server.client.post('/carts/realtime', returning(ticket, 1, 1, 1))));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const taken = answers.reduce((sum, answer) => sum + answer.body.score_returned_from_customer, 0);
    expect(taken).toBe(100);
    expect((await balance()).score).toBe(before - 100);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('a refused return leaves no trace', async () => {
    const ticket = cart([line(1, 3, 1)]);
    await server.client.post('/carts/realtime', ticket);
    const before = (await balance()).score;
    const tooMany = returning(ticket, 1, 2, 1.5);
    const refused = await server.client.post('/carts/realtime', tooMany);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_request');
    expect((await server.client.get(`/carts/${tooMany.id}`)).status).toBe(404);
    expect((await balance()).score).toBe(before);
    expect((await server.client.post('/carts/simulate', returning(ticket, 1, 1, 3))).body.score_returned_from_customer).toBe(30);
  });

  it('a ticket sent without line orders is returned by the numbers its answer gave its lines (their places)', async () => {
    const ticket = cart([line(1, 10, 1), line(2, 20, 2, 101)].map(({ order: _order, ...rest }) => rest) as ReturnType<typeof line>[]);
    const sold = await server.client.post('/carts/realtime', ticket);
    expect(sold.body.scores.map((s: { line_order: number; score: number }) => [s.line_order, s.score])).toEqual([[1, 100], [2, 200]]);
    const back = await server.client.post('/carts/realtime', returning(ticket, 2, 1, 10));
    expect(back.status, back.text).toBe(200);
    expect(back.body.score_returned_from_customer).toBe(100);
    // Named by line_order alone (no from_line_order), a line the ticket lacks is refused naming the field sent.
    const missing = await server.client.post('/carts/realtime', cart([line(1, -10, -1)], { returns: [{ ticket_id: ticket.id, line_order: 3, quantity: -1 }] }));
    expect(missing.body).toEqual({ code: 'invalid_request', error: `returns[0].line_order: cart ${ticket.id} has no line 3` });
  });

  it('points earned on the whole cart (line -1) are shared among its lines by their totals', async () => {
    const everyCart = await server.client.post('/points', { rule_params: { name: 'Thirty a cart', rule_effects: [{ type: 'direct_value', value: 30, distribution: 'total_cart' }] } });
    expect(everyCart.status).toBe(200);
    // Line 1 holds 10 of 30.00: its share of the 30 cart points is 10, beside its own 100.
    const ticket = cart([line(1, 10, 1), line(2, 20, 1, 101)]);
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(330);
    const returned = await server.client.post('/carts/simulate', { ...returning(ticket, 1, 1, 10), apply_points: false });
    expect(returned.body.score_returned_from_customer).toBe(110);
    expect((await server.client.patch(`/points/${everyCart.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('points of the ticket that expired are not taken back', async () => {
    const expiring = await server.client.post('/points', {
      rule_params: { name: 'Five per unit, expired', expiration_period_type: 'fixed', expiration_date: utcDate(-1), rule_effects: [{ type: 'ratio', value: 5, distribution: 'individual_items' }] },
    });
    expect(expiring.status).toBe(200);
    // 10.00 earns 100 that never expire and 50 that expired yesterday.
    const ticket = cart([line(1, 10, 1)]);
    expect((await server.client.post('/carts/realtime', ticket)).body.score).toBe(150);
    expect((await server.client.patch(`/points/${expiring.body.id}`, { rule_params: { active: false } })).status).toBe(200);
    const before = (await balance()).score;
    const back = await server.client.post('/carts/realtime', returning(ticket, 1, 1, 10));
    expect(back.body.score_returned_from_customer).toBe(100);
    expect((await balance()).score).toBe(before - 100);
    // Nothing is left to take back: a cancellation of the ticket takes back nothing more, and says so.
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id });
    expect(cancelled.body.score_returned_from_customer).toBe(0);
    expect((await balance()).score).toBe(before - 100);
    await expectLedgerAddsUp(server.client, 8);
  });

  it('the answer\'s customer summary is the balance after a return taking back pending points and giving back spent ones; and after its cancellation', async () => {
    const later = await server.client.post('/points', {
      rule_params: { name: 'Ten per unit, pending', activation_period_type: 'fixed', activation_date: utcDate(3), rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] },
    });
    expect(later.status).toBe(200);
    // 2 × 10.00, 0.10 paid with 10 points: earns 199 available now and 199 pending, rounded down to 198 each (2 units).
    expect((await server.client.post('/carts/realtime', cart([line(1, 1, 1)]))).status).toBe(200);
    const ticket = cart([line(1, 20, 2)], { cashback_score_desired: 10 });
    expect((await server.client.post('/carts/realtime', ticket)).body).toMatchObject({ score: 396, score_used: 10 });
    expect((await server.client.patch(`/points/${later.body.id}`, { rule_params: { active: false } })).status).toBe(200);
    const summaryIsBalance = async (answer: { customer: { score: number; score_available: number }[] }) => {
      const { score, score_available } = await balance();
      expect({ score: answer.customer[0].score, score_available: answer.customer[0].score_available }).toEqual({ score, score_available });
    };
    const back = await server.client.post('/carts/realtime', returning(ticket, 1, 2, 10));
    expect(back.body).toMatchObject({ score_returned_from_customer: 396, score_returned_to_customer: 10 });
    await summaryIsBalance(back.body);
    const undone = await server.client.post('/carts/cancellation', { cart_to_cancel_id: back.body.id });
    expect(undone.status, undone.text).toBe(200);
    await summaryIsBalance(undone.body);
    await expectLedgerAddsUp(server.client, 8);
  });
});
