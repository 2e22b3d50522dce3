import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const json = { 'Content-Type': 'application/json' };

describe('associations', () => {
  let server: TestServer;
  const associates = (id: number, active?: string) =>
    server.client.get(`/customers/${id}/associates`, { headers: json, query: active === undefined ? {} : { active } });

  beforeAll(async () => {
    // transfer-new's merges stay merging for the file's duration.
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: '600000' } });
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

  it('refuses a merged or merging customer on either side (402 customer_inactive), creating nothing; unmerged, it is associated', async () => {
    for (const id of [20, 21, 22, 23, 24]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
    expect((await server.client.post('/customers/transfer', { old_customer_id: 20, new_customer_id: 21 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 22, new_customer_id: 23 })).status).toBe(200);
    const refused = [
      [20, 24, 'customer_id: customer 20 is merged'],
      [24, 20, 'associate_customer_id: customer 20 is merged'],
      [22, 24, 'customer_id: customer 22 is merging'],
      [24, 22, 'associate_customer_id: customer 22 is merging'],
      // The pair the merge will join with its own association.
      [23, 22, 'associate_customer_id: customer 22 is merging'],
    ] as const;
    for (const [customer, associate, error] of refused) {
      const res = await server.client.post('/associations', { customer_id: customer, associate_customer_id: associate });
      expect([res.status, res.body]).toEqual([402, { code: 'customer_inactive', error }]);
    }
    for (const id of [20, 22, 24]) expect((await associates(id)).body.list, `customer ${id}`).toEqual([]);
    // An associate is still found through its merge association only, never a merged customer.
    expect((await server.client.post('/customers/search', { associate_id: 24 })).status).toBe(404);
    expect((await server.client.post('/customers/search', { associate_id: 20 })).body.id).toBe(21);
    expect((await associates(21)).body.list).toEqual([expect.objectContaining({ associate_customer_id: 20, merge_id: expect.any(Number), active: true })]);
    const unmerged = await server.client.post('/customers/20/unmerge', undefined, { headers: json, query: { with_activites: 'false' } });
    expect(unmerged.status).toBe(200);
    expect((await server.client.post('/associations', { customer_id: 20, associate_customer_id: 24 })).status).toBe(200);
    expect((await server.client.post('/customers/search', { associate_id: 24 })).body.id).toBe(20);
  });
});
