/**
 * Stores written before a customer others are merged into could not be deleted (docs/decisions.md, Customers) may
 * hold merged customers whose merged_to names a customer deleted since: the delete removed the merge association
 * with the receiver's other associations, and its records (a soft delete kept the critical ones on the emptied
 * account). A hard delete freed the id, so a customer created later may even carry it.
 *
 * The store is written by the live code over HTTP, then the receivers are deleted as the older versions did:
 * their merge associations removed (the older delete removed them with the rest), then the live delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssociationStore } from '../associations/store.js';
import { deleteCustomer } from '../customers/delete.js';
import { CustomerStore } from '../customers/store.js';
import { balance, grant, triggerCampaign } from '../points/testing.js';
import { openStore } from '../store/env.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import type { Tenant } from '../tenancy/types.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const SANDBOX: Tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' };
const json = { 'Content-Type': 'application/json' };

describe('merged customers whose receiver an older version deleted', () => {
  let server: TestServer;
  let campaign: number;
  let nextCart = 7000;

  const get = (id: number) => server.client.get(`/customers/${id}`, { query: { search_param: 'id' } });
  /** Who a realtime cart naming the customer is recorded for: [] when nobody's. */
  const cartFor = async (naming: Record<string, unknown>) => {
    const res = await server.client.post('/carts/realtime', cartBody(10, { id: nextCart++, ...naming }));
    expect(res.status, res.text).toBe(200);
    return res.body.customer.map((c: { id: number }) => c.id);
  };
  const unmerge = (id: number) => server.client.post(`/customers/${id}/unmerge`, undefined, { headers: json, query: { with_activites: 'true' } });

  beforeAll(async () => {
    server = await startServer();
    const { client } = server;
    campaign = await triggerCampaign(client, 'visit', 10);
    for (const id of [1, 2, 3, 4, 5, 6, 7]) {
      expect((await client.post('/customers', { id, code: `K${id}`, name: `N${id}`, registration_location_id: 1, card_id: 900 + id })).status).toBe(200);
    }
    await grant(client, 'visit', 3, campaign);
    // 1 into 2 (2 hard-deleted: it holds nothing critical); 3, with points, into 4 (soft: the points are critical);
    // the chain 5 into 6, 6 into 7 (7 hard-deleted).
    for (const [old, into] of [[1, 2], [3, 4], [5, 6], [6, 7]]) {
      expect((await client.post('/customers/transfer', { old_customer_id: old, new_customer_id: into })).status).toBe(200);
    }
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const customers = new CustomerStore(env);
      const associations = new AssociationStore(env);
      const deleted = await env.transact(() =>
        ['2', '4', '7'].map((id) => {
          for (const association of associations.ofCustomer(SANDBOX, id)) if (association.merge_id !== undefined) associations.remove(SANDBOX, association);
          return deleteCustomer(env, customers, SANDBOX, customers.get(SANDBOX, id)!, true, '2026-11-27T00:00:00Z');
        }),
      );
      expect(deleted).toEqual(['hard', 'soft', 'hard']);
    } finally {
      await env.close();
    }
    await server.restart();
  });
  afterAll(() => server.dispose());

  it('reads answer them as stored: merged, merged_to naming the deleted customer', async () => {
    for (const [id, to] of [[1, 2], [3, 4], [5, 6], [6, 7]]) {
      for (const res of [await get(id), await server.client.get(`/customers/K${id}`, { query: { search_param: 'code' } }), await server.client.post('/customers/search', { id })]) {
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ id, status: 'merged', merged: true, merged_to: to });
      }
      const exported = await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } });
      expect(exported.status, exported.text).toBe(200);
      expect(exported.body.customer).toMatchObject({ id, merged_to: to });
    }
    expect((await server.client.get('/customers', { query: { ids: '1,3,5,6' } })).body.list.map((c: { id: number }) => c.id)).toEqual([1, 3, 5, 6]);
    expect((await get(2)).status).toBe(404);
    expect((await get(4)).status).toBe(404);
  });

  it('nothing follows merged_to to a deleted customer, nor to one created since with its id', async () => {
    // Their carts are nobody's, as those of a deleted customer.
    for (const id of [1, 3, 5, 6]) expect(await cartFor({ customer_id: id }), `customer ${id}`).toEqual([]);
    expect(await cartFor({ customer_code: 'K5' })).toEqual([]);
    // Where the points of an associate are asked: 404, saying why.
    for (const id of [1, 5]) {
      const res = await server.client.get(`/customers/${id}/points_expiring`, { query: { search_param: 'associate_id' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'customer_not_found', error: `value: customer ${id} is merged, and the customer holding its records was deleted: unmerge it` });
    }

    // A new customer 2 is not the one 1 was merged into: it gets none of 1's purchases, and holds nobody's records.
    expect((await server.client.post('/customers', { id: 2, name: 'New two', registration_location_id: 1 })).status).toBe(200);
    expect(await cartFor({ customer_id: 1 })).toEqual([]);
    expect(await cartFor({ customer_code: 'K1' })).toEqual([]);
    expect((await server.client.get('/customers/1/points_expiring', { query: { search_param: 'associate_id' } })).status).toBe(404);
    expect((await balance(server.client, 2)).score).toBe(0);
  });

  it('unmerge takes them out of merged: active, their own again; what the delete took stays gone', async () => {
    for (const id of [1, 3, 5, 6]) {
      const res = await unmerge(id);
      expect(res.status, res.text).toBe(200);
      const read = (await get(id)).body;
      expect(read).toMatchObject({ status: 'active', merged: false });
      expect(read).not.toHaveProperty('merged_to');
    }
    // 3's points stayed on the emptied 4 (the older delete left them there, without the association that found them).
    expect((await balance(server.client, 3)).score).toBe(0);
    // Their own now: carts, points, cards.
    expect(await cartFor({ customer_id: 1 })).toEqual([1]);
    expect(await cartFor({ customer_code: 'K5' })).toEqual([5]);
    await grant(server.client, 'visit', 1, campaign);
    expect((await balance(server.client, 1)).score).toBe(10);
    expect((await server.client.post('/customers/1/cards', { id: 991 })).status).toBe(200);
    // Another unmerge finds nothing merged (the identical one would be answered as the first, rule 8).
    expect((await server.client.post('/customers/1/unmerge', undefined, { headers: json, query: { with_activites: 'false' } })).status).toBe(409);
  });
});
