import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, expectLedgerAddsUp, transactions } from './testing.js';

const tenPerUnit = { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } };

function cart(id: number, customerId: number, extra: Record<string, unknown> = {}) {
  return cartBody(10, { id, customer_id: customerId, creation_date: '2026-11-20T10:00:00Z', ...extra });
}


describe('the ledger through cart cancellations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    for (const id of [80, 81, 82]) await createCustomer(server.client, id);
    expect((await server.client.post('/points', tenPerUnit)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('a cancellation takes back exactly what the cart earned', async () => {
    expect((await server.client.post('/carts/realtime', cart(800, 80))).body.score).toBe(100);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 800, new_cart_id: 8001 });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await balance(server.client, 80)).toMatchObject({ score: 0, score_available: 0 });
    const txs = await transactions(server.client, 80);
    expect(txs.map((t) => [t.type, t.amount])).toEqual([['activity', 100], ['activity', -100]]);
    await expectLedgerAddsUp(server.client, 80);
  });

  it('points of a cancelled cart that were already spent leave a negative balance', async () => {
    await server.client.post('/carts/realtime', cart(810, 81));
    await server.client.post('/points/redeem', { customer_id: 81, amount: 60, comments: 'spent' });
    await server.client.post('/carts/cancellation', { cart_to_cancel_id: 810, new_cart_id: 8101 });
    expect(await balance(server.client, 81)).toMatchObject({ score: -60, score_available: -60 });
    // The next points repay the debt first.
    await server.client.post('/carts/realtime', cart(811, 81));
    expect(await balance(server.client, 81)).toMatchObject({ score: 40, score_available: 40 });
    await expectLedgerAddsUp(server.client, 81);
  });

  it('points spent on a cancelled cart come back', async () => {
    await server.client.post('/carts/realtime', cart(820, 82));
    const paid = await server.client.post('/carts/realtime', cart(821, 82, { cashback_score_desired: 50 }));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.score_used).toBe(50);
    const before = await balance(server.client, 82);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 821, new_cart_id: 8211 });
    expect(cancelled.status, cancelled.text).toBe(200);
    // The 50 points spent come back; the points the cart earned go.
    expect((await balance(server.client, 82)).score_available).toBe(before.score_available + 50 - paid.body.score);
    await expectLedgerAddsUp(server.client, 82);
  });
});
