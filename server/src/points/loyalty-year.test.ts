/**
 * An integrator's year of a loyalty programme over HTTP: a batch job imports
 * tickets back-dated through the year, the till sends today's, and every answer
 * agrees with the balance and the ledger the customer reads afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, expectLedgerAddsUp, transactions, utcDate } from './testing.js';

describe('a loyalty year over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2]) await createCustomer(server.client, id, { code: `Y${id}` });
    // 1 point per euro, available 30 days after the purchase for 6 months.
    const res = await server.client.post('/points', {
      rule_params: {
        name: 'year', rule_effects: [{ type: 'ratio', value: 1, distribution: 'total' }],
        activation_period_type: 'relative', activation_delay: 30, activation_delay_unit: 'days',
        expiration_period_type: 'relative', availability_duration: 6, availability_duration_unit: 'months',
      },
    });
    expect(res.status, res.text).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const ticket = async (customerId: number, id: number, days: number, total: number) => {
    const res = await server.client.post('/carts/realtime', {
      id, customer_id: customerId, creation_date: `${utcDate(days)}T10:00:00Z`, total, lines: [{ order: 1, product_id: 1, total, quantity: 1 }],
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it("answers each ticket's customer summary as the balance read after it, back-dated or future-dated", async () => {
    // [days from today, total, points expected in score, in score_available]
    const steps: [number, number, number, number][] = [
      [-400, 100, 0, 0], // active 30 days later for 6 months: expired long ago
      [-100, 200, 200, 200], // active since 70 days ago
      [-10, 300, 500, 200], // pending for 20 more days
      [40, 50, 550, 200], // a future-dated ticket: pending
    ];
    for (const [i, [days, total, score, available]] of steps.entries()) {
      const cart = await ticket(1, 100 + i, days, total);
      expect(cart.score, `ticket ${days}`).toBe(total);
      expect(cart.customer[0], `ticket ${days}`).toMatchObject({ score, score_available: available });
      expect(await balance(server.client, 1)).toMatchObject({ score, score_available: available });
      await expectLedgerAddsUp(server.client, 1);
    }
    const txs = await transactions(server.client, 1);
    expect(txs.map((t) => [t.type, t.amount, t.pending_amount])).toEqual([
      ['activity', 100, 0], ['expiration', -100, 0], ['activity', 200, 0], ['activity', 0, 300], ['activity', 0, 50],
    ]);
    expect(txs[1].origin_info).toEqual({});
  });
});
