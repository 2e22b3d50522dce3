import { compileCampaigns, evaluateCart } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { ProductStore } from './store.js';

describe('products', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.client.post('/taxonomies', { slug: 'family', name: 'Family' });
    await server.client.post('/taxonomies/family/features', { id: 1, name: 'Dairy' });
    await server.client.post('/taxonomies/family/features', { id: 2, name: 'Bakery' });
    await server.client.post('/taxonomies', { slug: 'brand', name: 'Brand' });
    await server.client.post('/taxonomies/brand/features', { id: 7, name: 'Acme' });
  });
  afterAll(() => server.dispose());

  const get = (id: number | string) => server.client.get(`/products/${id}`);

  it('creates a product and reads it back with defaults, timestamps and named features', async () => {
    const created = await server.client.post('/products', {
      id: 100,
      code: 'MILK-1L',
      ean: '8412345678905',
      name: 'Milk 1 l',
      features: [{ taxonomy_slug: 'family', id: 1 }, { taxonomy_slug: 'brand', id: 7 }],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', id: 100 });

    const read = await get(100);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: 100,
      code: 'MILK-1L',
      ean: '8412345678905',
      name: 'Milk 1 l',
      description: null,
      active: true,
      features: [
        { taxonomy_slug: 'family', taxonomy_name: 'Family', id: 1, name: 'Dairy' },
        { taxonomy_slug: 'brand', taxonomy_name: 'Brand', id: 7, name: 'Acme' },
      ],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      updated_at: read.body.created_at,
    });
  });

  it('keeps ids up to 9223372036854775807 exact, and reads leading zeros as the same id', async () => {
    const id = '9223372036854775807';
    const created = await server.client.post('/products', `{"id":${id},"name":"Big"}`);
    expect(created.text).toBe(`{"status":"success","id":${id}}`);
    expect((await get(id)).text).toContain(`"id":${id}`);
    expect((await get('0100')).body.id).toBe(100);
  });

  it('stores a feature named twice once', async () => {
    const feature = { taxonomy_slug: 'family', id: 2 };
    await server.client.post('/products', { id: 101, name: 'Bread', features: [feature, feature] });
    expect((await get(101)).body.features).toHaveLength(1);
  });

  it('refuses a second product with the same id or code (409 duplicate_id), writing nothing', async () => {
    const sameId = await server.client.post('/products', { id: 100, name: 'Other' });
    expect(sameId.status).toBe(409);
    expect(sameId.body.code).toBe('duplicate_id');
    expect(sameId.body.error).toContain('id');

    const sameCode = await server.client.post('/products', { id: 102, code: 'MILK-1L', name: 'Other', features: [{ taxonomy_slug: 'family', id: 2 }] });
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.code).toBe('duplicate_id');
    expect(sameCode.body.error).toContain('code');
    expect((await get(102)).status).toBe(404);
    expect((await get(100)).body.name).toBe('Milk 1 l');
  });

  it('answers an identical create within 5 minutes as the first, without a second write', async () => {
    const body = { id: 103, name: 'Butter' };
    const first = await server.client.post('/products', body);
    const repeat = await server.client.post('/products', body);
    expect(repeat.status).toBe(200);
    expect(repeat.text).toBe(first.text);
  });

  it('grants an id or a code to exactly one of concurrent creates', async () => {
    const sameId = await Promise.all([1, 2, 3, 4, 5].map((n) => server.client.post('/products', { id: 300, name: `racer ${n}` })));
    expect(sameId.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const sameCode = await Promise.all([1, 2, 3, 4, 5].map((n) => server.client.post('/products', { id: 300 + n, code: 'RACE', name: 'racer' })));
    expect(sameCode.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const winner = sameCode.findIndex((r) => r.status === 200) + 301;
    expect((await get(winner)).body.code).toBe('RACE');
  });

  it('refuses a product with an unknown feature (404 feature_not_found naming the entry), writing nothing', async () => {
    const res = await server.client.post('/products', {
      id: 104,
      code: 'CHEESE',
      name: 'Cheese',
      features: [{ taxonomy_slug: 'family', id: 1 }, { taxonomy_slug: 'family', id: 99 }],
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('feature_not_found');
    expect(res.body.error).toContain('features[1]');
    expect((await get(104)).status).toBe(404);
    // Neither the code nor a link to the valid feature was written.
    expect((await server.client.post('/products', { id: 105, code: 'CHEESE', name: 'Cheese' })).status).toBe(200);
    const unknownTaxonomy = await server.client.post('/products', { id: 106, name: 'x', features: [{ taxonomy_slug: 'nope', id: 1 }] });
    expect(unknownTaxonomy.status).toBe(404);
    expect(unknownTaxonomy.body.code).toBe('feature_not_found');
  });

  it('updates given fields with PATCH or PUT; null clears; features replace the list', async () => {
    const patched = await server.client.patch('/products/100', { name: 'Whole milk 1 l', description: 'Fresh', features: [{ taxonomy_slug: 'family', id: 2 }] });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ status: 'success' });
    expect((await server.client.put('/products/100', { code: null, ean: null, active: false })).status).toBe(200);
    const read = (await get(100)).body;
    expect(read).toMatchObject({ name: 'Whole milk 1 l', description: 'Fresh', code: null, ean: null, active: false });
    expect(read.features.map((f: { id: number }) => f.id)).toEqual([2]);
    // The freed code can be taken by another product.
    expect((await server.client.patch('/products/101', { code: 'MILK-1L' })).status).toBe(200);
    expect((await get(101)).body.code).toBe('MILK-1L');
  });

  it('refuses an update to a taken code or an unknown feature, changing nothing', async () => {
    const taken = await server.client.patch('/products/100', { name: 'Renamed', code: 'MILK-1L' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('duplicate_id');
    const unknown = await server.client.patch('/products/100', { name: 'Renamed', code: 'NEW', features: [{ taxonomy_slug: 'brand', id: 8 }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('feature_not_found');
    const read = (await get(100)).body;
    expect(read.name).toBe('Whole milk 1 l');
    expect(read.code).toBeNull();
    expect((await server.client.post('/products', { id: 107, code: 'NEW', name: 'x' })).status).toBe(200);
  });

  it('deletes a product; its id and code can be used again; a missing id is 404 product_not_found', async () => {
    expect((await server.client.delete('/products/101')).body).toEqual({ status: 'success' });
    const gone = await get(101);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('product_not_found');
    expect((await server.client.post('/products', { id: 101, code: 'MILK-1L', name: 'Again' })).status).toBe(200);

    for (const res of [await server.client.delete('/products/555'), await server.client.patch('/products/555', { name: 'x' })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('product_not_found');
    }
  });

  it('validates bodies and path ids, naming the field', async () => {
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [server.client.post('/products', { name: 'no id' }), 'id'],
      [server.client.post('/products', { id: 0, name: 'x' }), 'id'],
      [server.client.post('/products', { id: 1.5, name: 'x' }), 'id'],
      [server.client.post('/products', { id: '9223372036854775808', name: 'x' }), 'id'],
      [server.client.post('/products', { id: 200 }), 'name'],
      [server.client.post('/products', { id: 200, name: 'x', ean: '12ab' }), 'ean'],
      [server.client.post('/products', { id: 200, name: 'x', code: 'a/b' }), 'code'],
      [server.client.post('/products', { id: 200, name: 'x', features: [{ taxonomy_slug: 'family' }] }), 'features[0].id'],
      [server.client.post('/products', { id: 200, name: 'x', price: 3 }), 'price'],
      [server.client.patch('/products/100', { id: 5 }), 'id'],
      [server.client.patch('/products/100', { name: null }), 'name'],
      [get('abc'), 'id'],
      [get('0'), 'id'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
    }
    expect((await get(200)).status).toBe(404);
  });

  it('gives carts the features of products by id, as the evaluator reads them, and product ids by code (ProductStore)', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const store = new ProductStore(env);
      const tenant = { companyId: 'default', environment: 'sandbox' } as const;
      expect(store.productFeatures(tenant, ['100', '103', '404'])).toEqual({ '100': ['family:2'], '103': [] });
      expect(store.productIdByCode(tenant, 'CHEESE')).toBe('105');
      expect(store.productIdByCode(tenant, 'MISSING')).toBeUndefined();
      expect(store.productFeatures({ companyId: 'default', environment: 'production' }, ['100'])).toEqual({});

      // What the read gives is what the evaluator's `feature` line field reads.
      const program = compileCampaigns(
        [{ id: 1, type: 'discount', rule_params: {
          name: '10% off bakery',
          rule_application: { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'feature', operator: 'in', values: ['family:2'] }] }] } },
          rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
        } }],
        { currency: 'EUR', timezone: 'UTC' },
      );
      const lines = [{ order: 1, product_id: 100, total: 10, quantity: 1 }, { order: 2, product_id: 103, total: 10, quantity: 1 }];
      const now = '2026-11-20T10:00:00Z';
      const outcome = evaluateCart(program, { creation_date: now, total: 20, lines }, {
        now, mode: 'simulate', seed: 'features', product_features: store.productFeatures(tenant, ['100', '103']),
      });
      expect(outcome.response.effects.map((effect) => [effect.line, effect.value])).toEqual([[1, 100]]);
    } finally {
      await env.close();
    }
  });
});
