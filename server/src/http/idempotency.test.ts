import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('Idempotency-Key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

  it('replays the stored answer byte for byte without executing again', async () => {
    const first = await server.client.patch('/company', { currency: 'USD' }, withKey('k-replay'));
    expect(first.status).toBe(200);
    const again = await server.client.patch('/company', { currency: 'USD' }, withKey('k-replay'));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Not executed twice: the settings version moved once.
    const read = await server.client.get('/company');
    expect(read.body.version).toBe(first.body.version);
  });

  it('replays an error answer as the same error', async () => {
    const first = await server.client.patch('/company', { currency: 'bad' }, withKey('k-error'));
    expect(first.status).toBe(400);
    const again = await server.client.patch('/company', { currency: 'bad' }, withKey('k-error'));
    expect(again.status).toBe(400);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('stores the error of a handler that refuses the request before it starts work', async () => {
    // POST /customers/transfer checks its body synchronously (exactly one old and one new customer).
    const first = await server.client.post('/customers/transfer', {}, withKey('k-sync-error'));
    expect(first.status).toBe(400);
    expect(first.body.code).toBe('invalid_request');
    const again = await server.client.post('/customers/transfer', {}, withKey('k-sync-error'));
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a key reused with a different body (409 idempotency_key_reused)', async () => {
    await server.client.patch('/company', { currency: 'JPY' }, withKey('k-reuse'));
    const res = await server.client.patch('/company', { currency: 'CHF' }, withKey('k-reuse'));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(res.body.error).toContain('Idempotency-Key');
    expect((await server.client.get('/company')).body.currency).toBe('JPY');
  });

  it('compares the parameters, not the bytes: other white space and key order are the same request', async () => {
    const first = await server.client.patch('/company', { currency: 'DKK', cashback_threshold: 12 }, withKey('k-format'));
    const again = await server.client.patch('/company', '{\n  "cashback_threshold": 12,\n  "currency": "DKK"\n}', withKey('k-format'));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('compares query parameters whatever their order', async () => {
    const unmerge = (query: Record<string, string>) =>
      server.client.post('/customers/777/unmerge', undefined, { headers: { 'Idempotency-Key': 'k-query', 'Content-Type': 'application/json' }, query });
    const first = await unmerge({ with_activites: 'true', search_param: 'id' });
    expect(first.status, first.text).toBe(404);
    const again = await unmerge({ search_param: 'id', with_activites: 'true' });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await unmerge({ search_param: 'code', with_activites: 'true' });
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('compares a worker-parsed body (carts) as parameters too', async () => {
    const body = cartBody(3.5, { id: 424242 });
    const first = await server.client.post('/carts/realtime', body, withKey('k-cart-format'));
    expect(first.status, first.text).toBe(200);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await server.client.post('/carts/realtime', JSON.stringify(reordered, null, 2), withKey('k-cart-format'));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps int64 values exact when comparing (two ids above 2^53 that one double would merge differ)', async () => {
    const first = await server.client.post('/customers/search', '{"id": 9223372036854775807}', withKey('k-int64'));
    expect(first.status, first.text).toBe(404);
    const other = await server.client.post('/customers/search', '{"id": 9223372036854775806}', withKey('k-int64'));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('compares a body that is not JSON by its bytes', async () => {
    const first = await server.client.post('/carts/simulate', 'not json', withKey('k-not-json'));
    expect(first.status).toBe(400);
    const again = await server.client.post('/carts/simulate', 'not json', withKey('k-not-json'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await server.client.post('/carts/simulate', 'not  json', withKey('k-not-json'));
    expect(other.status).toBe(409);
  });

  it('treats PUT and PATCH of one operation as the same request', async () => {
    const first = await server.client.patch('/company', { currency: 'SEK' }, withKey('k-put'));
    const put = await server.client.put('/company', { currency: 'SEK' }, withKey('k-put'));
    expect(put.text).toBe(first.text);
  });

  it('treats a legacy alias and its current path as the same request', async () => {
    const first = await server.client.post('/scores/transfer', {}, withKey('k-alias'));
    const current = await server.client.post('/points/transfer', {}, withKey('k-alias'));
    expect(current.status).not.toBe(409);
    expect(current.text).toBe(first.text);
  });

  it('keeps answers across a restart', async () => {
    const first = await server.client.patch('/company', { currency: 'NOK' }, withKey('k-restart'));
    await server.restart();
    const again = await server.client.patch('/company', { currency: 'NOK' }, withKey('k-restart'));
    expect(again.text).toBe(first.text);
  });

  it('executes concurrent requests with one key once', async () => {
    const before = (await server.client.get('/company')).body.version as number;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => server.client.patch('/company', { cashback_threshold: 77 }, withKey('k-race'))),
    );
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await server.client.get('/company')).body.version).toBe(before + 1);
  });
});

