/**
 * The Company's cashback_cap (PATCH /company): the most points one cart spends
 * as cashback, on top of each line's share of its original_total; null is no
 * cap, 0 no cashback (docs/evaluation.md, docs/decisions.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, expectLedgerAddsUp, grant, transactions, triggerCampaign } from '../points/testing.js';
import { startServer, type TestServer } from '../testing/server.js';

const created = () => new Date().toISOString().slice(0, 19) + 'Z';
/** Two lines, 10 and 20 (two units): 5.00 and 10.00 of cashback at most, 1,500 points at 0.01. */
const cart = (fields: Record<string, unknown>) => ({
  creation_date: created(),
  customer_id: 10,
  total: 30,
  lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }, { order: 2, product_id: 2, total: 20, quantity: 2 }],
  ...fields,
});

describe("the Company's cashback_cap", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/customers', { id: 10, name: 'Ana', registration_location_id: 1 })).status).toBe(200);
    await grant(server.client, 'welcome', 10, await triggerCampaign(server.client, 'welcome', 1000));
  });
  afterAll(() => server.dispose());

  const setCap = async (cashback_cap: number | null) => {
    const res = await server.client.patch('/company', { cashback_cap });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cashback_cap).toBe(cashback_cap);
  };

  it('caps the points a simulation and a realtime cart spend; the read, the balance and the ledger debit follow', async () => {
    const c = server.client;
    await setCap(300);
    const simulated = await c.post('/carts/simulate', cart({ cashback_score_desired: -1 }));
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.body).toMatchObject({ score_used: 300, score_used_as_money: 3, total: 27, cashbacks: [{ line_order: 1, score: 300, discount: 3 }] });
    expect(simulated.body.customer[0].score_available).toBe(700);

    const confirmed = await c.post('/carts/realtime', cart({ id: 1, cashback_score_desired: 500 }));
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ score_used: 300, total: 27, cashbacks: [{ line_order: 1, score: 300, discount: 3 }] });
    // The wish beyond the cap is not spent, as a wish beyond the balance.
    expect((await c.get('/carts/1')).body).toMatchObject({ cashback_score_desired: 500, cashback_score_desired_unused: 200, score_used: 300 });
    expect((await balance(c, 10)).score_available).toBe(700);
    expect((await transactions(c, 10)).map((tx) => tx.amount).sort((a, b) => a - b)).toEqual([-300, 1000]);
    await expectLedgerAddsUp(c, 10);
  });

  it('explicit cashbacks share the cap in the order they name the lines', async () => {
    await setCap(300);
    const res = await server.client.post('/carts/simulate', cart({ cashbacks: [{ line_order: 2, score: 250 }, { line_order: 1, score: 250 }] }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ score_used: 300, cashbacks: [{ line_order: 2, score: 250, discount: 2.5 }, { line_order: 1, score: 50, discount: 0.5 }] });
  });

  it('a change takes effect on the next cart: 0 spends nothing, null lifts the cap', async () => {
    const c = server.client;
    const spend = async () => (await c.post('/carts/simulate', cart({ cashback_score_desired: -1 }))).body;
    await setCap(0);
    expect(await spend()).toMatchObject({ score_used: 0, total: 30, cashbacks: [] });
    await setCap(450);
    expect((await spend()).score_used).toBe(450);
    await setCap(null);
    // The balance (700) is below what the lines allow (1,500).
    expect((await spend()).score_used).toBe(700);
    expect((await c.get('/company')).body.cashback_cap).toBeNull();
  });

  it('never pays points out as money: an exchange (a line returned for another) spends none, whatever the cap', async () => {
    await setCap(null);
    const before = await balance(server.client, 10);
    const exchange = cart({ id: 7700, total: 0, cashback_score_desired: -1, lines: [{ order: 1, product_id: 7, total: 10, quantity: 1 }, { order: 2, product_id: 7, total: -10, quantity: -1 }] });
    const res = await server.client.post('/carts/realtime', exchange);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ score_used: 0, total: 0, cashbacks: [] });
    expect((await balance(server.client, 10)).score_available).toBe(before.score_available);
    await expectLedgerAddsUp(server.client, 10);
  });

  it('refuses a cap that is not an integer 0..2147483647 or null, changing nothing', async () => {
    const c = server.client;
    await setCap(300);
    for (const cashback_cap of [-1, 2.5, 2147483648, '300']) {
      const res = await c.patch('/company', { cashback_cap, cashback_threshold: 5 });
      expect([res.status, res.body.code], res.text).toEqual([400, 'invalid_request']);
      expect(res.body.error).toMatch(/^cashback_cap: /);
    }
    expect((await c.get('/company')).body).toMatchObject({ cashback_cap: 300, cashback_threshold: 0 });
  });
});
