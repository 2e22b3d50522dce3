import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const json = { 'Content-Type': 'application/json' };

describe('associations', () => {
  let server: TestServer;
  const associates = (id: number, active?: string) =>
    server.client.get(`/customers/${id}/associates`, { headers: json, query: active === undefined ? {} : { active } });

  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2, 3]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
  });
  afterAll(() => server.dispose());

  it('creates an association and answers it', async () => {
    const res = await server.client.post('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'partner' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer_id: 1, associate_customer_id: 2, relationship_type: 'partner', active: true, main: false });
    expect(typeof res.body.id).toBe('number');
    expect(res.body).not.toHaveProperty('merge_id');
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('refuses a second active association of the pair, a self-association and unknown customers', async () => {
    const twice = await server.client.post('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'other' });
    expect(twice.status).toBe(409);
    const self = await server.client.post('/associations', { customer_id: 1, associate_customer_id: 1 });
    expect(self.status).toBe(400);
    expect(self.body.error).toMatch(/^associate_customer_id: /);
    const unknown = await server.client.post('/associations', { customer_id: 1, associate_customer_id: 404 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'customer_not_found', error: expect.stringMatching(/^associate_customer_id: /) });
    const missing = await server.client.post('/associations', { customer_id: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^associate_customer_id: /);
  });

  it('updates the relationship type of the active association, main unchanged when absent', async () => {
    const res = await server.client.patch('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'child' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    const main = await server.client.put('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'child', main: true });
    expect(main.status).toBe(200);
    const list = await associates(1);
    expect(list.body.list).toEqual([expect.objectContaining({ associate_customer_id: 2, relationship_type: 'child', main: true, active: true })]);
    const none = await server.client.patch('/associations', { customer_id: 1, associate_customer_id: 3, relationship_type: 'x' });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('association_not_found');
    const noType = await server.client.patch('/associations', { customer_id: 1, associate_customer_id: 2 });
    expect(noType.status).toBe(400);
    expect(noType.body.error).toMatch(/^relationship_type: /);
    // null clears it (the association's relationship_type is "string or null").
    expect((await server.client.patch('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: null })).status).toBe(200);
    expect((await associates(1)).body.list).toEqual([expect.objectContaining({ associate_customer_id: 2, relationship_type: null, main: true })]);
    await server.client.patch('/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'child' });
  });

  it('lists active associates by default, inactive ones on request', async () => {
    await server.client.post('/associations', { customer_id: 1, associate_customer_id: 3, active: false });
    expect((await associates(1)).body.list.map((a: { associate_customer_id: number }) => a.associate_customer_id)).toEqual([2]);
    expect((await associates(1, 'false')).body.list.map((a: { associate_customer_id: number }) => a.associate_customer_id)).toEqual([3]);
    expect((await associates(404)).status).toBe(404);
    expect((await server.client.get('/customers/1/associates')).status).toBe(400);
  });

  it('deactivates the active association; a second deactivation finds none', async () => {
    const query = { customer_id: '1', associate_customer_id: '2' };
    const res = await server.client.delete('/associations', { query, headers: json });
    expect(res.status).toBe(200);
    expect((await associates(1)).body.list).toEqual([]);
    expect((await associates(1, 'false')).body.list).toHaveLength(2);
    const missing = await server.client.delete('/associations', { query: { customer_id: '2', associate_customer_id: '1' }, headers: json });
    expect(missing.status).toBe(404);
    const noQuery = await server.client.delete('/associations', { headers: json });
    expect(noQuery.status).toBe(400);
    expect(noQuery.body.error).toMatch(/^customer_id: /);
    // A new active association of the pair is allowed once the old one is inactive.
    expect((await server.client.post('/associations', { customer_id: 1, associate_customer_id: 2 })).status).toBe(200);
  });

  it('is directed: the reverse association of a pair is another one, changed and deactivated on its own', async () => {
    for (const id of [5, 6]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
    expect((await server.client.post('/associations', { customer_id: 5, associate_customer_id: 6, relationship_type: 'parent' })).status).toBe(200);
    expect((await server.client.post('/associations', { customer_id: 6, associate_customer_id: 5, relationship_type: 'child' })).status).toBe(200);
    expect((await server.client.patch('/associations', { customer_id: 6, associate_customer_id: 5, relationship_type: 'ward' })).status).toBe(200);
    expect((await server.client.delete('/associations', { query: { customer_id: '6', associate_customer_id: '5' }, headers: json })).status).toBe(200);
    expect((await associates(5)).body.list).toEqual([expect.objectContaining({ associate_customer_id: 6, relationship_type: 'parent', active: true })]);
    expect((await associates(6)).body.list).toEqual([]);
    expect((await associates(6, 'false')).body.list).toEqual([expect.objectContaining({ associate_customer_id: 5, relationship_type: 'ward', active: false })]);
  });
});
