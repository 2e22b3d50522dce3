import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const CREATED = '2026-11-20T10:00:00Z';
const tenPerUnit = { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } };

function cart(id: number, extra: Record<string, unknown> = {}) {
  return { id, creation_date: CREATED, total: 2.99, customer_id: 7, lines: [{ order: 1, product_id: 100, total: 2.99, quantity: 1 }], ...extra };
}

describe('carts: the contract worked example over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2' } });
    expect((await server.client.post('/customers', { id: 7, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/points', tenPerUnit)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('simulate: 29 points for 2.99 at 10 per unit, nothing persisted', async () => {
    const res = await server.client.post('/carts/simulate', cart(1));
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(29);
    expect(res.body.id).toBe(1);
    expect(Array.isArray(res.body.customer)).toBe(true);
    // The customer summary previews the balance after the cart.
    expect(res.body.customer[0]).toMatchObject({ id: 7, score: 29 });
    expect((await server.client.get('/carts/1')).status).toBe(404);
    expect((await server.client.get('/customers/7/points')).body.score).toBe(0);
  });

  it('realtime: 29 points in the response, in the balance and in the stored cart', async () => {
    const res = await server.client.post('/carts/realtime', cart(2));
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(29);
    expect(res.body.effects).toEqual([expect.objectContaining({ type: 'points', value: 29, line: 1 })]);
    expect((await server.client.get('/customers/7/points')).body).toMatchObject({ score: 29, score_available: 29 });
    const stored = await server.client.get('/carts/2');
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: 2, score: 29, customer_id: 7, customer: { id: 7 } });
  });
});
