/**
 * A back office runs campaigns on products of its catalogue and keeps the
 * catalogue up to date while tills send carts (docs/company-data.md,
 * docs/carts.md): a campaign names a product by code, EAN or feature; a till
 * sends the id, the code, or both; a product's code or features change, or
 * the product goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const onLines = (condition: Record<string, unknown>) => ({ conditions: { and: [{ array_field: 'lines', conditions: [condition] }] } });

describe('campaigns on catalogue products, carts by id or code', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const client = server.client;
    for (const [path, body] of [
      ['/taxonomies', { slug: 'family', name: 'Family' }],
      ['/taxonomies/family/features', { id: 12, name: 'Dairy' }],
      ['/taxonomies/family/features', { id: 13, name: 'Bakery' }],
      ['/products', { id: 10, code: 'MILK', ean: '8410000000001', name: 'Milk', features: [{ taxonomy_slug: 'family', id: 12 }] }],
      ['/discounts', { rule_params: { name: 'By code', rule_conditions: onLines({ field: 'product_code', operator: 'eq', value: 'MILK' }), rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } }],
      ['/discounts', { rule_params: { name: 'By EAN', rule_conditions: onLines({ field: 'product_ean', operator: 'in', values: ['8410000000001'] }), rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } }],
      ['/discounts', { rule_params: { name: 'Not milk', rule_conditions: onLines({ field: 'product_code', operator: 'neq', value: 'MILK' }), rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } }],
      ['/points', { rule_params: { name: 'Dairy points', rule_conditions: onLines({ field: 'feature', operator: 'in', values: ['family:12'] }), rule_effects: [{ type: 'direct_value', value: 5 }] } }],
    ] as const) {
      const res = await client.post(path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    await client.post('/customers', { id: 1, code: 'C1', name: 'Ana', registration_location_id: 1 });
  });
  afterAll(async () => {
    await server.dispose();
  });

  const applied = async (line: Record<string, unknown>) => {
    const res = await server.client.post('/carts/simulate', {
      customer_id: 1,
      creation_date: new Date().toISOString().slice(0, 19) + 'Z',
      total: 20,
      lines: [{ order: 1, total: 20, quantity: 1, ...line }],
    });
    expect(res.status, res.text).toBe(200);
    return (res.body.effects as { rule_name: string }[]).map((e) => e.rule_name).sort();
  };

  it('a line sent by id alone is the catalogue product: its code, EAN and features', async () => {
    expect(await applied({ product_id: 10 })).toEqual(['By EAN', 'By code', 'Dairy points']);
    expect(await applied({ product_code: 'MILK' })).toEqual(['By EAN', 'By code', 'Dairy points']);
    // The line's own code is what the till scanned: it wins over the catalogue's.
    expect(await applied({ product_id: 10, product_code: 'OTHER' })).toEqual(['By EAN', 'Dairy points', 'Not milk']);
    // A product the catalogue does not know has only what the line carries.
    expect(await applied({ product_id: 99 })).toEqual(['Not milk']);
  });

  it('follows the catalogue: a code or feature change moves the campaigns, a deleted product has only its id', async () => {
    expect((await server.client.patch('/products/10', { code: 'MILK-1L', features: [{ taxonomy_slug: 'family', id: 13 }] })).status).toBe(200);
    expect(await applied({ product_id: 10 })).toEqual(['By EAN', 'Not milk']);
    expect((await server.client.patch('/products/10', { code: 'MILK', ean: null })).status).toBe(200);
    expect(await applied({ product_id: 10 })).toEqual(['By code']);
    expect((await server.client.delete('/products/10')).status).toBe(200);
    expect(await applied({ product_id: 10 })).toEqual(['Not milk']);
  });
});
