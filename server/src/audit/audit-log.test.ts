import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCart } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { startServer, TEST_KEY, type TestServer } from '../testing/server.js';

const AUTHOR = { headers: { 'X-Author-Email': 'Ana@Example.com' } };
const discount = { rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] } };

describe('the audit log over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Carts inline on the main thread: only the operation's exemption keeps a realtime cart out of the log.
    server = await startServer({ env: { WORKERS: '0' } });
  });
  afterAll(() => server.dispose());

  const entries = async (query: Record<string, string> = {}) => {
    const res = await server.client.get('/audit_log', { query: { per_page: '100', ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as any[];
  };

  it('records who created and changed a campaign and a customer, newest first, in the same transaction as the change', async () => {
    const created = await server.client.post('/discounts', discount, AUTHOR);
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    expect((await server.client.patch(`/discounts/${id}`, { rule_params: { name: 'Eleven off' } })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 41, name: 'Eva', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.put('/customers/41', { name: 'Eve' }, { headers: { 'X-Author-Email': 'ops@example.com' } })).status).toBe(200);

    const [update, customer, patch, create] = await entries();
    expect(create).toEqual({
      id: expect.any(Number), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), company_id: 'default', environment: 'sandbox',
      actor: { api_key: TEST_KEY, author: 'ana@example.com' }, operation: 'discounts.create', method: 'POST', path: '/discounts',
      // Canonical JSON: keys sorted.
      target: `campaign:${id}`, body: '{"rule_params":{"name":"Ten off","rule_effects":[{"distribution":"individual_items","type":"percentage","value":10}]}}', body_truncated: false, status: 'committed',
    });
    expect(patch).toMatchObject({
      actor: { api_key: TEST_KEY, author: null }, operation: 'discounts.update', method: 'PATCH', path: `/discounts/${id}`,
      target: `campaign:${id}`, body: '{"rule_params":{"name":"Eleven off"}}',
    });
    expect(customer).toMatchObject({ operation: 'customers.create', target: 'customer:41' });
    expect(update).toMatchObject({
      actor: { api_key: TEST_KEY, author: 'ops@example.com' }, operation: 'customers.update', method: 'PUT', path: '/customers/41',
      target: 'customer:41', body: '{"name":"Eve"}',
    });
    expect(update.id).toBeGreaterThan(customer.id);
    expect(customer.id).toBeGreaterThan(patch.id);
    expect(patch.id).toBeGreaterThan(create.id);

    // Filters.
    expect((await entries({ target: `campaign:${id}` })).map((e) => e.operation)).toEqual(['discounts.update', 'discounts.create']);
    expect((await entries({ operation: 'customers.update' })).map((e) => e.target)).toEqual(['customer:41']);
    expect((await entries({ author: 'ANA@example.com' })).map((e) => e.operation)).toEqual(['discounts.create']);
    expect(await entries({ api_key: 'another-key' })).toEqual([]);
    expect(await entries({ api_key: TEST_KEY })).toHaveLength(4);
    expect(await entries({ from: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect(await entries({ to: '2000-01-01T00:00:00Z' })).toEqual([]);
    expect(await entries({ from: create.at, to: update.at })).toHaveLength(4);
    expect((await server.client.get('/audit_log', { query: { from: 'yesterday' } })).body).toMatchObject({ code: 'invalid_request' });

    // Pagination as the other lists.
    const first = await server.client.get('/audit_log', { query: { per_page: '3' } });
    expect(first.body.data).toHaveLength(3);
    const second = await server.client.get('/audit_log', { query: { per_page: '3', starting_after: first.body.next_token_starts_after } });
    expect(second.body.data.map((e: any) => e.id)).toEqual([create.id]);
  });

  it('records each of interleaved requests with its own author', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
    // A create hashes the password (off the event loop) before its transaction: the requests' handlers interleave.
    const answers = await Promise.all(ids.map((id) => server.client.post(
      '/customers', { id, name: `N${id}`, registration_location_id: 1, password: 'correct horse' }, { headers: { 'X-Author-Email': `u${id}@example.com` } })));
    expect(answers.map((res) => res.status)).toEqual(ids.map(() => 200));
    const recorded = (await entries({ operation: 'customers.create' })).slice(0, ids.length);
    expect(recorded.map((entry) => entry.target).sort()).toEqual(ids.map((id) => `customer:${id}`).sort());
    for (const entry of recorded) {
      const id = entry.target.slice('customer:'.length);
      expect(entry.actor.author).toBe(`u${id}@example.com`);
      expect(JSON.parse(entry.body)).toMatchObject({ name: `N${id}` });
    }
  });

  it('records nothing for a failed write, a malformed author, or the exempt hot path', async () => {
    const before = await entries();
    expect((await server.client.post('/discounts', { rule_params: 'nope' })).status).toBe(400);
    expect((await server.client.patch('/discounts/9999', { rule_params: { name: 'x' } })).status).toBe(404);
    expect((await server.client.post('/customers', { id: 41, name: 'Again', registration_location_id: 1 })).status).toBe(409);
    expect((await server.client.patch('/customers/41', { name: 'Bad author' }, { headers: { 'X-Author-Email': 'not an email' } })).status).toBe(400);
    expect((await realtimeCart(server.client, 41, 12)).status).toBe(200);
    expect(await entries()).toEqual(before);
  });

  it('redacts passwords, secrets and tokens from the recorded body', async () => {
    const res = await server.client.post('/customers', {
      id: 42, name: 'Sam', registration_location_id: 1, password: 'hunter2hunter2', password_confirmation: 'hunter2hunter2', push_token: 'tok',
    });
    expect(res.status, res.text).toBe(200);
    const [entry] = await entries({ target: 'customer:42' });
    expect(entry.body).not.toContain('hunter2');
    expect(JSON.parse(entry.body)).toMatchObject({ name: 'Sam', password: '[redacted]', password_confirmation: '[redacted]', push_token: '[redacted]' });
  });

  it('cuts a body over 16 KB and says so', async () => {
    const long = { rule_params: { ...discount.rule_params, description: 'x'.repeat(20_000) } };
    const created = await server.client.post('/discounts', long);
    expect(created.status, created.text).toBe(200);
    const [entry] = await entries({ target: `campaign:${created.body.id}` });
    expect(entry.body_truncated).toBe(true);
    expect(entry.body).toHaveLength(16 * 1024);
    expect(entry.body.startsWith('{"rule_params":{"description":"xxx')).toBe(true);
  });

  it('shows a Company environment only its own entries; the CLI records its writes with actor cli', async () => {
    expect((await runCli(server.dataDir, 'company', 'create', 'acme')).code).toBe(0);
    const key = (await runCli(server.dataDir, 'key', 'create', '--company', 'acme')).output;
    const acme = server.clientFor({ key: key.key, secret: key.secret });
    expect((await acme.patch('/company', { currency: 'USD' })).status).toBe(200);
    expect((await runCli(server.dataDir, 'company', 'update', 'acme', '--settings', '{"country":"US"}')).code).toBe(0);

    const theirs = (await acme.get('/audit_log')).body.data;
    expect(theirs.map((e: any) => e.operation)).toEqual(['cli.company.update', 'company.update', 'cli.key.create', 'cli.company.create']);
    expect(theirs[0]).toMatchObject({ actor: { cli: true }, method: null, path: null, target: 'company:acme', body: '{"settings":{"country":"US"}}' });
    expect(theirs[1]).toMatchObject({ actor: { api_key: key.key, author: null }, target: 'company', company_id: 'acme' });
    // The key's public id is recorded, never its secret.
    expect(theirs[2]).toMatchObject({ actor: { cli: true }, target: `api_key:${key.key}` });
    expect(JSON.stringify(theirs)).not.toContain(key.secret);
    // The default Company sees none of acme's.
    expect((await entries()).filter((e) => e.company_id !== 'default')).toEqual([]);
    expect(await entries({ operation: 'company.update' })).toEqual([]);
  });

  it('records nothing for a write refused inside its transaction (a second cancellation of a cart)', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    const cart = await realtimeCart(server.client, 41, 20, { id: 4242 });
    expect(cart.status).toBe(200);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 4242, new_cart_id: 4243 })).status).toBe(200);
    const before = await entries();
    expect(before[0]).toMatchObject({ operation: 'carts.cancellation' });
    const again = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 4242, new_cart_id: 4244 });
    expect(again.status, again.text).toBe(409);
    expect(await entries()).toEqual(before);
  });
});

describe('audit log retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    // About 1.7 s of retention, swept every 200 ms.
    server = await startServer({ env: { AUDIT_LOG_RETENTION_DAYS: '0.00002', AUDIT_LOG_PRUNE_INTERVAL_MS: '200' } });
  });
  afterAll(() => server.dispose());

  it('removes the entries older than AUDIT_LOG_RETENTION_DAYS in the background', async () => {
    expect((await server.client.post('/customers', { id: 1, name: 'Old', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.get('/audit_log')).body.data).toHaveLength(1);
    await new Promise((resume) => setTimeout(resume, 3500));
    expect((await server.client.post('/customers', { id: 2, name: 'New', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.get('/audit_log')).body.data.map((e: any) => e.target)).toEqual(['customer:2']);
  });
});
