/**
 * A retailer runs a campaign "in every store tagged outlet" (the cart field `location_feature`, docs/rules.md) while
 * tills send carts by location id or code and the back office tags and untags stores, or removes a tag
 * (docs/company-data.md, "Features named by campaigns"). Carts run on pool workers (WORKERS=1, and the writers).
 * Outside carts, the lists by location and voucher_out_location read the location's features too.
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

describe('campaigns by location feature outside carts: the lists by location and voucher_out_location', () => {
  let server: TestServer;
  const COAST = { taxonomy_slug: 'zone', id: 1 };
  const coastal = at('location_feature', 'in', ['zone:1']);
  const inland = at('location_feature', 'not_in', ['zone:1']);
  const ids: Record<string, number> = {};
  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  beforeAll(async () => {
    server = await startServer();
    await ok(server.client.post('/locations/taxonomies', { slug: 'zone', name: 'Zone' }));
    await ok(server.client.post('/locations/taxonomies/zone/features', { id: 1, name: 'Coast' }));
    await ok(server.client.post('/locations', { id: 20, code: 'COAST1', name: 'Beach store', country: 'ES', features: [COAST] }));
    await ok(server.client.post('/locations', { id: 21, code: 'INLAND1', name: 'Town store', country: 'ES' }));
    await ok(server.client.post('/customers', { id: 70, code: 'C70', name: 'Ana', registration_location_id: 20 }));
    const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];
    const prizePoints = (await ok(server.client.post('/points', { rule_params: { name: 'Prize points', rule_effects: effects } }))).id;
    const prize = { name: 'Mug', outcome: { promotion_type: 'points', promotion_id: prizePoints }, weight: 1, stock: -1 };
    for (const [name, rule_conditions] of [['coastal', coastal], ['inland', inland]] as const) {
      ids[`discount ${name}`] = (await ok(server.client.post('/discounts', { rule_params: { name, rule_conditions, rule_effects: effects } }))).id;
      ids[`points ${name}`] = (await ok(server.client.post('/points', { rule_params: { name, rule_conditions, rule_effects: effects } }))).id;
      const game = { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 }] };
      ids[`game ${name}`] = (await ok(server.client.post('/games', { rule_params: { name, select_customers: 'loyalty', rule_conditions }, game }))).id;
      ids[`instant win ${name}`] = (await ok(server.client.post('/instant_wins', { rule_params: { name, select_customers: 'loyalty', rule_conditions }, instant_win: { instant_win_prizes: [prize] } }))).id;
    }
    ids.targeted = (await ok(server.client.post('/discounts', {
      rule_params: { name: 'Coastal coupon', select_customers: 'targeted', rule_conditions: coastal, rule_effects: effects },
      coupon_params: { name: 'Coastal coupon', max_redemptions: 5 },
    }))).id;
    await ok(server.client.post('/discounts/trigger', { customer_id: 70, loyalty_rule_id: ids.targeted, external_voucher_code: 'SEA-1' }));
  });
  afterAll(() => server.dispose());

  it('lists a campaign, game and instant win by location feature at a tagged location, by id and by code, and its opposite at an untagged one', async () => {
    const listed = async (path: string, kind: string, query: Record<string, string>) => {
      const data = (await ok(server.client.get(path, { query: { per_page: '100', ...query } }))).data as { id: number }[];
      return ['coastal', 'inland'].filter((name) => data.some((c) => c.id === ids[`${kind} ${name}`]));
    };
    for (const [path, kind] of [['/discounts', 'discount'], ['/points', 'points'], ['/games', 'game'], ['/instant_wins', 'instant win']]) {
      for (const tagged of [{ location_id: '20' }, { location_code: 'COAST1' }] as Record<string, string>[]) expect(await listed(path, kind, tagged), `${path} ${JSON.stringify(tagged)}`).toEqual(['coastal']);
      for (const untagged of [{ location_id: '21' }, { location_code: 'INLAND1' }] as Record<string, string>[]) expect(await listed(path, kind, untagged), `${path} ${JSON.stringify(untagged)}`).toEqual(['inland']);
      // A location company data does not know has no features.
      expect(await listed(path, kind, { location_code: 'NOWHERE' })).toEqual(['inland']);
    }
  });

  it("refuses a voucher of a campaign by location feature at an untagged location (validate, redeem), and takes it at a tagged one", async () => {
    const validate = (query: Record<string, string>) => server.client.get('/vouchers/SEA-1', { query: { validate: 'true', ...query } });
    for (const untagged of [{ location_id: '21' }, { location_code: 'INLAND1' }, { location_code: 'NOWHERE' }] as Record<string, string>[]) {
      const refused = await validate(untagged);
      expect([refused.status, refused.body.code], JSON.stringify(untagged)).toEqual([402, 'voucher_out_location']);
    }
    for (const tagged of [{ location_id: '20' }, { location_code: 'COAST1' }] as Record<string, string>[]) await ok(validate(tagged));

    for (const untagged of [{ location_id: 21 }, { location_code: 'INLAND1' }]) {
      const refused = await server.client.post('/vouchers/redeem', { codes: ['SEA-1'], ...untagged });
      expect([refused.status, refused.body.code], JSON.stringify(untagged)).toEqual([402, 'voucher_out_location']);
    }
    expect((await ok(server.client.get('/vouchers/SEA-1'))).redemptions).toBe(0);
    await ok(server.client.post('/vouchers/redeem', { codes: ['SEA-1'], location_id: 20 }));
    await ok(server.client.post('/vouchers/redeem', { codes: ['SEA-1'], location_code: 'COAST1' }));
    expect((await ok(server.client.get('/vouchers/SEA-1'))).redemptions).toBe(2);

    // Tagging the town store lets the voucher be used there from the next request.
    await ok(server.client.patch('/locations/21', { features: [COAST] }));
    await ok(validate({ location_code: 'INLAND1' }));
  });

  it('follows an edited location rule from the next request: each version is tested by its own rule, never the one read before', async () => {
    const listedAt = async (path: string, id: number, location_code: string) =>
      ((await ok(server.client.get(path, { query: { per_page: '100', location_code } }))).data as { id: number }[]).some((c) => c.id === id);
    const validate = (location_code: string) => server.client.get('/vouchers/SEA-1', { query: { validate: 'true', location_code } });
    const edited = [['/discounts', ids['discount coastal']], ['/points', ids['points coastal']], ['/games', ids['game coastal']], ['/instant_wins', ids['instant win coastal']]] as const;
    for (const [path, id] of edited) expect([await listedAt(path, id, 'COAST1'), await listedAt(path, id, 'NOWHERE')], path).toEqual([true, false]);
    expect((await validate('NOWHERE')).body.code).toBe('voucher_out_location');

    for (const [path, id] of [...edited, ['/discounts', ids.targeted]] as const) await ok(server.client.patch(`${path}/${id}`, { rule_params: { rule_conditions: inland } }));
    for (const [path, id] of edited) expect([await listedAt(path, id, 'COAST1'), await listedAt(path, id, 'NOWHERE')], path).toEqual([false, true]);
    await ok(validate('NOWHERE'));
    expect((await validate('COAST1')).body.code).toBe('voucher_out_location');
  });
});
