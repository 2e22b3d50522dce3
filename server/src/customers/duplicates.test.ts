/**
 * A duplicated email or dni (allow_duplicate_email / _dni) stays held while any holder keeps it: when the
 * holder the lookups find lets it go (update, soft or hard delete), the remaining holder of lowest id is found
 * instead and the value stays taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { deleteById, postCustomer, searchId } from './testing.js';

describe('duplicated email and dni', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const create = (body: Record<string, unknown>, ...allow: ('email' | 'dni')[]) => postCustomer(server.client, body, ...allow);
  const del = (id: number, hard: boolean) => deleteById(server.client, id, hard);
  const search = (body: Record<string, unknown>) => searchId(server.client, body);

  it('passes a dni to the remaining holder when the first one changes it', async () => {
    expect((await create({ id: 7001, dni: 'zz9' })).status).toBe(200);
    expect((await create({ id: 7002, dni: 'zz9' }, 'dni')).status).toBe(200);
    expect((await server.client.patch('/customers/7001', { dni: 'other' }, { query: { search_param: 'id' } })).status).toBe(200);
    expect(await search({ dni: 'zz9' })).toBe(7002);
    const claimed = await create({ id: 7003, dni: 'ZZ9' });
    expect(claimed.status).toBe(409);
    expect(claimed.body.error).toMatch(/^dni: /);
    // 7002 lets it go too: nobody holds it now.
    expect((await server.client.patch('/customers/7002', { dni: null }, { query: { search_param: 'id' } })).status).toBe(200);
    expect(await search({ dni: 'zz9' })).toBe(404);
    expect((await create({ id: 7003, dni: 'ZZ9' })).status).toBe(200);
  });

  it('passes an email to the lowest remaining id when the holder is deleted, hard or soft', async () => {
    expect((await create({ id: 7011, email: 'dup@example.com' })).status).toBe(200);
    expect((await create({ id: 7013, email: 'dup@example.com' }, 'email')).status).toBe(200);
    expect((await create({ id: 7012, email: 'dup@example.com' }, 'email')).status).toBe(200);
    expect((await del(7011, true)).body.deleted).toBe('hard');
    expect(await search({ email: 'dup@example.com' })).toBe(7012);
    expect((await create({ id: 7014, email: 'dup@example.com' })).status).toBe(409);
    expect((await del(7012, false)).body.deleted).toBe('soft');
    expect(await search({ email: 'dup@example.com' })).toBe(7013);
    expect((await create({ id: 7014, email: 'dup@example.com' })).status).toBe(409);
  });

  it('says a merged holder is merged, and into which customer (it keeps its email and dni)', async () => {
    expect((await create({ id: 7021, email: 'moved@example.com', dni: 'm21' })).status).toBe(200);
    expect((await create({ id: 7022 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 7021, new_customer_id: 7022 })).status).toBe(200);
    const patch = (body: Record<string, unknown>, query: Record<string, string> = {}) =>
      server.client.patch('/customers/7022', body, { query: { search_param: 'id', ...query } });
    const email = await patch({ email: 'moved@example.com' });
    expect([email.status, email.body]).toEqual([409, {
      code: 'conflict',
      error: 'email: belongs to customer 7021, merged into customer 7022 (clear its email first, or send allow_duplicate_email=true to accept it)',
    }]);
    const dni = await create({ id: 7023, dni: 'M21' });
    expect([dni.status, dni.body.error]).toEqual([409, 'dni: belongs to customer 7021, merged into customer 7022 (clear its dni first, or send allow_duplicate_dni=true to accept it)']);
    // A holder that is not merged is not named.
    expect((await create({ id: 7024, email: 'kept@example.com' })).status).toBe(200);
    expect((await patch({ email: 'kept@example.com' })).body.error).toBe('email: belongs to another customer (send allow_duplicate_email=true to accept it)');
    // Either way out works: the flag, or the merged customer letting the value go.
    expect((await patch({ email: 'moved@example.com' }, { allow_duplicate_email: 'true' })).status).toBe(200);
    expect((await server.client.patch('/customers/7021', { dni: null }, { query: { search_param: 'id' } })).status).toBe(200);
    expect((await create({ id: 7023, dni: 'M21' })).status).toBe(200);
  });
});
