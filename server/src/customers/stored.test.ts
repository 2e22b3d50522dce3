import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { verifyPassword } from './password.js';
import { CustomerStore } from './store.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };
const base = { name: 'N', registration_location_id: 1 };

/** What the server stored, read through the stores after a clean stop. */
describe('customers as stored', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.client.post('/customers', { ...base, id: 1, password: 'my-secret-pw', push_token: 'ignored-without-app' });
    await server.client.post('/customers', { ...base, id: 2, referred_by: 1, app: true, push_token: 'kept' });
    await server.client.post('/customers', { ...base, id: 3 });
    await server.client.patch('/customers/3', { app: false, push_token: 'ignored-app-false' });
    await server.client.patch('/customers/2', { push_token: 'updated' });
  });
  afterAll(() => server.dispose());

  it('keeps every customer across a restart', async () => {
    await server.restart();
    for (const id of [1, 2, 3]) {
      expect((await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).status).toBe(200);
    }
  });

  it('stores passwords as scrypt hashes, generating one when absent; applies the push_token rules', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const store = new CustomerStore(env);
      const chosen = store.get(tenant, '1')!;
      expect(chosen.password_hash).toMatch(/^scrypt\$15\$/);
      expect(chosen.password_hash).not.toContain('my-secret-pw');
      expect(await verifyPassword('my-secret-pw', chosen.password_hash)).toBe(true);
      expect(await verifyPassword('wrong', chosen.password_hash)).toBe(false);
      expect(store.get(tenant, '3')!.password_hash).toMatch(/^scrypt\$10\$/);

      expect(chosen.profile).not.toHaveProperty('push_token');
      expect(store.get(tenant, '2')!.profile.push_token).toBe('updated');
      expect(store.get(tenant, '3')!.profile).not.toHaveProperty('push_token');
    } finally {
      await env.close();
    }
  });
});

describe('an Idempotency-Key race on create', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('creates once and answers both requests alike', async () => {
    const body = { ...base, id: 10, email: 'race@example.com' };
    const headers = { 'Idempotency-Key': 'create-10' };
    const answers = await Promise.all([1, 2, 3].map(() => server.client.post('/customers', body, { headers })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    // Without the key, the same id is refused in real time once the duplicate window does not apply (other content).
    const other = await server.client.post('/customers', { ...body, name: 'Other' });
    expect(other.status).toBe(409);
  });
});
