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

  it('takes a datetime activation_date and expiration_date as the Company\'s days they fall on', async () => {
    const create = (params: Record<string, unknown>) => server.client.post('/points', {
      rule_params: { name: 'season', when: 'season', rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }], ...params },
    });
    // Was 400 naming activation_fixed_option_selected, "(or give activation_date)", which the body gave.
    const dated = { activation_period_type: 'fixed', activation_date: '2027-01-01T00:00:00Z', expiration_period_type: 'fixed', expiration_date: '2027-03-31T23:00:00Z' };
    const res = await create(dated);
    expect(res.status, res.text).toBe(200);
    expect((await server.client.get(`/points/${res.body.id}`)).body).toMatchObject(dated);
    const granted = await server.client.post('/trigger', { trigger: 'season', customer_id: 2, loyalty_rule_id: res.body.id });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.scores).toEqual([{ score: 40, loyalty_score_id: res.body.id, available_from: '2027-01-01', available_to: '2027-03-31' }]);
    expect(granted.body.customer).toMatchObject({ score: 40, score_available: 0 });
    await expectLedgerAddsUp(server.client, 2);
    const backwards = await create({ ...dated, expiration_date: '2026-12-31T23:59:59Z' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatch(/^rule_params\.expiration_date/);
  });
});
