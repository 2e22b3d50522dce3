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
