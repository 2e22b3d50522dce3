/**
 * A cart's request, answer and writes are stored deflated beside its record (`detail`, carts/store.ts): what the
 * carts read back is what was answered, int64 ids included; carts stored before, with them inline, read and cancel
 * as before; and the record fits an LMDB leaf (no overflow pages of its own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerAddsUp } from '../points/testing.js';
import { openStore } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import { startServer, type TestServer } from '../testing/server.js';
import { cartBody } from '../testing/carts.js';
import { CartStore } from './store.js';

const MAX_ID = '9223372036854775807';
/** What LMDB keeps inline in a leaf of 4 KB pages, key and value together (larger values get overflow pages). */
const LEAF_NODE_MAX = 2_038;
const TENANT = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' } as const;

describe('stored carts', () => {
  let server: TestServer;
  const key = (id: string) => [tenantPrefix(TENANT), idKey(id)];

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await server.client.post('/customers', { id: 7, name: 'Ann', registration_location_id: 1 });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('keeps a ten-line cart in its leaf, deflated, and reads back what was answered, int64 ids included', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ order: i + 1, product_id: `${MAX_ID.slice(0, -3)}${700 + i}`, product_name: `Product number ${i + 1}`, total: 2.99, quantity: 1 }));
    const sent = `{"id":${MAX_ID},"customer_id":7,"creation_date":"2026-11-20T10:00:00Z","total":29.9,"lines":[${lines.map((l) => JSON.stringify(l).replace(/"product_id":"(\d+)"/, '"product_id":$1')).join(',')}]}`;
    const answered = await server.client.post('/carts/realtime', sent, { headers: { 'Content-Type': 'application/json' } });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.text).toContain(`"id":${MAX_ID}`);
    expect(answered.body.score).toBe(290);
    const read = await server.client.get(`/carts/${MAX_ID}`);
    expect(read.text).toContain(`"id":${MAX_ID}`);
    expect(read.text).toContain(`"product_id":${MAX_ID.slice(0, -3)}709`);
    expect(read.body).toMatchObject({ score: 290, total: 29.9, lines: answered.body.lines });

    await server.stop();
    const env = openStore(server.dataDir);
    const stored = env.db('carts').get(key(MAX_ID)) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(expect.arrayContaining(['detail', 'id', 'customer_id', 'total']));
    expect(stored).not.toHaveProperty('response_json');
    expect(stored).not.toHaveProperty('request');
    const bytes = env.db('carts').getBinary(key(MAX_ID))!;
    expect(bytes.length + 40).toBeLessThan(LEAF_NODE_MAX);
    await env.close();
    await server.restart();
  });

  it('reads and cancels a cart stored before, with its request, answer and writes inline', async () => {
    const body = cartBody(2.99, { id: 600, customer_id: 7, creation_date: '2026-11-20T10:00:00Z' });
    const answered = await server.client.post('/carts/realtime', body);
    expect(answered.body.score).toBe(29);
    const read = (await server.client.get('/carts/600')).text;
    await server.stop();
    const env = openStore(server.dataDir);
    const carts = env.db('carts');
    const { detail: _detail, ...rest } = carts.get(key('600')) as Record<string, unknown>;
    const { request, response_json, writes } = new CartStore(env).get(TENANT, '600')!;
    await env.transact(() => carts.putSync(key('600'), { ...rest, request, response_json, writes }));
    await env.close();
    await server.restart();
    expect((await server.client.get('/carts/600')).text).toBe(read);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 600, new_cart_id: 601 });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ id: 601, score: -29, score_returned_from_customer: 29 });
    expect((await server.client.get('/carts/600')).body.cancelled_by_cart_id).toBe(601);
    await expectLedgerAddsUp(server.client, 7);
  });
});

