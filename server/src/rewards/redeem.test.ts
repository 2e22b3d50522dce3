/**
 * POST /rewards/{id}/redeem and its rollback over HTTP: points debited through
 * the ledger and stock decremented together, every refusal writing nothing,
 * concurrent redemptions against a stock of 5, and a rollback restoring
 * points and stock exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, transactions } from '../points/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { createReward, customersWithPoints, LOCATION, redeem } from './testing.js';

describe('reward redemption', () => {
  let server: TestServer;
  const reward = async (id: number, query: Record<string, string> = {}) => (await server.client.get(`/rewards/${id}`, { query })).body;
  /** A targeted discount of 1 with a coupon named `coupon`: its campaign and coupon ids. */
  const couponCampaign = async (name: string, coupon: string) => {
    const campaign = await server.client.post('/discounts', {
      rule_params: { name, select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: coupon },
    });
    expect(campaign.status, campaign.text).toBe(200);
    return { campaignId: campaign.body.id as number, couponId: (await server.client.get(`/discounts/${campaign.body.id}`)).body.coupon_info.coupon_id as number };
  };

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await server.client.patch('/company', { customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } } });
  });
  afterAll(() => server.dispose());

  it('debits the points as a reward transaction and takes one unit of stock, answering the balance, redemption id and code', async () => {
    await customersWithPoints(server.client, [1], 500);
    const id = await createReward(server.client, { name: 'Mug', points: 120, total_stock: 10 });
    const res = await redeem(server.client, id, 1);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      customer: { id: 1, code: null, score: 380, score_available: 380 },
      score_used: 120, score: 380, score_available: 380,
      redemption_id: expect.any(Number), code: expect.stringMatching(/^[A-Z0-9]{12}$/),
    });
    expect(await balance(server.client, 1)).toMatchObject({ score: 380, score_available: 380 });
    const [last] = (await transactions(server.client, 1)).filter((t) => t.type === 'reward');
    expect(last).toMatchObject({ amount: -120, origin_info: { reward: { id, name: 'Mug', type: 'physical' } } });
    expect(await reward(id)).toMatchObject({ total_stock: 10, available_stock: 9, redemptions_quantity: 1 });
  });

  it('charges score_overwrite instead of the reward points', async () => {
    await customersWithPoints(server.client, [2], 500);
    const id = await createReward(server.client, { points: 300 });
    const res = await redeem(server.client, id, 2, { score_overwrite: 50, source: 'challenge' });
    expect(res.body.score_used).toBe(50);
    expect((await balance(server.client, 2)).score_available).toBe(450);
    const listed = await server.client.get('/rewards/transactions', { query: { customer_id: '2' } });
    expect(listed.body.data[0]).toMatchObject({ reward_id: id, score_expense: 50, source: 'challenge', status: 'available', location_id: LOCATION.id });
    // An int64 of the contract: a string of digits too, up to the largest points amount.
    const asText = await redeem(server.client, id, 2, { score_overwrite: '040' });
    expect(asText.body.score_used).toBe(40);
  });

  it('debits twice for two identical redemptions, and once for a replay with the same Idempotency-Key', async () => {
    await customersWithPoints(server.client, [40], 100);
    const id = await createReward(server.client, { points: 10 });
    expect((await redeem(server.client, id, 40)).status).toBe(200);
    expect((await redeem(server.client, id, 40)).status).toBe(200);
    const headers = { 'Idempotency-Key': 'redeem-40' };
    const first = await server.client.post(`/rewards/${id}/redeem`, { location_id: LOCATION.id, customer_id: 40 }, { headers });
    const replay = await server.client.post(`/rewards/${id}/redeem`, { location_id: LOCATION.id, customer_id: 40 }, { headers });
    expect(replay.body).toEqual(first.body);
    expect((await balance(server.client, 40)).score_available).toBe(70);
  });

  it('keeps int64 customer and location ids exact through redemption and listings', async () => {
    const max = 9223372036854775807n;
    const store = 9223372036854775806n;
    expect((await server.client.post('/locations', { id: store.toString(), code: 'BIG', name: 'Big', country: 'ES' })).status).toBe(200);
    const created = await server.client.post('/customers', { id: max.toString(), name: 'Max', registration_location_id: 1, country: 'ES' });
    expect(created.status, created.text).toBe(200);
    const id = await createReward(server.client, { points: 0, location_ids: [store.toString()] });
    const res = await server.client.post(`/rewards/${id}/redeem`, { location_id: store.toString(), customer_id: max.toString() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.customer.id).toBe(max);
    const listed = await server.client.get('/rewards/transactions', { query: { customer_id: max.toString() } });
    expect(listed.body.data[0]).toMatchObject({ customer_id: max, location_id: store });
    expect((await server.client.get('/rewards', { query: { location_id: store.toString(), per_page: '100' } })).body.data.find((r: { id: number }) => r.id === id).location_ids).toEqual([store]);
  });

  it('refuses without enough points (402 customer_not_enough_score), writing nothing', async () => {
    await customersWithPoints(server.client, [3], 99);
    const id = await createReward(server.client, { points: 100, total_stock: 3 });
    const res = await redeem(server.client, id, 3);
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('customer_not_enough_score');
    expect((await balance(server.client, 3)).score_available).toBe(99);
    expect(await reward(id)).toMatchObject({ available_stock: 3, redemptions_quantity: 0 });
  });

  it('in debt: asks for the whole shortfall, the debt counted, and still redeems a reward of 0 points', async () => {
    await customersWithPoints(server.client, [90], 5);
    // POST /points/redeem may leave the balance negative.
    expect((await server.client.post('/points/redeem', { customer_id: 90, amount: 15, comments: 'debt' })).body.score_available).toBe(-10);
    const five = await createReward(server.client, { points: 5 });
    const free = await createReward(server.client, { points: 0 });
    expect(await reward(five, { customer_id: '90' })).toMatchObject({ can_redeem: false, missing_redeem_conditions: [['points', '15 more points are needed']] });
    const refused = await redeem(server.client, five, 90);
    expect(refused.body).toEqual({ code: 'customer_not_enough_score', error: 'id: reward ' + five + ': 15 more points are needed' });
    expect(await reward(free, { customer_id: '90' })).toMatchObject({ can_redeem: true, missing_redeem_conditions: [] });
    const redeemed = await redeem(server.client, free, 90);
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(redeemed.body).toMatchObject({ score_used: 0, score: -10, score_available: -10 });
    expect((await balance(server.client, 90)).score_available).toBe(-10);
  });

  it('refuses beyond redeem_times per redeem_chances period and when out of stock (409 conflict)', async () => {
    await customersWithPoints(server.client, [4, 5], 1000);
    const limited = await createReward(server.client, { points: 10, redeem_times: 2, redeem_chances: 'num_month' });
    expect((await redeem(server.client, limited, 4)).status).toBe(200);
    expect((await redeem(server.client, limited, 4)).status).toBe(200);
    const third = await redeem(server.client, limited, 4);
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ code: 'conflict', error: expect.stringMatching(/^id: .*2 times per num_month/) });
    expect((await redeem(server.client, limited, 5)).status).toBe(200);
    const single = await createReward(server.client, { points: 10, total_stock: 1 });
    expect((await redeem(server.client, single, 4)).status).toBe(200);
    const out = await redeem(server.client, single, 5);
    expect(out.status).toBe(409);
    expect(out.body.error).toMatch(/out of stock/);
    expect((await balance(server.client, 5)).score_available).toBe(990);
  });

  it('refuses an inactive reward, one out of its dates, of another country, of a tier the customer does not hold or granted by loyalty rules only (403 forbidden_request)', async () => {
    await customersWithPoints(server.client, [6], 1000, { attributes: { spend: 50 } });
    const program = await server.client.post('/tier_programs', {
      name: 'Club', attribute: 'spend', structure: [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Gold', threshold: 100 }],
    });
    const cases = [
      { status: 'inactive' },
      { available_from: '2999-01-01' },
      { available_to: '2000-01-01' },
      { countries: ['PT'] },
      { tiers: [{ program_id: program.body.id, level: 2 }] },
      { redemption_type: 'loyalty_rule' },
    ];
    for (const body of cases) {
      const res = await redeem(server.client, await createReward(server.client, { points: 10, ...body }), 6);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.code).toBe('forbidden_request');
    }
    expect((await balance(server.client, 6)).score_available).toBe(1000);
    const gold = await createReward(server.client, { points: 10, tiers: [{ program_id: program.body.id, level: 2 }] });
    await server.client.patch('/customers/6', { attributes: { spend: 100 } });
    expect((await redeem(server.client, gold, 6)).status).toBe(200);
  });

  it('answers the errors of the request: unknown reward, customer or location, missing fields, inactive customer', async () => {
    await customersWithPoints(server.client, [7], 100);
    const id = await createReward(server.client, { points: 10 });
    const check = async (rewardId: number, body: Record<string, unknown>, status: number, code: string, field: string) => {
      const res = await server.client.post(`/rewards/${rewardId}/redeem`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true);
    };
    await check(999, { location_id: 10, customer_id: 7 }, 404, 'reward_not_found', 'id');
    await check(id, { location_id: 10, customer_id: 404 }, 404, 'customer_not_found', 'customer_id');
    await check(id, { location_id: 404, customer_id: 7 }, 404, 'location_not_found', 'location_id');
    await check(id, { customer_id: 7 }, 400, 'invalid_request', 'location_id');
    await check(id, { location_id: 10 }, 400, 'invalid_request', 'customer_id');
    await check(id, { location_id: 10, customer_id: 7, customer_code: 'X' }, 400, 'invalid_request', 'customer_code');
    await check(id, { location_id: 10, customer_id: 7, score_overwrite: 2147483648 }, 400, 'invalid_request', 'score_overwrite');
    await check(id, { location_id: 10, customer_id: 7, score_overwrite: 0 }, 400, 'invalid_request', 'score_overwrite');
    await check(id, { location_code: 'MAD-01', customer_id: 7, extra: 1 }, 400, 'invalid_request', 'extra');
    await server.client.patch('/customers/7', { status: 'inactive' });
    await check(id, { location_code: 'MAD-01', customer_id: 7 }, 402, 'customer_inactive', 'customer_id');
    expect((await balance(server.client, 7)).score_available).toBe(100);
  });

  it('with process_actions issues a voucher of the reward coupon, which carts can use', async () => {
    await customersWithPoints(server.client, [8], 100);
    const { campaignId, couponId } = await couponCampaign('Reward coupon', 'One euro off');
    const id = await createReward(server.client, { points: 10, type: 'coupon', coupon_id: couponId });
    // coupon_id reads back as written (a back office sends it back unchanged).
    expect(await reward(id)).toMatchObject({ is_coupon: true, coupon_id: couponId, coupon: { id: couponId, name: 'One euro off' } });
    const cart = cartBody(5, { customer_id: 8, coupons_desired: 'all' });
    const applies = async () => (await server.client.post('/carts/simulate', cart)).body.effects.some((e: { rule_id: number }) => e.rule_id === campaignId);
    expect((await redeem(server.client, id, 8)).status).toBe(200);
    expect(await applies()).toBe(false);
    expect((await redeem(server.client, id, 8, { process_actions: true })).status).toBe(200);
    expect(await applies()).toBe(true);
  });

  it('after DELETE /coupons of its coupon: reads is_coupon false, refuses process_actions (403 forbidden_request) writing nothing, redeems without it', async () => {
    await customersWithPoints(server.client, [13], 100);
    const { couponId } = await couponCampaign('Gone coupon', 'Soon deleted');
    const id = await createReward(server.client, { points: 10, type: 'coupon', coupon_id: couponId, total_stock: 5 });
    expect((await server.client.delete(`/coupons/${couponId}`)).status).toBe(200);
    expect(await reward(id, { customer_id: '13' })).toMatchObject({ is_coupon: false, coupon_id: null, coupon: null, can_redeem: true });
    const refused = await redeem(server.client, id, 13, { process_actions: true });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden_request', error: expect.stringMatching(/^process_actions: .*coupon was deleted/) });
    expect((await balance(server.client, 13)).score_available).toBe(100);
    expect(await reward(id)).toMatchObject({ available_stock: 5, redemptions_quantity: 0 });
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '13' } })).body.data).toEqual([]);
    expect((await redeem(server.client, id, 13)).status).toBe(200);
    expect((await server.client.get('/vouchers', { query: { customer_id: '13' } })).body.data).toEqual([]);
  });

  it('ends a voucher validity reaching past 9999 (36500 years) at 9999-12-31T23:59:59Z', async () => {
    await customersWithPoints(server.client, [12], 100);
    const { couponId } = await couponCampaign('Long coupon', 'Forever');
    const id = await createReward(server.client, {
      points: 10, type: 'coupon', coupon_id: couponId,
      validity_duration_type: 'relative', validity_duration_number: 36500, validity_duration_unit_option: 'years',
    });
    expect((await redeem(server.client, id, 12, { process_actions: true })).status).toBe(200);
    const vouchers = await server.client.get('/vouchers', { query: { customer_id: '12' } });
    expect(vouchers.body.data).toEqual([expect.objectContaining({ available_to: '9999-12-31T23:59:59Z' })]);
  });

  it('is not redeemable once the fixed date its vouchers are valid until has passed: it would sell a voucher born expired', async () => {
    await customersWithPoints(server.client, [14], 100);
    const { couponId } = await couponCampaign('Past coupon', 'Too late');
    const id = await createReward(server.client, { points: 5, type: 'coupon', coupon_id: couponId, validity_duration_type: 'fixed', validity_duration_date: '2026-01-01' });
    expect(await reward(id, { customer_id: '14' })).toMatchObject({ can_redeem: false, missing_redeem_conditions: [['dates', "the reward's vouchers were valid until 2026-01-01T23:59:59Z"]] });
    const refused = await redeem(server.client, id, 14, { process_actions: true });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden_request');
    expect((await balance(server.client, 14)).score_available).toBe(100);
    expect((await server.client.get('/vouchers', { query: { customer_id: '14' } })).body.data).toEqual([]);
  });

  it('grants exactly 5 of 12 concurrent redemptions against a stock of 5; the others are refused and keep their points', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
    await customersWithPoints(server.client, ids, 50);
    const id = await createReward(server.client, { points: 50, total_stock: 5 });
    const results = await Promise.all(ids.map((customer) => redeem(server.client, id, customer)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'conflict')).toHaveLength(7);
    expect(await reward(id)).toMatchObject({ available_stock: 0, redemptions_quantity: 5 });
    const balances = await Promise.all(ids.map((customer) => balance(server.client, customer)));
    expect(balances.filter((b) => b.score_available === 0)).toHaveLength(5);
    expect(balances.filter((b) => b.score_available === 50)).toHaveLength(7);
  });

  it('rolls a redemption back: status reverted, points and stock exactly restored; an identical retry answers as the first; another rollback is refused', async () => {
    await customersWithPoints(server.client, [9], 333);
    const id = await createReward(server.client, { points: 111, total_stock: 2 });
    const before = await balance(server.client, 9);
    const redeemed = await redeem(server.client, id, 9);
    expect(await reward(id)).toMatchObject({ available_stock: 1 });
    const res = await server.client.post(`/rewards/transactions/${redeemed.body.redemption_id}/rollback`, { status_detail: 'till error' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ redemption_id: redeemed.body.redemption_id, status: 'reverted', status_detail: 'till error' });
    expect(await balance(server.client, 9)).toEqual(before);
    expect(await reward(id)).toMatchObject({ available_stock: 2, redemptions_quantity: 0 });
    // The rollback's points transaction names the reward as the redemption's did: reward {id, name, type}.
    const [returned] = (await transactions(server.client, 9)).filter((t) => t.type === 'reward' && t.amount > 0);
    expect(returned.origin_info).toEqual({ reward: { id, name: 'Mug', type: 'physical' }, redemption_id: redeemed.body.redemption_id, status_detail: 'till error' });
    // Common rule 8: the same rollback again within 5 minutes (here by the legacy path) is answered as the first, not run.
    const retried = await server.client.post(`/redemptions/${redeemed.body.redemption_id}/rollback`, { status_detail: 'till error' });
    expect(retried.status).toBe(200);
    expect(retried.text).toBe(res.text);
    expect(await balance(server.client, 9)).toEqual(before);
    const again = await server.client.post(`/redemptions/${redeemed.body.redemption_id}/rollback`, { status_detail: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const listed = await server.client.get('/redemptions', { query: { customer_id: '9' } });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: redeemed.body.redemption_id, status: 'reverted', status_detail: 'till error' })]);
    expect((await server.client.post('/rewards/transactions/999/rollback', { status_detail: 'x' })).body.code).toBe('redemption_not_found');
    expect((await server.client.post(`/rewards/transactions/${redeemed.body.redemption_id}/rollback`, {})).status).toBe(400);
  });

  it('moves redemptions (and their redeem_times uses) with a merge; an associate redeems with the points of the customer it was merged into; redemptions keep a customer from a hard delete', async () => {
    await customersWithPoints(server.client, [30, 31], 100);
    await server.client.patch('/customers/31', { code: 'NEW31' });
    const id = await createReward(server.client, { points: 10, redeem_times: 1 });
    const redeemed = (await redeem(server.client, id, 30)).body.redemption_id;
    expect((await server.client.post('/customers/transfer', { old_customer_id: 30, new_customer_id: 31 })).status).toBe(200);
    const moved = await server.client.get('/rewards/transactions', { query: { customer_id: '31' } });
    expect(moved.body.data).toEqual([expect.objectContaining({ id: redeemed, customer_id: 31, customer_code: 'NEW31' })]);
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '30' } })).body.data).toEqual([]);
    expect((await redeem(server.client, id, 31)).status).toBe(409);
    const other = await createReward(server.client, { points: 10 });
    const viaAssociate = await server.client.post(`/rewards/${other}/redeem`, { location_id: LOCATION.id, associate_id: 30 });
    expect(viaAssociate.status, viaAssociate.text).toBe(200);
    expect(viaAssociate.body.customer.id).toBe(31);
    await server.client.delete('/customers/31', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } });
    const all = await server.client.get('/rewards/transactions', { query: { per_page: '100' } });
    expect(all.body.data.map((r: { id: number }) => r.id)).toContain(redeemed);
  });

  it('an associate of a chain of merges (60 into 61, then 61 into 62) redeems with the points of its end', async () => {
    await customersWithPoints(server.client, [60, 61, 62], 100);
    for (const [from, to] of [[60, 61], [61, 62]]) expect((await server.client.post('/customers/transfer', { old_customer_id: from, new_customer_id: to })).status).toBe(200);
    const id = await createReward(server.client, { points: 10 });
    const res = await server.client.post(`/rewards/${id}/redeem`, { location_id: LOCATION.id, associate_id: 60 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.customer).toMatchObject({ id: 62, score_available: 290 });
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '62' } })).body.data).toEqual([expect.objectContaining({ reward_id: id })]);
  });

  it('names associate_id, the field the request used, when the customer an associate was merged into is inactive', async () => {
    await customersWithPoints(server.client, [70, 71], 100);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 70, new_customer_id: 71 })).status).toBe(200);
    expect((await server.client.patch('/customers/71', { status: 'inactive' })).status).toBe(200);
    const id = await createReward(server.client, { points: 10 });
    const res = await server.client.post(`/rewards/${id}/redeem`, { location_id: LOCATION.id, associate_id: 70 });
    expect([res.status, res.body]).toEqual([402, { code: 'customer_inactive', error: 'associate_id: customer 71 is inactive' }]);
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '71' } })).body.data).toEqual([]);
  });

  it('refuses a customer merged while the redemption waited for its transaction, and writes nothing for it', async () => {
    await customersWithPoints(server.client, [50, 51], 100);
    // A free reward would be redeemed by the merged customer without the check; a paid one refused for its points.
    const rewards = [await createReward(server.client, { points: 0 }), await createReward(server.client, { points: 1 })];
    const redeeming = () => Array.from({ length: 8 }, () => rewards.map((id) => redeem(server.client, id, 50))).flat();
    const before = redeeming();
    const merge = server.client.post('/customers/transfer', { old_customer_id: 50, new_customer_id: 51 });
    const sent = [...before, ...redeeming()];
    expect((await merge).status).toBe(200);
    for (const res of await Promise.all(sent)) expect(res.status === 200 ? 'redeemed' : res.body.code, res.text).toMatch(/^(redeemed|customer_inactive)$/);
    expect((await server.client.get('/rewards/transactions', { query: { customer_id: '50' } })).body.data).toEqual([]);
    expect(await transactions(server.client, 50)).toEqual([]);
  });

  it('lists reward transactions newest first, by customer (id wins over code), location and status, paginated', async () => {
    await customersWithPoints(server.client, [20], 100, { code: 'C20' });
    const id = await createReward(server.client, { points: 10 });
    const first = (await redeem(server.client, id, 20)).body.redemption_id;
    const second = (await redeem(server.client, id, 20)).body.redemption_id;
    await server.client.post(`/rewards/transactions/${first}/rollback`, { status_detail: 'x' });
    const list = async (query: Record<string, string>) => (await server.client.get('/rewards/transactions', { query })).body;
    expect((await list({ customer_code: 'C20' })).data.map((r: { id: number }) => r.id)).toEqual([second, first]);
    expect((await list({ customer_id: '20', customer_code: 'nobody' })).data).toHaveLength(2);
    // "id wins when both are given", for the location pair too: location 10 is MAD-01.
    expect((await list({ location_id: '10', location_code: 'nowhere', per_page: '100' })).data.length).toBe((await list({ location_id: '10', per_page: '100' })).data.length);
    expect((await list({ customer_id: '20', status: 'available' })).data.map((r: { id: number }) => r.id)).toEqual([second]);
    expect((await list({ customer_id: '20', status: 'reverted' })).data.map((r: { id: number }) => r.id)).toEqual([first]);
    // A status no redemption can have is a mistyped filter, not an empty list.
    const unknown = await server.client.get('/rewards/transactions', { query: { customer_id: '20', status: 'Available' } });
    expect([unknown.status, unknown.body.code, unknown.body.error]).toEqual([400, 'invalid_request', 'status: must be one of available, reverted']);
    const page = await list({ location_code: 'MAD-01', per_page: '1' });
    expect(page.data[0].id).toBeGreaterThanOrEqual(second);
    expect(page.next_token_starts_after).toEqual(expect.any(String));
    const next = await list({ location_code: 'MAD-01', per_page: '1', starting_after: page.next_token_starts_after });
    expect(next.data[0].id).toBeLessThan(page.data[0].id);
    expect(page.data[0]).toEqual({
      id: expect.any(Number), created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), customer_id: expect.any(Number),
      customer_code: expect.toBeOneOf([null, expect.any(String)]), location_id: 10, reward_id: expect.any(Number), score_expense: expect.any(Number),
      code: expect.any(String), status: expect.any(String), status_detail: expect.toBeOneOf([null, expect.any(String)]), source: 'api',
      origin_type: null, origin_id: null, loyalty_rule_id: null,
    });
  });
});
