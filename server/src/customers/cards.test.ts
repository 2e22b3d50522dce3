import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('POST /customers/{id}/cards', () => {
  let server: TestServer;
  beforeAll(async () => {
    // transfer-new's merges stay merging for the file's duration.
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: '600000' } });
    await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1, card_id: 100 });
    await server.client.post('/customers', { id: 2, name: 'N', registration_location_id: 1 });
  });
  afterAll(() => server.dispose());

  it('attaches a card to the customer', async () => {
    const res = await server.client.post('/customers/1/cards', { id: '9223372036854775807', main: true, motive: 'replacement', relationship_type: 'own' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
  });

  it('refuses a card number already attached, to this or another customer, including one given at create', async () => {
    for (const [customer, card] of [[2, 100], [2, 9223372036854775807n]] as const) {
      const res = await server.client.post(`/customers/${customer}/cards`, { id: card });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'duplicate_id', error: expect.stringMatching(/^id: /) });
    }
  });

  it('refuses a create whose card_id is taken, writing nothing', async () => {
    const res = await server.client.post('/customers', { id: 3, name: 'N', registration_location_id: 1, email: 'three@example.com', card_id: 100 });
    expect(res.status).toBe(409);
    // The field named is card_id: the customer's id is free.
    expect(res.body).toEqual({ code: 'duplicate_id', error: 'card_id: card 100 already exists' });
    expect((await server.client.get('/customers/3', { query: { search_param: 'id' } })).status).toBe(404);
    expect((await server.client.get('/customers/three@example.com', { query: { search_param: 'email' } })).status).toBe(404);
  });

  it('requires a card id and an existing customer', async () => {
    const noId = await server.client.post('/customers/2/cards', { main: true });
    expect(noId.status).toBe(400);
    expect(noId.body.error).toMatch(/^id: /);
    const unknown = await server.client.post('/customers/404/cards', { id: 5 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer_not_found');
  });

  it('refuses a card for a merged or merging customer (402 customer_inactive), attaching nothing; unmerged, it attaches', async () => {
    for (const id of [10, 11, 12, 13]) expect((await server.client.post('/customers', { id, name: 'N', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 10, new_customer_id: 11 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 12, new_customer_id: 13 })).status).toBe(200);
    for (const [customer, status] of [[10, 'merged'], [12, 'merging']] as const) {
      const res = await server.client.post(`/customers/${customer}/cards`, { id: 500 + customer, main: true });
      expect(res.status, res.text).toBe(402);
      expect(res.body).toEqual({ code: 'customer_inactive', error: `id: customer ${customer} is ${status}` });
    }
    // Nothing was attached: the numbers are free.
    expect((await server.client.post('/customers/11/cards', { id: 510 })).status).toBe(200);
    expect((await server.client.post('/customers/13/cards', { id: 512 })).status).toBe(200);
    // Once unmerged the customer is its own again, and so are its cards (the identical request runs again: it was refused).
    expect((await server.client.post('/customers/10/unmerge', undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'false' } })).status).toBe(200);
    expect((await server.client.post('/customers/10/cards', { id: 520, main: true })).status).toBe(200);
    const exported = await server.client.get('/customers/10/export', { query: { search_param: 'id' } });
    expect(exported.body.cards).toEqual([expect.objectContaining({ id: '520', customer_id: '10', main: true })]);
  });
});
