import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { PromotionStore } from './store.js';

describe('legacy promotions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('creates a promotion (datetimes converted to UTC) and updates it with PATCH or PUT', async () => {
    const created = await server.client.post('/promotions', {
      id: 1,
      code: '2X1',
      name: '2 for 1',
      available_from: '2026-01-01T00:00:00+01:00',
      available_to: '2026-12-31T23:59:59Z',
    });
    expect(created.body).toEqual({ status: 'success', id: 1 });
    expect((await server.client.patch('/promotions/1', { name: 'Two for one', description: 'Yogurts' })).body).toEqual({ status: 'success' });
    expect((await server.client.put('/promotions/1', { active: false, available_to: null })).status).toBe(200);
    await server.client.post('/promotions', { id: 2, name: 'Summer' });
  });

  it('refuses a period that ends before it starts, naming available_to, also against stored dates', async () => {
    const create = await server.client.post('/promotions', { id: 3, name: 'x', available_from: '2026-06-02T00:00:00Z', available_to: '2026-06-01T00:00:00Z' });
    expect(create.status).toBe(400);
    expect(create.body.error).toContain('available_to');
    const update = await server.client.patch('/promotions/1', { available_to: '2025-12-31T00:00:00Z', name: 'changed' });
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('invalid_request');
    expect(update.body.error).toContain('available_to');
  });

  it('refuses a second promotion with the same id (409 duplicate_id) unless it is an identical repeat', async () => {
    const other = await server.client.post('/promotions', { id: 1, name: 'Other' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('duplicate_id');
    const body = { id: 4, name: 'Repeat' };
    const first = await server.client.post('/promotions', body);
    const repeat = await server.client.post('/promotions', body);
    expect(repeat.status).toBe(200);
    expect(repeat.text).toBe(first.text);
  });

  it('deletes a promotion; a missing id is 404 promotion_not_found; the id can be used again', async () => {
    expect((await server.client.delete('/promotions/4')).body).toEqual({ status: 'success' });
    // The identical delete within 5 minutes is a suppressed duplicate, answered as the first.
    expect((await server.client.delete('/promotions/4')).body).toEqual({ status: 'success' });
    for (const res of [await server.client.delete('/promotions/404'), await server.client.patch('/promotions/4', { name: 'x' })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('promotion_not_found');
    }
    expect((await server.client.post('/promotions', { id: 4, name: 'Back' })).status).toBe(200);
  });

  it('validates bodies and path ids, naming the field', async () => {
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [server.client.post('/promotions', { name: 'x' }), 'id'],
      [server.client.post('/promotions', { id: 5 }), 'name'],
      [server.client.post('/promotions', { id: 5, name: 'x', available_from: '2026-02-30T00:00:00Z' }), 'available_from'],
      [server.client.post('/promotions', { id: 5, name: 'x', discount: 10 }), 'discount'],
      [server.client.patch('/promotions/x', { name: 'x' }), 'id'],
      [server.client.delete('/promotions/0'), 'id'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
    }
  });

  it('gives carts the promotion by id (PromotionStore), as last written', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const store = new PromotionStore(env);
      const tenant = { companyId: 'default', environment: 'sandbox' } as const;
      expect(store.promotionById(tenant, '1')).toMatchObject({
        id: '1',
        code: '2X1',
        name: 'Two for one',
        description: 'Yogurts',
        active: false,
        available_from: '2025-12-31T23:00:00Z',
        available_to: null,
      });
      expect(store.promotionById(tenant, '2')).toMatchObject({ active: true, available_from: null, available_to: null });
      expect(store.promotionById(tenant, '3')).toBeUndefined();
      expect(store.promotionById(tenant, '4')?.name).toBe('Back');
    } finally {
      await env.close();
    }
  });
});
