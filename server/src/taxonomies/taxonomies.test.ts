import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

/**
 * One suite for both kinds of taxonomies: product taxonomies (/taxonomies,
 * attached to /products) and location taxonomies (/locations/taxonomies,
 * attached to /locations).
 */
const KINDS = [
  {
    kind: 'product',
    base: '/taxonomies',
    owners: '/products',
    owner: (id: number, features: { taxonomy_slug: string; id: number | string }[]) => ({ id, name: `product ${id}`, features }),
    codes: { taxonomy: 'taxonomy_not_found', feature: 'feature_not_found' },
  },
  {
    kind: 'location',
    base: '/locations/taxonomies',
    owners: '/locations',
    owner: (id: number, features: { taxonomy_slug: string; id: number | string }[]) => ({ id, name: `store ${id}`, country: 'ES', features }),
    codes: { taxonomy: 'location_taxonomy_not_found', feature: 'location_feature_not_found' },
  },
] as const;

describe.each(KINDS)('$kind taxonomies and features', ({ base, owners, owner, codes }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const features = async (ownerId: number) => (await server.client.get(`${owners}/${ownerId}`)).body.features;

  it('creates a taxonomy and its features, and attaches them with their names', async () => {
    const created = await server.client.post(base, { slug: 'family', name: 'Family', description: 'Product families' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', slug: 'family' });
    const feature = await server.client.post(`${base}/family/features`, { id: 12, name: 'Dairy' });
    expect(feature.status).toBe(200);
    expect(feature.body).toEqual({ status: 'success', id: 12 });

    expect((await server.client.post(owners, owner(1, [{ taxonomy_slug: 'family', id: 12 }]))).status).toBe(200);
    expect(await features(1)).toEqual([{ taxonomy_slug: 'family', taxonomy_name: 'Family', id: 12, name: 'Dairy' }]);
  });

  it('keeps feature ids up to 9223372036854775807 exact', async () => {
    const id = '9223372036854775807';
    await server.client.post(base, { slug: 'brand', name: 'Brand' });
    expect((await server.client.post(`${base}/brand/features`, `{"id":${id},"name":"Big"}`)).text).toBe(`{"status":"success","id":${id}}`);
    // int64 values in bodies may also be sent as strings of digits.
    expect((await server.client.post(owners, owner(2, [{ taxonomy_slug: 'brand', id }]))).status).toBe(200);
    const read = await server.client.get(`${owners}/2`);
    expect(read.text).toContain(`"id":${id},"name":"Big"`);
    expect((await server.client.patch(`${base}/brand/features/${id}`, { name: 'Bigger' })).status).toBe(200);
  });

  it('renames taxonomies and features (PATCH and PUT); the slug and id stay', async () => {
    expect((await server.client.patch(`${base}/family`, { name: 'Families' })).body).toEqual({ status: 'success' });
    expect((await server.client.put(`${base}/family/features/12`, { name: 'Milk', description: null })).status).toBe(200);
    expect(await features(1)).toEqual([{ taxonomy_slug: 'family', taxonomy_name: 'Families', id: 12, name: 'Milk' }]);
  });

  it('answers 404 for a missing taxonomy or feature', async () => {
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [server.client.patch(`${base}/nope`, { name: 'x' }), codes.taxonomy],
      [server.client.delete(`${base}/nope`), codes.taxonomy],
      [server.client.post(`${base}/nope/features`, { id: 1, name: 'x' }), codes.taxonomy],
      [server.client.patch(`${base}/nope/features/12`, { name: 'x' }), codes.taxonomy],
      [server.client.patch(`${base}/family/features/99`, { name: 'x' }), codes.feature],
      [server.client.delete(`${base}/family/features/99`), codes.feature],
    ];
    for (const [pending, code] of cases) {
      const res = await pending;
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toMatch(/^(slug|taxonomy_slug|id): /);
    }
  });

  it('refuses a second taxonomy or feature with the same identifier (409 duplicate_id), unless it is an identical repeat', async () => {
    const again = await server.client.post(base, { slug: 'family', name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'duplicate_id' });
    expect(again.body.error).toContain('slug');
    const feature = await server.client.post(`${base}/family/features`, { id: 12, name: 'Other' });
    expect(feature.status).toBe(409);
    expect(feature.body.code).toBe('duplicate_id');

    // Duplicate suppression: the identical create within 5 minutes is answered as the first was.
    const first = await server.client.post(base, { slug: 'season', name: 'Season' });
    const repeat = await server.client.post(base, { slug: 'season', name: 'Season' });
    expect([first.status, repeat.status]).toEqual([200, 200]);
    expect(repeat.text).toBe(first.text);
  });

  it('validates bodies and path values, naming the field', async () => {
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [server.client.post(base, { name: 'No slug' }), 'slug'],
      [server.client.post(base, { slug: 'has space', name: 'x' }), 'slug'],
      [server.client.post(base, { slug: 'ok', name: '' }), 'name'],
      [server.client.post(base, { slug: 'ok', name: 'x', colour: 'red' }), 'colour'],
      [server.client.patch(`${base}/family`, { slug: 'renamed' }), 'slug'],
      [server.client.post(`${base}/family/features`, { id: 0, name: 'x' }), 'id'],
      [server.client.post(`${base}/family/features`, { name: 'x' }), 'id'],
      [server.client.patch(`${base}/family/features/abc`, { name: 'x' }), 'id'],
      [server.client.patch(`${base}/bad%20slug`, { name: 'x' }), 'slug'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
    }
  });

  it('refuses to delete a feature still attached, and a taxonomy still holding features (409 conflict), changing nothing', async () => {
    const feature = await server.client.delete(`${base}/family/features/12`);
    expect(feature.status).toBe(409);
    expect(feature.body.code).toBe('conflict');
    const taxonomy = await server.client.delete(`${base}/family`);
    expect(taxonomy.status).toBe(409);
    expect(taxonomy.body.code).toBe('conflict');
    expect(await features(1)).toEqual([{ taxonomy_slug: 'family', taxonomy_name: 'Families', id: 12, name: 'Milk' }]);

    // Detached, the feature and then its taxonomy can go; a second different delete is a real-time 404.
    expect((await server.client.patch(`${owners}/1`, { features: [] })).status).toBe(200);
    expect((await server.client.delete(`${base}/family/features/12`)).status).toBe(200);
    expect((await server.client.delete(`${base}/family`)).status).toBe(200);
    const gone = await server.client.post(`${base}/family/features`, { id: 13, name: 'x' });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(codes.taxonomy);
  });

  it('counts only its own features when deleting a taxonomy whose slug starts another\'s', async () => {
    await server.client.post(base, { slug: 'fam', name: 'Fam' });
    await server.client.post(base, { slug: 'fam2', name: 'Fam 2' });
    await server.client.post(`${base}/fam2/features`, { id: 1, name: 'x' });
    expect((await server.client.delete(`${base}/fam`)).status).toBe(200);
    expect((await server.client.delete(`${base}/fam2`)).status).toBe(409);
  });

  it('frees a feature when its product or location is deleted', async () => {
    await server.client.post(base, { slug: 'tag', name: 'Tag' });
    await server.client.post(`${base}/tag/features`, { id: 1, name: 'Organic' });
    await server.client.post(owners, owner(3, [{ taxonomy_slug: 'tag', id: 1 }]));
    expect((await server.client.delete(`${base}/tag/features/1`)).status).toBe(409);
    expect((await server.client.delete(`${owners}/3`)).status).toBe(200);
    expect((await server.client.delete(`${base}/tag/features/1`)).status).toBe(200);
  });

  it('replays a create sent with an Idempotency-Key byte for byte', async () => {
    const headers = { 'Idempotency-Key': `taxonomy-${base}` };
    const first = await server.client.post(base, { slug: 'idem', name: 'Idem' }, { headers });
    const replay = await server.client.post(base, { slug: 'idem', name: 'Idem' }, { headers });
    expect(first.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('product and location taxonomies are separate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('a product feature cannot be attached to a location, nor a location feature to a product', async () => {
    await server.client.post('/taxonomies', { slug: 'family', name: 'Family' });
    await server.client.post('/taxonomies/family/features', { id: 1, name: 'Dairy' });
    await server.client.post('/locations/taxonomies', { slug: 'region', name: 'Region' });
    await server.client.post('/locations/taxonomies/region/features', { id: 1, name: 'North' });

    const location = await server.client.post('/locations', { id: 1, name: 'x', country: 'ES', features: [{ taxonomy_slug: 'family', id: 1 }] });
    expect(location.status).toBe(404);
    expect(location.body.code).toBe('location_feature_not_found');
    const product = await server.client.post('/products', { id: 1, name: 'x', features: [{ taxonomy_slug: 'region', id: 1 }] });
    expect(product.status).toBe(404);
    expect(product.body.code).toBe('feature_not_found');

    // The same slug in both kinds names two different taxonomies.
    expect((await server.client.post('/locations/taxonomies', { slug: 'family', name: 'Store family' })).status).toBe(200);
    expect((await server.client.delete('/locations/taxonomies/family')).status).toBe(200);
    expect((await server.client.delete('/taxonomies/family')).status).toBe(409);
  });
});
