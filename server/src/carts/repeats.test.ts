/**
 * Common rule 8 for carts sent without id and code (repeats.ts): an identical realtime or POST /carts within
 * 5 minutes answers the first cart and writes nothing; the window itself is tested on the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import { balance, createCustomer } from '../points/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { CartRepeats, cartFingerprint } from './repeats.js';
import { CartStore } from './store.js';

describe('carts sent without id or code: duplicate suppression', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Two writers: an identical cart taken by the other writer is suppressed too.
    server = await startServer({ env: { REALTIME_WORKERS: '2' } });
    for (const id of [1, 2, 3, 4]) await createCustomer(server.client, id);
    const points = await server.client.post('/points', { rule_params: { name: 'one a unit', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } });
    expect(points.status, points.text).toBe(200);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const cartsOf = async (customer: number) => (await server.client.get('/carts', { query: { customer_id: String(customer) } })).body.data as { id: number }[];

  for (const path of ['/carts/realtime', '/carts']) {
    it(`${path}: an identical cart answers the first, however formatted, and is stored and earns once`, async () => {
      const customer = path === '/carts' ? 1 : 2;
      const body = cartBody(10, { customer_id: customer, creation_date: '2026-11-29T10:00:00Z' });
      const first = await server.client.post(path, body);
      expect(first.status, first.text).toBe(200);
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
      const again = await Promise.all([server.client.post(path, body), server.client.post(path, reordered)]);
      for (const res of again) expect(res.text).toBe(first.text);
      expect((await cartsOf(customer)).map((cart) => cart.id)).toEqual([first.body.id]);
      expect(await balance(server.client, customer)).toMatchObject({ score: 10 });
      // Another sale (another creation date) is another cart.
      const other = await server.client.post(path, { ...body, creation_date: '2026-11-29T10:00:01Z' });
      expect(other.body.id).not.toBe(first.body.id);
      expect(await balance(server.client, customer)).toMatchObject({ score: 20 });
    });
  }

  it('suppresses identical carts sent at once: one is stored, every answer is its', async () => {
    const body = cartBody(5, { customer_id: 3 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => server.client.post('/carts/realtime', body)));
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(await cartsOf(3)).toHaveLength(1);
    expect(await balance(server.client, 3)).toMatchObject({ score: 5 });
  });

  it('runs an identical cart again once the first was cancelled, and keeps realtime and POST /carts apart', async () => {
    const body = cartBody(7, { customer_id: 4, creation_date: '2026-11-29T11:00:00Z' });
    const first = await server.client.post('/carts/realtime', body);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.body.id })).status).toBe(200);
    const again = await server.client.post('/carts/realtime', body);
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    const created = await server.client.post('/carts', body);
    expect(created.body.id).not.toBe(again.body.id);
    expect(await balance(server.client, 4)).toMatchObject({ score: 14 });
  });

  it('forgets a request 5 minutes after it, and the sweep removes it', async () => {
    const tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' as const };
    const body = JSON.stringify(cartBody(3, { customer_id: 1, creation_date: '2026-11-29T12:00:00Z' }));
    const sent = await server.client.post('/carts/realtime', body);
    const at = Date.now();
    await server.stop();
    const env = openStore(server.dataDir);
    const repeats = new CartRepeats(env);
    const carts = new CartStore(env);
    const fingerprint = cartFingerprint('realtime', body);
    expect(repeats.first(carts, tenant, fingerprint, new Date(at))?.id).toBe(String(sent.body.id));
    expect(repeats.first(carts, tenant, fingerprint, new Date(at + 5 * 60_000 + 1_000))).toBeUndefined();
    expect(await repeats.removeExpired(at - 60_000)).toBe(0);
    expect(await repeats.removeExpired(at + 60_000)).toBeGreaterThan(0);
    expect(repeats.first(carts, tenant, fingerprint, new Date(at))).toBeUndefined();
    await env.close();
    await server.restart();
  });
});
