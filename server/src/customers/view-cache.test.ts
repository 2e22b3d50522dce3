/**
 * GET /customers/{value} answers from an in-memory cache (view-cache.ts):
 * every write must be visible to the first read after its 200, reads racing
 * a write must never bring an old answer back, and a small cache must still
 * answer every customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const byId = { query: { search_param: 'id' } };

describe('GET /customers/{value} from memory', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Two entries for five customers: answers are dropped and read again as they go.
    server = await startServer({ env: { CUSTOMER_CACHE_ENTRIES: '2' } });
    for (const id of [1, 2, 3, 4, 5]) {
      expect((await server.client.post('/customers', { id, name: `N${id}`, email: `c${id}@example.com`, registration_location_id: 1 })).status).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  const read = (id: number) => server.client.get(`/customers/${id}`, byId);

  it('answers every customer through a cache smaller than the store', async () => {
    for (let round = 0; round < 3; round++) {
      for (const id of [1, 2, 3, 4, 5]) expect((await read(id)).body).toMatchObject({ id, name: `N${id}` });
    }
  });

  it('shows an update to the first read after its 200', async () => {
    expect((await read(1)).body.name).toBe('N1');
    expect((await server.client.patch('/customers/1', { name: 'Renamed' }, byId)).status).toBe(200);
    expect((await read(1)).body.name).toBe('Renamed');
  });

  it('never brings an old answer back while reads race the writes', async () => {
    for (let version = 1; version <= 15; version++) {
      const reads = Array.from({ length: 10 }, () => read(2));
      const write = await server.client.patch('/customers/2', { name: `V${version}` }, byId);
      expect(write.status).toBe(200);
      // Every read answered after the write's 200 shows it, whatever the racing reads cached.
      for (let i = 0; i < 3; i++) expect((await read(2)).body.name).toBe(`V${version}`);
      for (const res of await Promise.all(reads)) expect([`V${version - 1}`, `V${version}`, 'N2']).toContain(res.body.name);
    }
  });

  it('answers 404 after a soft or a hard delete of a cached customer', async () => {
    expect((await read(3)).status).toBe(200);
    const json = { 'Content-Type': 'application/json' };
    expect((await server.client.delete('/customers/3', { query: { search_param: 'id', hard: 'false' }, headers: json })).status).toBe(200);
    expect((await read(3)).status).toBe(404);
    expect((await read(4)).status).toBe(200);
    expect((await server.client.delete('/customers/4', { query: { search_param: 'id', hard: 'true' }, headers: json })).body).toMatchObject({ deleted: 'hard' });
    expect((await read(4)).status).toBe(404);
  });

  it('shows the merged status after a transfer', async () => {
    expect((await read(5)).body.status).toBe('active');
    expect((await server.client.post('/customers/transfer', { old_customer_id: 5, new_customer_id: 1 })).status).toBe(200);
    expect((await read(5)).body).toMatchObject({ status: 'merged', merged: true, merged_to: 1 });
  });

  it('keeps answering the stored values after a restart', async () => {
    await server.restart();
    expect((await read(1)).body.name).toBe('Renamed');
    expect((await read(2)).body.name).toBe('V15');
  });
});
