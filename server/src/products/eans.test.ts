/**
 * Cart lines sent with product_ean only (a till that scans barcodes) are read as the catalogue's product, through
 * the `product_eans` index written with the product; stores written before it are indexed at start. Over HTTP
 * against the started server; the old store made by removing the index from the stopped server's store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { migrations } from '../store/migrations.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const EAN = '8400000000301';

describe('cart lines sent with product_ean only', () => {
  let server: TestServer;
  let discount: number;

  /** The discount's effects on a simulated line of `line`'s product fields, and the product_id the answer gives the line. */
  const simulate = async (line: Record<string, unknown>) => {
    const res = await server.client.post('/carts/simulate', cartBody(10, { apply_points: false, lines: [{ order: 1, total: 10, quantity: 1, ...line }] }));
    expect(res.status, res.text).toBe(200);
    return { discounted: res.body.effects.some((e: { rule_id: number }) => e.rule_id === discount), productId: res.body.lines[0].product_id };
  };

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/products', { id: 300, name: 'Bread', ean: EAN })).status).toBe(200);
    const created = await server.client.post('/discounts', {
      rule_params: {
        name: 'Bread 10%',
        rule_application: { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'eq', value: 300 }] }] } },
        rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
      },
    });
    expect(created.status, created.text).toBe(200);
    discount = created.body.id;
  });
  afterAll(() => server.dispose());

  // A campaign on product_id or product_code missed such a line: only rules on product_ean met it.
  it('are evaluated and stored as the one product with that EAN', async () => {
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: true, productId: 300 });
    const stored = await server.client.post('/carts/realtime', cartBody(10, { id: 9001, lines: [{ order: 1, product_ean: EAN, total: 10, quantity: 1 }] }));
    expect(stored.status, stored.text).toBe(200);
    expect((await server.client.get('/carts/9001')).body.lines[0]).toMatchObject({ product_id: 300, product_ean: EAN });
    // A code the catalogue does not know leaves the EAN to find it; an unknown EAN finds nothing.
    expect(await simulate({ product_code: 'NOT-KNOWN', product_ean: EAN })).toEqual({ discounted: true, productId: 300 });
    expect(await simulate({ product_ean: '8400000000999' })).toEqual({ discounted: false, productId: undefined });
  });

  it('find nothing while two products share the EAN, and follow the EAN as products change and go', async () => {
    expect((await server.client.post('/products', { id: 302, name: 'Bread too', ean: EAN })).status).toBe(200);
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: false, productId: undefined });
    expect((await server.client.patch('/products/302', { ean: null })).status).toBe(200);
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: true, productId: 300 });
    expect((await server.client.patch('/products/300', { ean: '8400000000300' })).status).toBe(200);
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: false, productId: undefined });
    expect(await simulate({ product_ean: '8400000000300' })).toEqual({ discounted: true, productId: 300 });
    expect((await server.client.patch('/products/300', { ean: EAN })).status).toBe(200);
    expect((await server.client.delete('/products/302')).status).toBe(200);
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: true, productId: 300 });
  });

  it('are read through an index a store written before it gets at start', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      await env.transact(() => {
        for (const key of [...env.db('product_eans').getKeys({})]) env.db('product_eans').removeSync(key);
        migrations(env).removeSync('product_eans');
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect(await simulate({ product_ean: EAN })).toEqual({ discounted: true, productId: 300 });
    expect(server.lines.some((line) => line.includes('products indexed by EAN'))).toBe(true);
  });
});
