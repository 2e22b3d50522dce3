import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('customer merge moves carts', () => {
  let server: TestServer;
  const ids = async (query: Record<string, string>) => (await server.client.get('/carts', { query })).body.data.map((c: { id: number }) => c.id);
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await server.client.post('/customers', { id: 1, code: 'OLD', name: 'Old', registration_location_id: 1 });
    await server.client.post('/customers', { id: 2, code: 'NEW', name: 'New', registration_location_id: 1 });
    const line = [{ order: 1, total: 3, quantity: 1 }];
    await server.client.post('/carts/realtime', { id: 10, customer_id: 1, creation_date: '2026-11-20T10:00:00Z', total: 3, lines: line });
    await server.client.post('/carts/realtime', { id: 20, customer_id: 2, creation_date: '2026-11-20T10:00:00Z', total: 3, lines: line });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('gives the old customer carts to the new one, the old customer recorded as associate; an unmerge with_activites gives them back', async () => {
    expect((await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 })).status).toBe(200);
    expect(await ids({ customer_id: '2' })).toEqual([10, 20]);
    expect(await ids({ customer_id: '1' })).toEqual([]);
    expect(await ids({ associate_id: '1' })).toEqual([10]);
    expect((await server.client.get('/carts/10')).body).toMatchObject({ customer_id: 2, customer_code: 'NEW', associate_id: 1 });
    const unmerge = await server.client.post('/customers/1/unmerge', undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'true' } });
    expect(unmerge.status, unmerge.text).toBe(200);
    expect(await ids({ customer_id: '1' })).toEqual([10]);
    expect((await server.client.get('/carts/10')).body).toMatchObject({ customer_id: 1, customer_code: 'OLD', associate_id: null });
  });

  it('a customer with carts is not deleted for good: hard=true falls back to the soft delete (activities are critical records)', async () => {
    const res = await server.client.delete('/customers/2', { headers: { 'Content-Type': 'application/json' }, query: { hard: 'true' } });
    expect(res.status).toBe(200);
    expect((await server.client.get('/carts/20')).body.customer_id).toBe(2);
  });
});

describe('carts naming a merged or merging customer', () => {
  let server: TestServer;
  const line = [{ order: 1, total: 3, quantity: 1 }];
  const cart = (fields: Record<string, unknown>) => ({ creation_date: '2026-11-20T10:00:00Z', total: 3, lines: line, ...fields });
  const json = { headers: { 'Content-Type': 'application/json' } };
  beforeAll(async () => {
    // transfer-new completes a second after the request: its old customer is merging meanwhile.
    server = await startServer({ env: { WORKERS: '1', TALLY_MERGE_DELAY_MS: '1000' } });
    for (let id = 1; id <= 7; id++) await server.client.post('/customers', { id, code: `C${id}`, name: `C${id}`, registration_location_id: 1 });
    const points = await server.client.post('/points', { rule_params: { name: 'Five a cart', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] } });
    expect(points.status, points.text).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('are recorded and evaluated for the customer it was merged into, the merged one as associate; an unmerge leaves them there', async () => {
    expect((await server.client.post('/carts/realtime', cart({ id: 10, customer_id: 1 }))).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 })).status).toBe(200);
    const simulated = await server.client.post('/carts/simulate', cart({ customer_code: 'C1' }));
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.body.customer).toEqual([expect.objectContaining({ id: 2, code: 'C2', score: 10 })]);
    const realtime = await server.client.post('/activities/realtime', cart({ id: 11, customer_id: 1 }));
    expect(realtime.status, realtime.text).toBe(200);
    expect(realtime.body.customer).toEqual([expect.objectContaining({ id: 2, code: 'C2', score: 10 })]);
    expect((await server.client.post('/carts', cart({ id: 12, customer_code: 'C1' }))).status).toBe(200);
    for (const id of [11, 12]) expect((await server.client.get(`/carts/${id}`)).body).toMatchObject({ customer_id: 2, customer_code: 'C2', associate_id: 1 });
    expect((await server.client.get('/customers/2/points')).body).toMatchObject({ score: 15 });
    expect((await server.client.get('/points/transactions', { query: { customer_id: '1' } })).body.data).toEqual([]);
    // The points of the carts naming 1 name it as associate too: the one the merge moved, and those recorded for 2 since.
    const associated = (await server.client.get('/points/transactions', { query: { associate_id: '1' } })).body.data;
    expect(associated.map((t: { customer_id: number; associate_id: number; amount: number }) => [t.customer_id, t.associate_id, t.amount])).toEqual([[2, 1, 5], [2, 1, 5], [2, 1, 5]]);
    // The unmerge gives back what the merge moved; the carts recorded for 2 while 1 was merged (and their points) stay with 2.
    const unmerge = await server.client.post('/customers/1/unmerge', undefined, { ...json, query: { with_activites: 'true' } });
    expect(unmerge.status, unmerge.text).toBe(200);
    expect(await ids({ customer_id: '1' })).toEqual([10]);
    expect(await ids({ customer_id: '2' })).toEqual([11, 12]);
    expect((await server.client.get('/customers/1/points')).body).toMatchObject({ score: 5 });
    expect((await server.client.get('/customers/2/points')).body).toMatchObject({ score: 10 });
    // 1 is active again: its carts are its own.
    expect((await server.client.post('/carts/realtime', cart({ id: 13, customer_id: 1 }))).body.customer).toEqual([expect.objectContaining({ id: 1 })]);
  });

  it('follow merged_to to its end (3 merged into 4, then 4 into 5)', async () => {
    expect((await server.client.post('/customers/transfer', { old_customer_id: 3, new_customer_id: 4 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_id: 5 })).status).toBe(200);
    const res = await server.client.post('/carts/realtime', cart({ id: 20, customer_id: 3 }));
    expect(res.body.customer).toEqual([expect.objectContaining({ id: 5 })]);
    expect((await server.client.get('/carts/20')).body).toMatchObject({ customer_id: 5, associate_id: 3 });
    // Its cancellation's reversal names the associate as the cart's points transaction does.
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 20, new_cart_id: 21 })).status).toBe(200);
    const associated = (await server.client.get('/points/transactions', { query: { associate_id: '3' } })).body.data;
    expect(associated.map((t: { customer_id: number; associate_id: number; amount: number }) => [t.customer_id, t.associate_id, t.amount])).toEqual([[5, 3, 5], [5, 3, -5]]);
  });

  it('while the customer is merging are its own, and move with its records when the merge completes', async () => {
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 6, new_customer_id: 7 })).status).toBe(200);
    const res = await server.client.post('/carts/realtime', cart({ id: 30, customer_code: 'C6' }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.customer).toEqual([expect.objectContaining({ id: 6, score: 5 })]);
    for (let i = 0; i < 100 && (await server.client.get('/customers/6')).body.status !== 'merged'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await server.client.get('/carts/30')).body).toMatchObject({ customer_id: 7, associate_id: 6 });
    expect((await server.client.get('/customers/7/points')).body).toMatchObject({ score: 5 });
  });

  async function ids(query: Record<string, string>) {
    return (await server.client.get('/carts', { query })).body.data.map((c: { id: number }) => c.id);
  }
});

// Two writer threads with many carts in flight while the merge commits: carts evaluated before it and written after.
describe('realtime carts racing a merge of their customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2', CART_TASKS_PER_WORKER: '16' } });
    for (const id of [1, 2]) await server.client.post('/customers', { id, code: `C${id}`, name: `C${id}`, registration_location_id: 1 });
    await server.client.post('/points', { rule_params: { name: 'Five a cart', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('no cart is left with the merged customer: each one is moved by the merge or recorded for the customer merged into', async () => {
    const carts = Array.from({ length: 80 }, (_, i) => ({ id: 100 + i, customer_id: 1, creation_date: '2026-11-20T10:00:00Z', total: 3, lines: [{ order: 1, total: 3, quantity: 1 }] }));
    const sent = carts.map((c) => server.client.post('/carts/realtime', c));
    // Sent once carts are being written: the others are then evaluated, waiting for the write lock, or queued.
    const merge = Promise.race(sent).then(() => server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 }));
    const responses = await Promise.all(sent);
    expect((await merge).status).toBe(200);
    expect(responses.map((r) => r.status)).toEqual(Array(80).fill(200));
    expect((await server.client.get('/carts', { query: { customer_id: '1', per_page: '100' } })).body.data).toEqual([]);
    expect((await server.client.get('/carts', { query: { customer_id: '2', per_page: '100' } })).body.data).toHaveLength(80);
    expect((await server.client.get('/points/transactions', { query: { customer_id: '1' } })).body.data).toEqual([]);
    // Every cart named 1: its points transaction names 1 as associate, whether the merge moved it or it was recorded for 2.
    const associated = (await server.client.get('/points/transactions', { query: { associate_id: '1', per_page: '100' } })).body.data;
    expect(associated.filter((t: { customer_id: number; associate_id: number }) => t.customer_id === 2 && t.associate_id === 1)).toHaveLength(80);
    expect((await server.client.get('/customers/2/points')).body).toMatchObject({ score: 400 });
  });
});

// A merge moves a cart to the customer it was merged into: the cart's cancellation answers that customer's summary.
describe('the cancellation of a cart a merge moved', () => {
  let server: TestServer;
  const cart = (id: number, customerId: number) => ({ id, customer_id: customerId, creation_date: '2026-11-20T10:00:00Z', total: 3, lines: [{ order: 1, total: 3, quantity: 1 }] });
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await server.client.post('/customers', { id: 1, code: 'A', name: 'A', registration_location_id: 1 });
    await server.client.post('/customers', { id: 2, code: 'B', name: 'B', registration_location_id: 1, fraudulent: true });
    expect((await server.client.post('/points', { rule_params: { name: 'Five a cart', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] } })).status).toBe(200);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('names the customer holding the cart now, whose balance it shows, as the cart read does', async () => {
    for (const [id, customer] of [[10, 1], [20, 2], [21, 2]]) expect((await server.client.post('/carts/realtime', cart(id, customer))).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 })).status).toBe(200);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 10, new_cart_id: 11 });
    expect(cancelled.status, cancelled.text).toBe(200);
    const holder = (await server.client.get('/customers/2/points')).body;
    expect(holder).toMatchObject({ score: 10, score_available: 10 });
    const summary = { id: 2, code: 'B', score: holder.score, score_available: holder.score_available, fraudulent: true };
    expect(cancelled.body.customer).toEqual([expect.objectContaining(summary)]);
    expect((await server.client.get('/carts/10')).body).toMatchObject({ customer_id: 2, customer_code: 'B', associate_id: 1 });
    expect((await server.client.get('/carts/11')).body).toMatchObject({ customer_id: 2, customer_code: 'B', associate_id: 1, customer: expect.objectContaining(summary) });
  });

  it("records its reversals with the answer's summary of the holder, as a realtime cart's transaction records its answer", async () => {
    await server.client.post('/customers', { id: 3, code: 'C', name: 'C', registration_location_id: 1 });
    await server.client.post('/customers', { id: 4, code: 'D', name: 'D', registration_location_id: 1 });
    expect((await server.client.post('/carts/realtime', cart(30, 3))).status).toBe(200);
    expect((await server.client.post('/points/redeem_cart', { activity_id: 30, customer_id: 3, amount: 2, comments: 'till' })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 3, new_customer_id: 4 })).status).toBe(200);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 30, new_cart_id: 31 });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.customer).toEqual([expect.objectContaining({ id: 4, code: 'D' })]);
    const reversals = (await server.client.get('/points/transactions', { query: { customer_id: '4' } })).body.data
      .filter((t: { origin_info: { activity?: { id: number } } }) => t.origin_info.activity?.id === 31);
    // The cart's own reversal (its 5 points) and the redeem_cart spend given back (2 points, with its comments).
    expect(reversals.map((t: { amount: number }) => t.amount).sort((a: number, b: number) => a - b)).toEqual([-5, 2]);
    for (const { origin_info } of reversals) expect(origin_info.activity).toEqual({ ...cancelled.body, customer_id: 4 });
  });
});
