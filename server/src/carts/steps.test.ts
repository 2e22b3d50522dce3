/**
 * A simulate's answer, paid and sent back at checkout, is accepted (cart rule 4: a line total divisible by its
 * quantity): the evaluator takes every discount and cashback off a line in whole steps of its quantity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, grant, triggerCampaign } from '../points/testing.js';
import { startServer, type TestServer } from '../testing/server.js';

const CREATED = '2026-11-20T10:00:00Z';
const onProduct = (id: number) => ({ conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'in', values: [id] }] }] } });
let nextId = 7000;

/** The bug's line: 3 units of 3.33. */
const threeUnits = () => ({ id: nextId++, creation_date: CREATED, customer_id: 7, total: 9.99, original_total: 9.99, lines: [{ order: 1, product_id: 100, total: 9.99, original_total: 9.99, quantity: 3 }] });
const twoUnits = (extra: Record<string, unknown>) => ({ id: nextId++, creation_date: CREATED, customer_id: 7, total: 20, lines: [{ order: 1, product_id: 200, total: 20, quantity: 2 }], ...extra });

/** The answered cart as the till sends it at checkout: what it charged, line by line. */
function paid(answer: { total: number; lines: unknown[] }, request: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { ...request, id: nextId++, total: answer.total, lines: answer.lines, ...extra };
}

const divisible = (line: { total: number; quantity: number }) => Number.isInteger(Math.round(line.total * 100) / line.quantity);

describe('answered line totals satisfy cart rule 4', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await createCustomer(server.client, 7);
    const grantId = await triggerCampaign(server.client, 'welcome', 1000);
    await grant(server.client, 'welcome', 7, grantId);
    const onePercent = await server.client.post('/discounts', {
      rule_params: { name: 'One percent', rule_application: onProduct(100), rule_effects: [{ type: 'percentage', value: 1, distribution: 'individual_items' }] },
    });
    expect(onePercent.status, onePercent.text).toBe(200);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('1% off 3 × 3.33 answers 9.90 (3 × 0.03 off), and the answer sent to /carts/realtime is accepted', async () => {
    const request = threeUnits();
    const simulated = await server.client.post('/carts/simulate', request);
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.body.lines).toEqual([expect.objectContaining({ total: 9.9, quantity: 3 })]);
    expect(simulated.body.total).toBe(9.9);
    const checkout = await server.client.post('/carts/realtime', paid(simulated.body, request));
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.body.lines.every(divisible)).toBe(true);
  });

  it('5.01 of cashback desired on a 2-unit line of 20.00 spends 5.00 (500 points), one left unused; the answer is accepted back', async () => {
    const request = twoUnits({ cashback_score_desired: 501 });
    const simulated = await server.client.post('/carts/simulate', request);
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.body).toMatchObject({ total: 15, score_used: 500, cashbacks: [{ line_order: 1, score: 500, discount: 5 }] });
    expect(simulated.body.lines).toEqual([expect.objectContaining({ total: 15, quantity: 2 })]);
    // The till charged the answer, the points included: it sends no spend of its own.
    const checkout = await server.client.post('/carts/realtime', paid(simulated.body, twoUnits({ original_total: 20 })));
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.body.lines.every(divisible)).toBe(true);
    // Spent at checkout as simulated: the stored cart tells the point that was not spent.
    const spent = await server.client.post('/carts/realtime', twoUnits({ cashback_score_desired: 501, apply_points: false }));
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body).toMatchObject({ total: 15, score_used: 500 });
    expect((await server.client.get(`/carts/${spent.body.id}`)).body).toMatchObject({ score_used: 500, cashback_score_desired_unused: 1 });
  });

  it("a cancellation's mirror stores lines its quantities divide: -9.90 for -3 units", async () => {
    const request = threeUnits();
    const original = await server.client.post('/carts/realtime', request);
    expect(original.status, original.text).toBe(200);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: request.id });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.lines).toEqual([expect.objectContaining({ total: -9.9, quantity: -3 })]);
    const mirror = (await server.client.get(`/carts/${cancelled.body.id}`)).body;
    expect(mirror.lines).toEqual([expect.objectContaining({ total: -9.9, quantity: -3 })]);
    expect(mirror.lines.every(divisible)).toBe(true);
  });
});
