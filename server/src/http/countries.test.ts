/**
 * Every country a request takes is an ISO 3166-1 alpha-2 code a country holds (the contract), not two capitals of
 * any kind: bodies (`common#/$defs/country`) and query filters alike refuse `XX` with 400 naming the field, writing
 * nothing; what is stored keeps being read (docs/http.md, Errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { CustomerStore } from '../customers/store.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };
const BY_ID = { query: { search_param: 'id' } };

describe('country codes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', { id: 1, name: 'Barcelona', country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ann', registration_location_id: 1, country: 'ES' })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  const expect400 = (res: TestResponse, error: string) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', error });
  };

  it('refuses two capitals that name no country wherever a body takes a country, writing nothing', async () => {
    const { client } = server;
    expect400(await client.post('/customers', { id: 2, name: 'Bo', registration_location_id: 1, country: 'XX' }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/customers/2', BY_ID)).status).toBe(404);
    // A field null clears: the value's own fault answers, not "must be null".
    expect400(await client.patch('/customers/1', { name: 'Changed', country: 'UK' }), 'country: UK is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/customers/1', BY_ID)).body).toMatchObject({ name: 'Ann', country: 'ES' });
    expect400(await client.post('/locations', { id: 2, name: 'Nowhere', country: 'XX' }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/locations/2')).status).toBe(404);
    expect400(await client.patch('/company', { country: 'EU' }), 'country: EU is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/company')).body.country).toBe('ES');
    const params = { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], customer_registration_countries: ['ES', 'ZZ'] };
    expect400(await client.post('/discounts', { rule_params: params }), 'rule_params.customer_registration_countries[1]: ZZ is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/discounts')).body.data).toEqual([]);
    expect400(await client.post('/trigger', { trigger: 'signup', customer_id: 1, country: 'XX' }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    expect400(await client.post('/points/transfer', { from_customer_id: 1, to_customer_id: 1, score: 1, country: 'XX' }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    // The form is still checked first, in its own words.
    expect400(await client.post('/customers', { id: 2, name: 'Bo', registration_location_id: 1, country: 'es' }), 'country: must be an ISO 3166-1 alpha-2 code in capitals');
  });

  it('refuses them in the query filters, naming the value', async () => {
    const { client } = server;
    expect400(await client.get('/discounts', { query: { countries: 'ES,XX' } }), 'countries: XX is not an ISO 3166-1 alpha-2 country');
    expect400(await client.get('/carts', { query: { country: 'XX' } }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    expect400(await client.get('/challenges', { query: { country: 'XX' } }), 'country: XX is not an ISO 3166-1 alpha-2 country');
    expect((await client.get('/discounts', { query: { countries: 'ES,AQ' } })).status).toBe(200);
  });

  it('takes every assigned code, Antarctica (AQ) too, and Kosovo (XK); a location needs a country with a currency', async () => {
    const { client } = server;
    for (const [id, country] of [[3, 'AQ'], [4, 'XK'], [5, 'SX'], [6, 'BQ']] as const) {
      const res = await client.post('/customers', { id, name: 'Cy', registration_location_id: 1, country });
      expect(res.status, res.text).toBe(200);
    }
    expect((await client.post('/locations', { id: 4, name: 'Pristina', country: 'XK' })).status).toBe(200);
    expect((await client.get('/locations/4')).body).toMatchObject({ country: 'XK', currency: 'EUR' });
    expect400(await client.post('/locations', { id: 3, name: 'McMurdo', country: 'AQ' }), 'country: AQ has no currency of its own (a location\'s currency is its country\'s)');
  });

  it('refuses two letters that name no ISO 639-1 language wherever a body takes a language, writing nothing', async () => {
    const { client } = server;
    expect400(await client.post('/customers', { id: 30, name: 'Cy', registration_location_id: 1, preferred_language: 'qq' }), 'preferred_language: qq is not an ISO 639-1 language');
    expect((await client.get('/customers/30', BY_ID)).status).toBe(404);
    expect400(await client.patch('/company', { languages: ['es', 'xx'] }), 'languages[1]: xx is not an ISO 639-1 language');
    expect((await client.get('/company')).body.languages).not.toContain('xx');
    for (const language of ['ca', 'eu', 'gl', 'zu']) {
      expect((await client.patch('/customers/1', { preferred_language: language })).status, language).toBe(200);
    }
    expect((await client.get('/customers/1', BY_ID)).body.preferred_language).toBe('zu');
  });

  it('keeps reading and updating what was stored with a code no country holds', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const store = new CustomerStore(env);
      await env.transact(() => {
        const record = store.get(tenant, '1')!;
        store.put(tenant, { ...record, profile: { ...record.profile, country: 'XX' } }, record);
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect((await server.client.get('/customers/1', BY_ID)).body).toMatchObject({ id: 1, country: 'XX' });
    expect((await server.client.patch('/customers/1', { name: 'Ann B' })).status).toBe(200);
    expect((await server.client.get('/customers/1', BY_ID)).body).toMatchObject({ name: 'Ann B', country: 'XX' });
  });
});
