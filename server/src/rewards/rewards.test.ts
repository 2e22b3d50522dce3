/**
 * The reward catalogue over HTTP: the back office (POST, PATCH/PUT /rewards),
 * GET /rewards/{id} and every filter of GET /rewards, with can_redeem and
 * missing_redeem_conditions for a customer and texts by Accept-Language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { createReward, customersWithPoints, LOCATION } from './testing.js';

describe('reward catalogue', () => {
  let server: TestServer;
  const list = async (query: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const res = await server.client.get('/rewards', { query: { per_page: '100', ...query }, headers });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startServer();
    await server.client.patch('/company', { languages: ['es', 'en'], default_language: 'es', customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } } });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    expect((await server.client.post('/locations', { id: 11, code: 'LIS-01', name: 'Lisboa', country: 'PT' })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('creates a reward answered {status, id} and reads it in the contract shape; PATCH and PUT replace the fields sent', async () => {
    const res = await server.client.post('/rewards', {
      name: { es: 'Taza', en: 'Mug' }, description: 'Cerámica', points: 100, type: 'physical', total_stock: 4, extra_money: 1.5, currency: 'EUR',
      countries: ['ES'], categories: [{ id: 3, name: 'Home' }], redeem_chances: 'num_month', redeem_times: 2,
      validity_duration_type: 'relative', validity_duration_number: 30, validity_duration_unit_option: 'days',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'success', id: expect.any(Number) });
    const read = await server.client.get(`/rewards/${res.body.id}`);
    expect(read.body).toEqual({
      id: res.body.id, name: 'Taza', description: 'Cerámica', points: 100, flexible_score_allowed: false, is_coupon: false, status: 'active',
      available_from: null, available_to: null, type: 'physical', image_file_name: null, image_url: null, extra_money: 1.5, currency: 'EUR',
      countries: ['ES'], categories: [{ id: 3, name: 'Home', taxonomy_slug: null, image_url: null }], partner: null, coupon_id: null, coupon: null,
      total_stock: 4, available_stock: 4, redemptions_quantity: 0, redeem_chances: 'num_month', redeem_times: 2,
      validity_duration_number: 30, validity_duration_unit_option: 'days', validity_duration_date: null, validity_duration_type: 'relative',
      redemption_type: 'manual', tiers: [], location_ids: [], created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect((await server.client.get(`/rewards/${res.body.id}`, { headers: { 'Accept-Language': 'en' } })).body.name).toBe('Mug');
    expect((await server.client.patch(`/rewards/${res.body.id}`, { points: 80, status: 'inactive' })).body).toEqual({ status: 'success', id: res.body.id });
    await server.client.put(`/rewards/${res.body.id}`, { total_stock: null });
    expect((await server.client.get(`/rewards/${res.body.id}`)).body).toMatchObject({ points: 80, status: 'inactive', total_stock: null, available_stock: null, name: 'Taza' });
  });

  it('suppresses a repeated PATCH by the reward, not the path text: 007, 7, 007 runs all three', async () => {
    const id = await createReward(server.client, {});
    const padded = `00${id}`;
    expect((await server.client.patch(`/rewards/${padded}`, { points: 11 })).status).toBe(200);
    expect((await server.client.patch(`/rewards/${id}`, { points: 22 })).status).toBe(200);
    expect((await server.client.patch(`/rewards/${padded}`, { points: 11 })).status).toBe(200);
    expect((await server.client.get(`/rewards/${id}`)).body.points).toBe(11);
  });

  it('writes nothing for an update of the values held: updated_at stays, no audit entry', async () => {
    const id = await createReward(server.client, { points: 12 });
    const read = async () => (await server.client.get(`/rewards/${id}`)).body;
    const audited = async () => (await server.client.get('/audit_log', { query: { target: `reward:${id}` } })).body.data.length;
    const [before, entries] = [await read(), await audited()];
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a write would move updated_at by a second
    expect((await server.client.patch(`/rewards/${id}`, { points: 12 })).status).toBe(200);
    expect(await read()).toEqual(before);
    expect(await audited()).toBe(entries);
  });

  it('refuses invalid rewards naming the field, and answers 404 reward_not_found', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', type: 'physical' }, 'points'],
      [{ name: 'X', points: 1, type: 'car' }, 'type'],
      [{ name: 'X', points: -1, type: 'physical' }, 'points'],
      [{ name: 'X', points: 1, type: 'physical', coupon_id: 999 }, 'coupon_id'],
      [{ name: 'X', points: 1, type: 'physical', tiers: [{ program_id: 999, level: 1 }] }, 'tiers[0].program_id'],
      [{ name: 'X', points: 1, type: 'physical', available_from: '2030-01-02', available_to: '2030-01-01' }, 'available_to'],
      [{ name: 'X', points: 1, type: 'physical', available_from: '2030-02-30' }, 'available_from'],
    ];
    for (const [body, field] of cases) {
      const res = await server.client.post('/rewards', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true);
    }
    expect((await server.client.get('/rewards/999')).body.code).toBe('reward_not_found');
    expect((await server.client.patch('/rewards/999', { points: 1 })).status).toBe(404);
  });

  it('filters by status, type, redemption_type (manual by default) and countries; paginates', async () => {
    const tag = { image_file_name: 'filters' };
    const es = await createReward(server.client, { ...tag, countries: ['ES'], type: 'digital' });
    const pt = await createReward(server.client, { ...tag, countries: ['PT'] });
    const anywhere = await createReward(server.client, { ...tag });
    const off = await createReward(server.client, { ...tag, status: 'inactive' });
    const rule = await createReward(server.client, { ...tag, redemption_type: 'loyalty_rule' });
    const mine = (body: { data: Array<{ id: number; image_file_name: string }> }) => body.data.filter((r) => r.image_file_name === 'filters').map((r) => r.id);
    expect(mine(await list())).toEqual([es, pt, anywhere, off]);
    expect(mine(await list({ redemption_type: 'loyalty_rule' }))).toEqual([rule]);
    expect(mine(await list({ status: 'all' }))).toEqual([es, pt, anywhere, off]);
    expect(mine(await list({ status: 'active' }))).toEqual([es, pt, anywhere]);
    expect(mine(await list({ status: 'inactive' }))).toEqual([off]);
    expect(mine(await list({ type: 'digital' }))).toEqual([es]);
    expect(mine(await list({ countries: 'PT' }))).toEqual([pt, anywhere, off]);
    const page = await list({ per_page: '1' });
    expect(page.data).toHaveLength(1);
    const next = await list({ per_page: '1', starting_after: page.next_token_starts_after });
    expect(next.data[0].id).toBeGreaterThan(page.data[0].id);
    for (const [query, field] of [[{ status: 'gone' }, 'status'], [{ type: 'car' }, 'type'], [{ countries: 'es' }, 'countries'], [{ restricted_by: 'points' }, 'customer_id'], [{ customer_id: '1', location_id: '10' }, 'location_id'], [{ location_id: '10', countries: 'ES' }, 'countries']] as const) {
      const res = await server.client.get('/rewards', { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true);
    }
  });

  it('with a location: the rewards of its country and those offered at it', async () => {
    const tag = { image_file_name: 'location' };
    const madrid = await createReward(server.client, { ...tag, location_ids: [10] });
    const lisbon = await createReward(server.client, { ...tag, location_ids: [11] });
    const spain = await createReward(server.client, { ...tag, countries: ['ES'] });
    const mine = (body: { data: Array<{ id: number; image_file_name: string }> }) => body.data.filter((r) => r.image_file_name === 'location').map((r) => r.id);
    expect(mine(await list({ location_id: '10' }))).toEqual([madrid, spain]);
    expect(mine(await list({ location_code: 'LIS-01' }))).toEqual([lisbon]);
    expect((await server.client.get('/rewards', { query: { location_id: '404' } })).body.code).toBe('location_not_found');
  });

  it('is redeemed only at a store of its countries when it names no store, as the store\'s catalogue lists it', async () => {
    await customersWithPoints(server.client, [7], 10, { country: 'ES' });
    const spain = await createReward(server.client, { points: 1, countries: ['ES'] });
    const inLisbon = await server.client.post(`/rewards/${spain}/redeem`, { location_id: 11, customer_id: 7 });
    expect(inLisbon.status).toBe(403);
    expect(inLisbon.body).toEqual({ code: 'forbidden_request', error: `location_id: reward ${spain} is not offered at this location` });
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '7' } })).body.data).toEqual([]);
    expect((await server.client.post(`/rewards/${spain}/redeem`, { location_id: 10, customer_id: 7 })).status).toBe(200);
  });

  it('with a customer: its country, can_redeem and missing_redeem_conditions, restricted_by and store', async () => {
    await customersWithPoints(server.client, [1], 100, { code: 'C1', registration_location_id: 10, attributes: { spend: 10 } });
    const program = await server.client.post('/tier_programs', { name: 'Club', attribute: 'spend', structure: [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Gold', threshold: 100 }] });
    const tag = { image_file_name: 'customer' };
    const cheap = await createReward(server.client, { ...tag, points: 100 });
    const dear = await createReward(server.client, { ...tag, points: 150 });
    const none = await createReward(server.client, { ...tag, points: 1, total_stock: 0 });
    const gold = await createReward(server.client, { ...tag, points: 1, tiers: [{ program_id: program.body.id, level: 2 }] });
    const portugal = await createReward(server.client, { ...tag, points: 1, countries: ['PT'] });
    const otherStore = await createReward(server.client, { ...tag, points: 1, location_ids: [11] });
    type Listed = { id: number; image_file_name: string; can_redeem: boolean; missing_redeem_conditions: string[][] };
    const mine = (body: { data: Listed[] }) => body.data.filter((r) => r.image_file_name === 'customer');
    const all = mine(await list({ customer_id: '1' }));
    expect(all.map((r) => r.id)).toEqual([cheap, dear, none, gold, otherStore]);
    const byId: Record<number, Listed> = Object.fromEntries(all.map((r) => [r.id, r]));
    expect(byId[cheap]).toMatchObject({ can_redeem: true, missing_redeem_conditions: [] });
    expect(byId[dear]).toMatchObject({ can_redeem: false, missing_redeem_conditions: [['points', '50 more points are needed']] });
    expect(byId[none].missing_redeem_conditions).toEqual([['stock', 'the reward is out of stock']]);
    expect(byId[gold].missing_redeem_conditions).toEqual([['tiers', 'the reward needs the tier level Gold (Club)']]);
    expect(mine(await list({ customer_code: 'C1', restricted_by: 'points,stock' })).map((r) => r.id)).toEqual([cheap, gold, otherStore]);
    expect(mine(await list({ customer_id: '1', 'restricted_by[]': 'tiers' })).map((r) => r.id)).toEqual([cheap, dear, none, otherStore]);
    expect(mine(await list({ customer_id: '1', store: 'registration' })).map((r) => r.id)).toEqual([cheap, dear, none, gold]);
    expect(mine(await list({ countries: 'PT' })).map((r) => r.id)).toContain(portugal);
    const single = await server.client.get(`/rewards/${dear}`, { query: { customer_code: 'C1' } });
    expect(single.body).toMatchObject({ can_redeem: false, missing_redeem_conditions: [['points', '50 more points are needed']] });
    expect((await server.client.get(`/rewards/${dear}`)).body).not.toHaveProperty('can_redeem');
  });

  it('for an inactive customer: can_redeem false for the customer_status reason (restricted_by takes it), as the redemption refuses it', async () => {
    await customersWithPoints(server.client, [2], 100);
    const id = await createReward(server.client, { image_file_name: 'inactive', points: 10 });
    expect((await server.client.get(`/rewards/${id}`, { query: { customer_id: '2' } })).body).toMatchObject({ can_redeem: true, missing_redeem_conditions: [] });
    expect((await server.client.patch('/customers/2', { status: 'inactive' })).status).toBe(200);
    const read = await server.client.get(`/rewards/${id}`, { query: { customer_id: '2' } });
    expect(read.body).toMatchObject({ can_redeem: false, missing_redeem_conditions: [['customer_status', 'the customer is inactive']] });
    const restricted = await list({ customer_id: '2', restricted_by: 'customer_status' });
    expect(restricted.data.map((r: { id: number }) => r.id)).not.toContain(id);
    const redeemed = await server.client.post(`/rewards/${id}/redeem`, { location_id: LOCATION.id, customer_id: 2 });
    expect(redeemed.status).toBe(402);
    expect(redeemed.body).toMatchObject({ code: 'customer_inactive', error: expect.stringMatching(/^customer_id: /) });
  });

  it('answers names and descriptions in the Accept-Language language, else the default', async () => {
    const id = await createReward(server.client, { name: { es: 'Camiseta', en: 'T-shirt' }, description: { es: 'Algodón', en: 'Cotton' } });
    const find = (body: { data: Array<{ id: number }> }) => body.data.find((r) => r.id === id);
    expect(find(await list({}, { 'Accept-Language': 'en-GB,en;q=0.8' }))).toMatchObject({ name: 'T-shirt', description: 'Cotton' });
    expect(find(await list({}, { 'Accept-Language': 'fr' }))).toMatchObject({ name: 'Camiseta', description: 'Algodón' });
    expect(find(await list())).toMatchObject({ name: 'Camiseta' });
  });

  it('reads a coupon reward with its coupon as carts show it: the fields of the contract and the discount of the campaign', async () => {
    const campaign = await server.client.post('/discounts', {
      rule_params: { name: 'Five euros', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: { es: 'Cinco euros', en: 'Five euros' }, key: 'FIVE', max_redemptions: 2 },
    });
    expect(campaign.status, campaign.text).toBe(200);
    const couponId = (await server.client.get(`/discounts/${campaign.body.id}`)).body.coupon_info.coupon_id;
    const id = await createReward(server.client, { name: 'Vale', type: 'coupon', coupon_id: couponId });
    const read = await server.client.get(`/rewards/${id}`, { headers: { 'Accept-Language': 'en' } });
    expect(read.body).toMatchObject({ is_coupon: true, coupon: {
      id: couponId, key: 'FIVE', name: 'Five euros', description: null, static_code: null, max_redemptions: 2,
      min_money: null, max_money: null, min_units: null, max_units: null, discount: 5, discount_type: 'direct_value', affectation: 'total',
      features: [], product_ids: [],
    } });
  });
});
