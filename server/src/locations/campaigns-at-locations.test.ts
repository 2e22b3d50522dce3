/**
 * A retailer runs a campaign "in every store tagged outlet" (the cart field `location_feature`, docs/rules.md) while
 * tills send carts by location id or code and the back office tags and untags stores, or removes a tag
 * (docs/company-data.md, "Features named by campaigns"). Carts run on pool workers (WORKERS=1, and the writers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const at = (field: string, operator: string, value: unknown) => ({
  conditions: { and: [operator === 'in' || operator === 'not_in' ? { field, operator, values: value } : { field, operator, value }] },
});
const OUTLET = { taxonomy_slug: 'kind', id: 1 };
const FLAGSHIP = { taxonomy_slug: 'kind', id: 2 };

describe('campaigns by location feature', () => {
  let server: TestServer;
  let outlets: number;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    const discount = (name: string, rule_conditions: unknown) => ({ rule_params: { name, rule_conditions, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    for (const [path, body] of [
      ['/locations/taxonomies', { slug: 'kind', name: 'Kind of store' }],
      ['/locations/taxonomies/kind/features', { id: 1, name: 'Outlet' }],
      ['/locations/taxonomies/kind/features', { id: 2, name: 'Flagship' }],
      ['/locations', { id: 10, code: 'OUT1', name: 'Outlet Getafe', country: 'ES', features: [OUTLET] }],
      ['/locations', { id: 11, code: 'MAIN', name: 'Gran Via', country: 'ES', features: [FLAGSHIP] }],
      ['/locations', { id: 12, code: 'NEW', name: 'New store', country: 'ES' }],
      ['/discounts', discount('Outlets', at('location_feature', 'in', ['kind:1']))],
      ['/discounts', discount('Not outlets', at('location_feature', 'neq', 'kind:1'))],
    ] as const) {
      const res = await server.client.post(path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      if ('rule_params' in body && body.rule_params.name === 'Outlets') outlets = res.body.id;
    }
  });
  afterAll(() => server.dispose());

  const applied = async (location: Record<string, unknown>, operation = 'simulate') => {
    const res = await server.client.post(`/carts/${operation}`, {
      creation_date: new Date().toISOString().slice(0, 19) + 'Z',
      total: 20,
      lines: [{ order: 1, product_id: 1, total: 20, quantity: 1 }],
      ...location,
    });
    expect(res.status, res.text).toBe(200);
    return (res.body.effects as { rule_name: string }[]).map((e) => e.rule_name).sort();
  };

  it('applies at a tagged location sent by id or by code, and not at another', async () => {
    expect(await applied({ location_id: 10 })).toEqual(['Outlets']);
    expect(await applied({ location_code: 'OUT1' })).toEqual(['Outlets']);
    expect(await applied({ location_id: 10, location_code: 'OUT1' })).toEqual(['Outlets']);
    expect(await applied({ location_id: 11 })).toEqual(['Not outlets']);
    expect(await applied({ location_code: 'MAIN' })).toEqual(['Not outlets']);
    // Where company data knows no such location, or the cart names none, the location has no features.
    expect(await applied({ location_id: 99 })).toEqual(['Not outlets']);
    expect(await applied({})).toEqual(['Not outlets']);
    // A cart that writes is evaluated so too (the realtime workers read the location as the simulate ones do).
    expect(await applied({ location_code: 'OUT1', id: 501 }, 'realtime')).toEqual(['Outlets']);
  });

  it("follows the location's features: tagged, it applies from the next cart; untagged, it stops", async () => {
    expect(await applied({ location_id: 12 })).toEqual(['Not outlets']);
    expect((await server.client.patch('/locations/12', { features: [FLAGSHIP, OUTLET] })).status).toBe(200);
    expect(await applied({ location_id: 12 })).toEqual(['Outlets']);
    expect(await applied({ location_code: 'NEW' })).toEqual(['Outlets']);
    expect((await server.client.patch('/locations/NEW', { features: [FLAGSHIP] }, { query: { search_param: 'code' } })).status).toBe(200);
    expect(await applied({ location_id: 12 })).toEqual(['Not outlets']);
  });

  it('a feature a campaign names is deleted only once no location holds it (409 before), and then matches nothing; the campaign stays', async () => {
    const attached = await server.client.delete('/locations/taxonomies/kind/features/1');
    expect(attached.status, attached.text).toBe(409);
    expect(attached.body.code).toBe('conflict');
    expect((await server.client.delete('/locations/taxonomies/kind')).status).toBe(409);
    expect(await applied({ location_id: 10 })).toEqual(['Outlets']);

    expect((await server.client.patch('/locations/10', { features: [] })).status).toBe(200);
    expect(await applied({ location_id: 10 })).toEqual(['Not outlets']);
    const deleted = await server.client.delete('/locations/taxonomies/kind/features/1');
    expect(deleted.status, deleted.text).toBe(200);
    expect(await applied({ location_id: 10 })).toEqual(['Not outlets']);
    const campaign = await server.client.get(`/discounts/${outlets}`);
    expect(campaign.status).toBe(200);
    expect(campaign.body.active).toBe(true);

    // The rule names `kind:1`, not a record: a feature made again under that id and attached is matched again.
    expect((await server.client.post('/locations/taxonomies/kind/features', { id: 1, name: 'Outlet again' })).status).toBe(200);
    expect((await server.client.patch('/locations/11', { features: [OUTLET] })).status).toBe(200);
    expect(await applied({ location_code: 'MAIN' })).toEqual(['Outlets']);
  });

  it('a product feature a campaign names follows the same rule', async () => {
    for (const [path, body] of [
      ['/taxonomies', { slug: 'family', name: 'Family' }],
      ['/taxonomies/family/features', { id: 12, name: 'Dairy' }],
      ['/products', { id: 1, name: 'Milk', features: [{ taxonomy_slug: 'family', id: 12 }] }],
      ['/points', { rule_params: { name: 'Dairy points', rule_conditions: { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'feature', operator: 'in', values: ['family:12'] }] }] } }, rule_effects: [{ type: 'direct_value', value: 5 }] } }],
    ] as const) {
      expect((await server.client.post(path, body)).status, path).toBe(200);
    }
    expect(await applied({ location_id: 12 })).toEqual(['Dairy points', 'Not outlets']);
    expect((await server.client.delete('/taxonomies/family/features/12')).status).toBe(409);
    expect((await server.client.patch('/products/1', { features: [] })).status).toBe(200);
    expect((await server.client.delete('/taxonomies/family/features/12')).status).toBe(200);
    expect(await applied({ location_id: 12 })).toEqual(['Not outlets']);
  });
});
