import { currencyOf } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { LocationStore } from './store.js';

describe('locations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.client.post('/locations/taxonomies', { slug: 'region', name: 'Region' });
    await server.client.post('/locations/taxonomies/region/features', { id: 1, name: 'North' });
  });
  afterAll(() => server.dispose());

  const byId = (id: number | string) => server.client.get(`/locations/${id}`);
  const byCode = (code: string) => server.client.get(`/locations/${encodeURIComponent(code)}`, { query: { search_param: 'code' } });

  it('creates a location whose currency is its country\'s, read by id (the default) or by code', async () => {
    const created = await server.client.post('/locations', {
      id: 10,
      code: 'MAD-01',
      name: 'Madrid Centro',
      country: 'ES',
      city: 'Madrid',
      features: [{ taxonomy_slug: 'region', id: 1 }],
    });
    expect(created.body).toEqual({ status: 'success', id: 10 });
    const expected = {
      id: 10,
      code: 'MAD-01',
      name: 'Madrid Centro',
      country: 'ES',
      currency: 'EUR',
      address: null,
      city: 'Madrid',
      state: null,
      postal_code: null,
      active: true,
      features: [{ taxonomy_slug: 'region', taxonomy_name: 'Region', id: 1, name: 'North' }],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      updated_at: expect.any(String),
    };
    expect((await byId(10)).body).toEqual(expected);
    expect((await server.client.get('/locations/10', { query: { search_param: 'id' } })).body).toEqual(expected);
    expect((await byCode('MAD-01')).body).toEqual(expected);
  });

  it('derives the currency from the country, and changes it with the country', async () => {
    await server.client.post('/locations', { id: 11, code: 'NYC', name: 'New York', country: 'US' });
    expect((await byId(11)).body.currency).toBe('USD');
    expect((await server.client.patch('/locations/11', { country: 'BG' })).status).toBe(200);
    expect((await byId(11)).body).toMatchObject({ country: 'BG', currency: 'EUR' });
    expect((await server.client.patch('/locations/11', { country: 'GB' })).status).toBe(200);
    expect((await byId(11)).body.currency).toBe('GBP');
  });

  it('refuses a country it cannot give a currency to, naming country', async () => {
    for (const [body, path] of [
      [{ id: 12, name: 'x', country: 'ZZ' }, '/locations'],
      [{ id: 12, name: 'x', country: 'es' }, '/locations'],
      [{ country: 'QQ' }, '/locations/11'],
      // A country without a currency of its own (Antarctica).
      [{ country: 'AQ' }, '/locations/11'],
    ] as const) {
      const res = path === '/locations' ? await server.client.post(path, body) : await server.client.patch(path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain('country');
    }
    expect((await byId(12)).status).toBe(404);
    expect((await byId(11)).body.country).toBe('GB');
  });

  it('never takes /locations/taxonomies for a location, and reserves the code taxonomies', async () => {
    const reserved = await server.client.post('/locations', { id: 13, code: 'taxonomies', name: 'x', country: 'ES' });
    expect(reserved.status).toBe(400);
    expect(reserved.body.error).toContain('code');
    expect((await server.client.patch('/locations/10', { code: 'taxonomies' })).status).toBe(400);

    // GET has no operation at /locations/taxonomies: 405, not location_not_found.
    const read = await server.client.get('/locations/taxonomies', { query: { search_param: 'code' } });
    expect(read.status).toBe(405);
    expect(read.body.code).toBe('method_not_allowed');
    // POST creates a location taxonomy, PATCH and DELETE reach it, none touches a location.
    expect((await server.client.post('/locations/taxonomies', { slug: 'size', name: 'Size' })).body).toEqual({ status: 'success', slug: 'size' });
    expect((await server.client.patch('/locations/taxonomies/size', { name: 'Store size' })).body).toEqual({ status: 'success' });
    expect((await server.client.delete('/locations/taxonomies/size')).body).toEqual({ status: 'success' });
    expect((await byCode('taxonomies')).status).toBe(405);
    // A location id or a code beginning with the word is an ordinary location.
    expect((await server.client.post('/locations', { id: 14, code: 'taxonomies-2', name: 'x', country: 'ES' })).status).toBe(200);
    expect((await byCode('taxonomies-2')).body.id).toBe(14);
  });

  it('updates and deletes by id or by code (PATCH and PUT)', async () => {
    expect((await server.client.patch('/locations/MAD-01', { name: 'Madrid Sol', postal_code: '28013' }, { query: { search_param: 'code' } })).status).toBe(200);
    expect((await server.client.put('/locations/10', { code: 'MAD-SOL', features: [] })).status).toBe(200);
    const read = (await byId(10)).body;
    expect(read).toMatchObject({ name: 'Madrid Sol', postal_code: '28013', code: 'MAD-SOL', features: [] });
    const old = await byCode('MAD-01');
    expect(old.status).toBe(404);
    expect(old.body.code).toBe('location_not_found');

    expect((await server.client.delete('/locations/MAD-SOL', { query: { search_param: 'code' } })).body).toEqual({ status: 'success' });
    expect((await byId(10)).status).toBe(404);
    // Its id and code can be used again.
    expect((await server.client.post('/locations', { id: 10, code: 'MAD-SOL', name: 'Reopened', country: 'ES' })).status).toBe(200);
  });

  it('refuses a second location with the same id or code (409 duplicate_id), writing nothing', async () => {
    const sameId = await server.client.post('/locations', { id: 10, name: 'Other', country: 'FR' });
    expect(sameId.status).toBe(409);
    expect(sameId.body.code).toBe('duplicate_id');
    const sameCode = await server.client.post('/locations', { id: 15, code: 'NYC', name: 'Other', country: 'FR', features: [{ taxonomy_slug: 'region', id: 1 }] });
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.error).toContain('code');
    expect((await byId(15)).status).toBe(404);
    const taken = await server.client.patch('/locations/11', { code: 'MAD-SOL', name: 'Renamed' });
    expect(taken.status).toBe(409);
    expect((await byId(11)).body).toMatchObject({ code: 'NYC', name: 'New York' });
  });

  it('refuses an unknown location feature (404 location_feature_not_found), writing nothing', async () => {
    const res = await server.client.post('/locations', { id: 16, code: 'BCN', name: 'x', country: 'ES', features: [{ taxonomy_slug: 'region', id: 1 }, { taxonomy_slug: 'region', id: 2 }] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('location_feature_not_found');
    expect(res.body.error).toContain('features[1]');
    expect((await byId(16)).status).toBe(404);
    expect((await server.client.post('/locations', { id: 16, code: 'BCN', name: 'x', country: 'ES' })).status).toBe(200);
  });

  it('answers 404 location_not_found for a missing location, and 400 for a bad search_param or id', async () => {
    for (const res of [await byId(999), await server.client.patch('/locations/999', { name: 'x' }), await server.client.delete('/locations/NOPE', { query: { search_param: 'code' } })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('location_not_found');
    }
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [server.client.get('/locations/10', { query: { search_param: 'name' } }), 'search_param'],
      [byId('MAD-SOL'), 'value'],
      [server.client.post('/locations', { id: 17, name: 'x' }), 'country'],
      [server.client.post('/locations', { id: 17, country: 'ES' }), 'name'],
      [server.client.post('/locations', { id: 17, name: 'x', country: 'ES', currency: 'USD' }), 'currency'],
      [server.client.patch('/locations/10', { currency: 'USD' }), 'currency'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
    }
  });

  it('keeps location ids up to 9223372036854775807 exact', async () => {
    const id = '9223372036854775807';
    expect((await server.client.post('/locations', `{"id":${id},"name":"Big","country":"MX"}`)).text).toBe(`{"status":"success","id":${id}}`);
    expect((await byId(id)).text).toContain(`"id":${id}`);
  });

  it('gives carts and cashbacks the location with its currency, by id or code (LocationStore)', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const store = new LocationStore(env);
      const tenant = { companyId: 'default', environment: 'sandbox' } as const;
      expect(store.locationById(tenant, '11')).toMatchObject({ id: '11', code: 'NYC', country: 'GB', currency: 'GBP' });
      expect(store.locationByCode(tenant, 'BCN')).toMatchObject({ id: '16', country: 'ES', currency: 'EUR' });
      expect(store.locationById(tenant, '999')).toBeUndefined();
      expect(store.locationByCode(tenant, 'MAD-01')).toBeUndefined();
      expect(store.locationById({ companyId: 'default', environment: 'production' }, '11')).toBeUndefined();
    } finally {
      await env.close();
    }
  });
});

describe('the country currency table', () => {
  it('is current (Bulgaria on the euro, Curaçao on the Caribbean guilder) and knows no made-up code', () => {
    expect(currencyOf('ES')).toBe('EUR');
    expect(currencyOf('US')).toBe('USD');
    expect(currencyOf('JP')).toBe('JPY');
    expect(currencyOf('BG')).toBe('EUR');
    expect(currencyOf('HR')).toBe('EUR');
    expect(currencyOf('CW')).toBe('XCG');
    expect(currencyOf('ZW')).toBe('ZWG');
    expect(currencyOf('ZZ')).toBeUndefined();
  });
});
