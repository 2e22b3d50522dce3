import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('POST /customers/{id}/cards', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
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
});
