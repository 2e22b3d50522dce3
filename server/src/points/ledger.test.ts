import { MAX_POINTS } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { openStore } from '../store/env.js';
import { customerEntries, customersWithEntries } from '../store/customer-entries.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, expectLedgerAddsUp, grant, transactions, triggerCampaign, utcDate } from './testing.js';

const TENANT = tenantPrefix({ companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' });

describe('points ledger over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2, 3, 4, 5, 6, 7]) await createCustomer(server.client, id, id === 7 ? { code: 'SEVEN' } : {});
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('records a trigger grant: balance, money value and the transaction with its origin', async () => {
    const campaign = await triggerCampaign(server.client, 'welcome', 150);
    await grant(server.client, 'welcome', 1, campaign, { comments: 'hello' });
    const res = await server.client.get('/customers/1/points');
    expect(res.body).toEqual({
      score: 150, score_as_money: 1.5, score_available: 150, score_available_as_money: 1.5,
      score_to_reach_cashback: 0, money_to_spend_to_reach_cashback: 0, score_threshold_cashback: 0,
      money_threshold_cashback: 0, score_threshold_cashback_as_money: 0, currency: 'EUR', fraudulent: false,
    });
    const [tx] = await transactions(server.client, 1);
    expect(tx).toMatchObject({
      type: 'trigger', amount: 150, pending_amount: 0, customer_id: 1, location_id: null,
      origin_info: { comments: 'hello', slug: 'welcome' },
      scores: [{ loyalty_score_id: campaign, loyalty_score_name: 'welcome 150', score: 150, available_from: utcDate(0), available_to: null }],
    });
    expect((await server.client.get('/customers/1/scores')).body.score).toBe(150);
    expect((await server.client.get('/scores/transactions', { query: { customer_id: '1' } })).body.data).toHaveLength(1);
  });

  it('reads a customer by code with search_param and answers 404 for an unknown customer', async () => {
    const campaign = await triggerCampaign(server.client, 'by-code', 5);
    await grant(server.client, 'by-code', 7, campaign);
    expect((await server.client.get('/customers/SEVEN/points', { query: { search_param: 'code' } })).body.score).toBe(5);
    const missing = await server.client.get('/customers/999/points');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer_not_found');
    const bad = await server.client.get('/customers/1/points', { query: { search_param: 'dni' } });
    expect(bad.status).toBe(400);
  });

  it('POST /points/redeem subtracts, may leave a negative balance, and checks its fields', async () => {
    const campaign = await triggerCampaign(server.client, 'redeem-base', 100);
    await grant(server.client, 'redeem-base', 2, campaign);
    const res = await server.client.post('/points/redeem', { customer_id: 2, amount: 130, comments: 'gift' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ customer: { id: 2, code: null, score: -30, score_available: -30 }, score_used: 130, score: -30, score_available: -30 });
    const txs = await transactions(server.client, 2, { origin_type: 'subtract' });
    expect(txs).toHaveLength(1);
    expect(txs[0]).toMatchObject({ type: 'subtract', amount: -130, origin_info: { comments: 'gift' } });
    const alias = await server.client.post('/scores/subtract', { customer_id: 2, amount: 1, comments: 'alias' });
    expect(alias.body.score).toBe(-31);
    for (const [body, field] of [
      [{ customer_id: 2, amount: 0, comments: 'x' }, 'amount'],
      [{ customer_id: 2, amount: 2147483648, comments: 'x' }, 'amount'],
      [{ customer_id: 2, amount: 1.5, comments: 'x' }, 'amount'],
      [{ customer_id: 2, amount: '2147483648', comments: 'x' }, 'amount'],
      [{ customer_id: 2, amount: '1.5', comments: 'x' }, 'amount'],
      [{ customer_id: 2, amount: 1 }, 'comments'],
      [{ amount: 1, comments: 'x' }, 'customer_id'],
      [{ customer_id: 2, customer_code: 'SEVEN', amount: 1, comments: 'x' }, 'customer_id'],
    ] as const) {
      const bad = await server.client.post('/points/redeem', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toEqual({ code: 'invalid_request', error: expect.stringContaining(field) });
    }
    expect((await server.client.post('/points/redeem', { customer_id: 2, amount: 2147483647, comments: 'max' })).status).toBe(200);
    // An int64 of the contract: a string of digits too, as every int64 of a body (docs/http.md).
    const digits = await server.client.post('/points/redeem', { customer_id: 2, amount: '007', comments: 'digits' });
    expect(digits.body).toMatchObject({ score_used: 7, score: -31 - 2147483647 - 7 });
    const unknown = await server.client.post('/points/redeem', { customer_code: 'NOPE', amount: 1, comments: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer_not_found');
    await expectLedgerAddsUp(server.client, 2);
  });

  it('spends the points that expire first', async () => {
    const never = await triggerCampaign(server.client, 'never-expires', 100);
    const soon = await triggerCampaign(server.client, 'expires-soon', 40, { expiration_period_type: 'fixed', expiration_date: utcDate(10) });
    const later = await triggerCampaign(server.client, 'expires-later', 40, { expiration_period_type: 'fixed', expiration_date: utcDate(20) });
    await grant(server.client, 'never-expires', 3, never);
    await grant(server.client, 'expires-later', 3, later);
    await grant(server.client, 'expires-soon', 3, soon);
    await server.client.post('/points/redeem', { customer_id: 3, amount: 50, comments: 'spend' });
    const [spend] = await transactions(server.client, 3, { origin_type: 'subtract' });
    expect(spend.scores.map((s) => [s.loyalty_score_id, s.score])).toEqual([[soon, -40], [later, -10]]);
    const expiring = await server.client.get('/customers/3/points_expiring');
    expect(expiring.body.data).toEqual([
      { score_available: 30, score_available_as_money: 0.3, currency: 'EUR', expiration_date: `${utcDate(20)}T23:59:59Z` },
    ]);
    await expectLedgerAddsUp(server.client, 3);
  });

  it('expires points after their available_to, as an expiration transaction', async () => {
    const past = await triggerCampaign(server.client, 'already-over', 70, { expiration_period_type: 'fixed', expiration_date: utcDate(-1) });
    const keep = await triggerCampaign(server.client, 'kept', 20);
    await grant(server.client, 'kept', 4, keep);
    await grant(server.client, 'already-over', 4, past);
    expect(await balance(server.client, 4)).toMatchObject({ score: 20, score_available: 20 });
    const txs = await transactions(server.client, 4);
    expect(txs.map((t) => [t.type, t.amount])).toEqual([['trigger', 20], ['trigger', 70], ['expiration', -70]]);
    expect(txs[2].scores).toEqual([expect.objectContaining({ loyalty_score_id: past, score: -70 })]);
    // Reading again records nothing more.
    expect(await transactions(server.client, 4)).toHaveLength(3);
    await expectLedgerAddsUp(server.client, 4);
  });

  it('keeps points pending until available_from, and activation repays a negative balance first', async () => {
    // The Company's day starts in UTC-12: the points of a 1-day activation delay become available on its "tomorrow".
    await server.client.patch('/company', { timezone: 'Etc/GMT+12' });
    const delayed = await triggerCampaign(server.client, 'delayed', 60, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' });
    await grant(server.client, 'delayed', 5, delayed);
    expect(await balance(server.client, 5)).toMatchObject({ score: 60, score_available: 0 });
    const [pending] = await transactions(server.client, 5);
    expect(pending).toMatchObject({ type: 'trigger', amount: 0, pending_amount: 60 });
    await server.client.post('/points/redeem', { customer_id: 5, amount: 25, comments: 'early' });
    expect(await balance(server.client, 5)).toMatchObject({ score: 35, score_available: -25 });
    // UTC+14 is 26 hours ahead: the Company's date moves past available_from.
    await server.client.patch('/company', { timezone: 'Etc/GMT-14' });
    expect(await balance(server.client, 5)).toMatchObject({ score: 35, score_available: 35 });
    const txs = await transactions(server.client, 5);
    expect(txs.map((t) => [t.type, t.amount, t.pending_amount])).toEqual([['trigger', 0, 60], ['subtract', -25, 0], ['activation', 60, -60]]);
    await expectLedgerAddsUp(server.client, 5);
    await server.client.patch('/company', { timezone: 'UTC' });
  });

  it('limits points_expiring to 60 days, and to an earlier date when given', async () => {
    const in30 = await triggerCampaign(server.client, 'in-30', 10, { expiration_period_type: 'fixed', expiration_date: utcDate(30) });
    const in50 = await triggerCampaign(server.client, 'in-50', 11, { expiration_period_type: 'fixed', expiration_date: utcDate(50) });
    const in90 = await triggerCampaign(server.client, 'in-90', 12, { expiration_period_type: 'fixed', expiration_date: utcDate(90) });
    for (const [slug, id] of [['in-30', in30], ['in-50', in50], ['in-90', in90]] as const) await grant(server.client, slug, 6, id);
    const scores = async (query: Record<string, string>) =>
      (await server.client.get('/customers/6/points_expiring', { query })).body.data.map((d: { score_available: number }) => d.score_available);
    expect(await scores({})).toEqual([10, 11]);
    expect(await scores({ date: utcDate(40) })).toEqual([10]);
    expect(await scores({ date: utcDate(-5) })).toEqual([10, 11]);
    expect(await scores({ date: utcDate(200) })).toEqual([10, 11]);
    expect((await server.client.get('/customers/6/scores_expiring')).body.data).toHaveLength(2);
    expect((await server.client.get('/customers/6/points_expiring', { query: { date: 'soon' } })).status).toBe(400);
  });

  it('lists transactions with filters, pages and current or historical campaign names', async () => {
    const all = await server.client.get('/points/transactions', { query: { per_page: '2' } });
    expect(all.body.data).toHaveLength(2);
    const next = await server.client.get('/points/transactions', { query: { per_page: '2', starting_after: all.body.next_token_starts_after } });
    expect(next.body.data[0].id).toBeGreaterThan(all.body.data[1].id);
    const campaign = await triggerCampaign(server.client, 'renamed', 3);
    await grant(server.client, 'renamed', 7, campaign);
    expect((await server.client.patch(`/points/${campaign}`, { rule_params: { name: 'New name' } })).status).toBe(200);
    const current = await transactions(server.client, 7, { origin_type: 'trigger' });
    expect(current.at(-1)!.scores[0].loyalty_score_name).toBe('New name');
    const historical = await transactions(server.client, 7, { origin_type: 'trigger', include: 'historical' });
    expect(historical.at(-1)!.scores[0].loyalty_score_name).toBe('renamed 3');
    await server.client.patch('/company', { languages: ['en', 'es'] });
    expect((await server.client.patch(`/points/${campaign}`, { rule_params: { name: { en: 'New name', es: 'Nombre nuevo' } } })).status).toBe(200);
    const spanish = await server.client.get('/points/transactions', { query: { customer_id: '7', origin_type: 'trigger' }, headers: { 'Accept-Language': 'es' } });
    expect(spanish.body.data.at(-1).scores[0].loyalty_score_name).toBe('Nombre nuevo');
    expect((await transactions(server.client, 7, { origin_type: 'trigger' })).at(-1)!.scores[0].loyalty_score_name).toBe('New name');
    const future = await server.client.get('/points/transactions', { query: { customer_id: '7', created_at_gt: '2999-01-01T00:00:00Z' } });
    expect(future.body.data).toEqual([]);
    // A date means its start in the Company's timezone (UTC here), as GET /custom_events reads it.
    const count = (await transactions(server.client, 7)).length;
    const byDate = async (date: string) => (await server.client.get('/points/transactions', { query: { customer_id: '7', per_page: '100', created_at_gt: date } })).body.data.length;
    expect([await byDate('2999-01-01'), await byDate('2000-01-01')]).toEqual([0, count]);
    const byCode = await server.client.get('/points/transactions', { query: { customer_code: 'SEVEN' } });
    expect(byCode.body.data.length).toBe(2);
    for (const query of [{ customer_id: '7', customer_code: 'SEVEN' }, { origin_type: 'gift' }, { include: 'everything' }, { created_at_gt: 'yesterday' }] as Record<string, string>[]) {
      const bad = await server.client.get('/points/transactions', { query });
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.body.code).toBe('invalid_request');
    }
  });

  it("reads a date-only created_at_gt as the Company's day: transactions created after its local midnight", async () => {
    const latest = (await transactions(server.client, 7)).at(-1)!;
    const createdAt = Date.parse(latest.created_at);
    const after = async (createdAtGt: string) =>
      (await transactions(server.client, 7, { created_at_gt: createdAtGt })).map((tx) => tx.id).includes(latest.id);
    // The transaction is dated now: whatever the hour, one of the two zones is on another date than UTC then (UTC+14
    // from 10:00 UTC, UTC-12 before 12:00), where a date read as 00:00 UTC would answer otherwise.
    try {
      for (const [timezone, hours] of [['Pacific/Kiritimati', 14], ['Etc/GMT+12', -12]] as const) {
        expect((await server.client.patch('/company', { timezone })).status).toBe(200);
        // The local date of the second before: its midnight is before the transaction, the next one not (at or after it).
        const day = new Date(createdAt - 1000 + hours * 3_600_000);
        const date = day.toISOString().slice(0, 10);
        const next = new Date(day.getTime() + 86_400_000).toISOString().slice(0, 10);
        expect([await after(date), await after(next)], `${timezone} ${date}`).toEqual([true, false]);
      }
    } finally {
      await server.client.patch('/company', { timezone: 'UTC' });
    }
  });

  it('answers the cashback value of a point and the cashback threshold', async () => {
    await server.client.patch('/company', { point_value: '0.05', cashback_threshold: 200 });
    expect((await server.client.post('/locations', { id: 12, code: 'MAD', name: 'Madrid', country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/locations', { id: 13, code: 'NYC', name: 'New York', country: 'US' })).status).toBe(200);
    expect((await server.client.get('/cashbacks', { query: { location_id: '12' } })).body).toEqual({ cashback: 0.05, currency: 'EUR' });
    expect((await server.client.get('/cashbacks')).status).toBe(400);
    for (const location of ['13', '14']) {
      const none = await server.client.get('/cashbacks', { query: { location_id: location } });
      expect(none.status).toBe(404);
      expect(none.body.code).toBe('exchange_not_found');
    }
    expect((await server.client.get('/cashback_thresholds')).body).toEqual({ data: [{ score: 200, country: 'ES', money_representation: 10, currency: 'EUR' }] });
    const b = (await server.client.get('/customers/1/points')).body;
    expect(b).toMatchObject({ score_available: 150, score_available_as_money: 7.5, score_to_reach_cashback: 50, score_threshold_cashback: 200, money_threshold_cashback: 10 });
    await server.client.patch('/company', { point_value: '0.01', cashback_threshold: 0 });
  });

  it('cashback threshold: points and money still to reach it, 0 and 0 once reached; carts answer the same', async () => {
    expect((await server.client.patch('/company', { cashback_threshold: 100 })).status).toBe(200);
    await createCustomer(server.client, 8);
    const campaign = await triggerCampaign(server.client, 'towards-cashback', 40);
    await grant(server.client, 'towards-cashback', 8, campaign);
    const cartSummary = async () =>
      (await server.client.post('/carts/simulate', cartBody(1, { customer_id: 8, creation_date: '2026-01-01T10:00:00Z' }))).body.customer[0];
    const fields = ['score_to_reach_cashback', 'money_to_spend_to_reach_cashback', 'score_threshold_cashback'];
    const pick = (body: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, body[f]]));
    // Short of it: the points are known, the spend is not (it depends on the campaigns a future cart meets).
    const short = { score_to_reach_cashback: 60, money_to_spend_to_reach_cashback: null, score_threshold_cashback: 100 };
    expect(pick((await server.client.get('/customers/8/points')).body)).toEqual(short);
    expect(pick(await cartSummary())).toEqual(short);
    await grant(server.client, 'towards-cashback', 8, campaign);
    await grant(server.client, 'towards-cashback', 8, campaign);
    const reached = { score_to_reach_cashback: 0, money_to_spend_to_reach_cashback: 0, score_threshold_cashback: 100 };
    expect(pick((await server.client.get('/customers/8/points')).body)).toEqual(reached);
    expect(pick(await cartSummary())).toEqual(reached);
  });
});

describe('points ledger: a debt repaid by a cart earning from several campaigns', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await createCustomer(server.client, 1);
    for (const [name, extra] of [['Never', {}], ['Soon', { expiration_period_type: 'fixed', expiration_date: utcDate(10) }]] as const) {
      const res = await server.client.post('/points', { rule_params: { name, rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }], ...extra } });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('is repaid as a spend takes points, from those that expire first: what is left never expires', async () => {
    expect((await server.client.post('/points/redeem', { customer_id: 1, amount: 30, comments: 'debt' })).status).toBe(200);
    await realtimeCart(server.client, 1, 25);
    expect(await balance(server.client, 1)).toMatchObject({ score: 20, score_available: 20 });
    expect((await server.client.get('/customers/1/points_expiring')).body.data).toEqual([]);
    // The 20 left are spent last, as points that never expire are.
    await grant(server.client, 'soon-later', 1, await triggerCampaign(server.client, 'soon-later', 5, { expiration_period_type: 'fixed', expiration_date: utcDate(20) }));
    expect((await server.client.post('/points/redeem', { customer_id: 1, amount: 5, comments: 'spend' })).status).toBe(200);
    const [spend] = await transactions(server.client, 1, { origin_type: 'subtract', created_at_gt: utcDate(-1) }).then((txs) => txs.slice(-1));
    expect(spend.scores.map((s) => s.loyalty_score_name)).toEqual(['soon-later 5']);
    await expectLedgerAddsUp(server.client, 1);
  });
});

describe('points ledger: every score a safe integer', () => {
  const ratio = (value: unknown) => ({ rule_params: { name: 'Big earner', rule_effects: [{ type: 'ratio', value, distribution: 'individual_items' }] } });
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await createCustomer(server.client, 1);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('refuses effect values above 2147483647 points on create and PATCH, naming the effect, and stores nothing', async () => {
    const huge = await server.client.post('/points', ratio(1e300));
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^rule_params\.rule_effects\[0\]\.value: must be a number greater than 0 and at most 2147483647 \(points per currency unit\)$/) });
    const fixed = await server.client.post('/points', { rule_params: { name: 'Big gift', rule_effects: [{ type: 'direct_value', value: MAX_POINTS + 1, distribution: 'total' }] } });
    expect(fixed.status).toBe(400);
    expect(fixed.body.error).toMatch(/^rule_params\.rule_effects\[0\]\.value: must be an integer between 1 and 2147483647$/);
    expect((await server.client.get('/points')).body.data).toEqual([]);
    const created = await server.client.post('/points', ratio(1));
    expect(created.status, created.text).toBe(200);
    const patched = await server.client.patch(`/points/${created.body.id}`, { rule_params: { rule_effects: [{ type: 'ratio', value: '1e300' }] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/^rule_params\.rule_effects\[0\]\.value/);
    expect(JSON.parse((await server.client.get(`/points/${created.body.id}`)).body.rule_effects)).toEqual(ratio(1).rule_params.rule_effects);
    expect((await server.client.patch(`/points/${created.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('cuts an award of the largest ratio to 2147483647 points: the cart, its transaction and the balance agree', async () => {
    expect((await server.client.post('/points', ratio(MAX_POINTS))).status).toBe(200);
    const lines = [{ order: 1, product_id: 1, total: 1000, quantity: 1 }, { order: 2, product_id: 2, total: 1, quantity: 1 }];
    const cart = await realtimeCart(server.client, 1, 1001, { lines });
    // Line 1 would earn 2147483647000 points (1000 currency units at the ratio): cut; line 2 earns exactly the ratio.
    expect(cart.body.score).toBe(2 * MAX_POINTS);
    expect(cart.body.scores.map((s: { line_order: number; score: number }) => [s.line_order, s.score])).toEqual([[1, MAX_POINTS], [2, MAX_POINTS]]);
    const [tx] = await transactions(server.client, 1);
    expect(tx).toMatchObject({ type: 'activity', amount: 2 * MAX_POINTS });
    expect((await balance(server.client, 1)).score).toBe(2 * MAX_POINTS);
    await expectLedgerAddsUp(server.client, 1);
  });
});

/** Campaigns stored before effect values were bounded (a ratio or direct_value above 2147483647) keep working, each award cut to it. */
describe('points ledger: a campaign stored before the bound', () => {
  const STORED = 1e12;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await createCustomer(server.client, 1);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('still compiles: carts and triggers earn at most 2147483647 points an award; it stays editable, but a PATCH sending its effects is checked', async () => {
    const earner = (await server.client.post('/points', { rule_params: { name: 'Old earner', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } })).body.id;
    const gift = await triggerCampaign(server.client, 'old-gift', 5);
    await server.stop();
    const env = openStore(server.dataDir);
    const campaigns = new LmdbCampaignStore(env);
    const tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' as const };
    await env.transact(() => {
      for (const [id, type] of [[earner, 'ratio'], [gift, 'direct_value']] as const) {
        const record = campaigns.get(tenant, String(id))!;
        const [effect] = record.rule_params.rule_effects as Record<string, unknown>[];
        campaigns.putInTransaction(tenant, { ...record, rule_params: { ...record.rule_params, rule_effects: [{ ...effect, type, value: STORED }] } }, record);
      }
    });
    await env.close();
    await server.restart();

    const cart = await realtimeCart(server.client, 1, 3, { lines: [{ order: 1, product_id: 1, total: 3, quantity: 2 }] });
    expect(cart.body.scores.map((s: { line_order: number; score: number }) => [s.line_order, s.score])).toEqual([[1, MAX_POINTS - (MAX_POINTS % 2)]]);
    await grant(server.client, 'old-gift', 1, gift);
    expect((await transactions(server.client, 1)).map((t) => [t.type, t.amount])).toEqual([['activity', MAX_POINTS - (MAX_POINTS % 2)], ['trigger', MAX_POINTS]]);
    await expectLedgerAddsUp(server.client, 1);

    expect((await server.client.patch(`/points/${earner}`, { rule_params: { name: 'Old earner, renamed' } })).status).toBe(200);
    const resent = await server.client.patch(`/points/${earner}`, { rule_params: { rule_effects: [{ type: 'ratio', value: STORED }] } });
    expect(resent.body).toEqual({ code: 'invalid_request', error: 'rule_params.rule_effects[0].value: must be a number greater than 0 and at most 2147483647 (points per currency unit)' });
    expect(JSON.parse((await server.client.get(`/points/${earner}`)).body.rule_effects)[0].value).toBe(STORED);
  });
});

/**
 * The wallet summary keeps when the next activation or expiry can be due, so that balance reads skip the
 * index scans until then (wallet-store.ts). A summary written before it had those dates still settles.
 */
describe('points ledger: when a settlement is due', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2]) await createCustomer(server.client, id);
    await server.client.patch('/company', { timezone: 'Etc/GMT+12' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('activates points granted after points that never expire, and after a summary without the dates', async () => {
    const now = await triggerCampaign(server.client, 'at-once', 10);
    const delayed = await triggerCampaign(server.client, 'next-day', 60, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' });
    for (const id of [1, 2]) {
      await grant(server.client, 'at-once', id, now);
      await grant(server.client, 'next-day', id, delayed);
      expect(await balance(server.client, id)).toMatchObject({ score: 70, score_available: 10 });
    }
    // Customer 2's summary as a build before these dates wrote it.
    await server.stop();
    const env = openStore(server.dataDir);
    const summaries = customerEntries(env, 'points_wallets');
    const key = [TENANT, idKey('2')];
    const { first_pending_from: _from, first_available_to: _to, ...older } = summaries.get(key) as Record<string, unknown>;
    await env.transact(() => summaries.putSync(key, older));
    await env.close();
    await server.restart();
    await server.client.patch('/company', { timezone: 'Etc/GMT-14' });
    for (const id of [1, 2]) {
      expect(await balance(server.client, id)).toMatchObject({ score: 70, score_available: 70 });
      expect((await transactions(server.client, id)).map((t) => t.type)).toEqual(['trigger', 'trigger', 'activation']);
      await expectLedgerAddsUp(server.client, id);
    }
  });

  it('expires pending points whose available_to comes before their available_from at available_to, not at activation', async () => {
    await server.client.patch('/company', { timezone: 'Etc/GMT+12' });
    await createCustomer(server.client, 3);
    // The Company's today in Etc/GMT+12: the points end today but would only activate in 3 days.
    const today = new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
    const dead = await triggerCampaign(server.client, 'ends-before-start', 50, {
      activation_period_type: 'relative', activation_delay: 3, activation_delay_unit: 'days', expiration_period_type: 'fixed', expiration_date: today,
    });
    await grant(server.client, 'ends-before-start', 3, dead);
    expect(await balance(server.client, 3)).toMatchObject({ score: 50, score_available: 0 });
    // 26 hours ahead: available_to has passed, available_from (today + 3) has not come.
    await server.client.patch('/company', { timezone: 'Etc/GMT-14' });
    expect(await balance(server.client, 3)).toMatchObject({ score: 0, score_available: 0 });
    const txs = await transactions(server.client, 3);
    expect(txs.map((t) => [t.type, t.amount, t.pending_amount])).toEqual([['trigger', 0, 50], ['expiration', 0, -50]]);
    await expectLedgerAddsUp(server.client, 3);
  });

  it('removes the pending entry an older build indexed at available_from once such points are settled', async () => {
    await server.client.patch('/company', { timezone: 'Etc/GMT+12' });
    await createCustomer(server.client, 4);
    const today = new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 36 * 3_600_000).toISOString().slice(0, 10);
    const dead = await triggerCampaign(server.client, 'ended-before-start', 30, {
      activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days', expiration_period_type: 'fixed', expiration_date: yesterday,
    });
    await grant(server.client, 'ended-before-start', 4, dead);
    // As a build before `pendingDue` wrote it: the entry and the summary at available_from (tomorrow).
    await server.stop();
    const env = openStore(server.dataDir);
    const pendings = customerEntries(env, 'points_pending_txs');
    const summaries = customerEntries(env, 'points_wallets');
    const [entry] = [...pendings.getKeys(under([TENANT, idKey('4')]))] as string[][];
    expect(entry[2]).toBe(today);
    const tomorrow = new Date(Date.now() + 12 * 3_600_000).toISOString().slice(0, 10);
    await env.transact(() => {
      pendings.removeSync(entry);
      pendings.putSync([TENANT, idKey('4'), tomorrow, entry[3]], null);
      summaries.putSync([TENANT, idKey('4')], { ...(summaries.get([TENANT, idKey('4')]) as object), first_pending_from: tomorrow });
    });
    await env.close();
    await server.restart();
    await server.client.patch('/company', { timezone: 'Etc/GMT-14' });
    expect(await balance(server.client, 4)).toMatchObject({ score: 0, score_available: 0 });
    expect((await transactions(server.client, 4)).map((t) => [t.type, t.amount, t.pending_amount])).toEqual([['trigger', 0, 30], ['expiration', 0, -30]]);
    await server.stop();
    const after = openStore(server.dataDir);
    expect([...customerEntries(after, 'points_pending_txs').getKeys(under([TENANT, idKey('4')]))]).toEqual([]);
    await after.close();
    await server.restart();
  });

  it('expires the earliest points first even when later-expiring points were granted before them', async () => {
    await server.client.patch('/company', { timezone: 'UTC' });
    const later = await triggerCampaign(server.client, 'ends-later', 5, { expiration_period_type: 'fixed', expiration_date: utcDate(30) });
    const over = await triggerCampaign(server.client, 'ended', 9, { expiration_period_type: 'fixed', expiration_date: utcDate(-1) });
    await grant(server.client, 'ends-later', 1, later);
    await grant(server.client, 'ended', 1, over);
    expect(await balance(server.client, 1)).toMatchObject({ score: 75, score_available: 75 });
    expect((await transactions(server.client, 1)).map((t) => [t.type, t.amount])).toContainEqual(['expiration', -9]);
    await expectLedgerAddsUp(server.client, 1);
  });
});

describe('points ledger: the settlement sweep', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { POINTS_SETTLEMENT_INTERVAL_MS: '200' } });
    for (const id of [1, 2]) await createCustomer(server.client, id);
    await server.client.patch('/company', { timezone: 'Etc/GMT+12' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** The Company-wide ledger (no customer filter, which settles nobody) of one type: [customer, amount, pending_amount]. */
  async function companyWide(type: string): Promise<number[][]> {
    const res = await server.client.get('/points/transactions', { query: { origin_type: type, per_page: '100' } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((t: { customer_id: number; amount: number; pending_amount: number }) => [t.customer_id, t.amount, t.pending_amount]);
  }

  it('records due activations and expirations in the Company-wide ledger without the customers being touched', async () => {
    // The Company's today in Etc/GMT+12, 12 hours behind UTC: the last day of the ending points.
    const today = new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
    const delayed = await triggerCampaign(server.client, 'sweep-next-day', 60, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' });
    const ending = await triggerCampaign(server.client, 'sweep-ends', 9, { expiration_period_type: 'fixed', expiration_date: today });
    await grant(server.client, 'sweep-next-day', 1, delayed);
    await grant(server.client, 'sweep-ends', 2, ending);
    // A cart records points for an id no customer holds (cart rule 1): they are swept too.
    const cartPoints = await server.client.post('/points', { rule_params: { name: 'sweep cart', rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }], expiration_period_type: 'fixed', expiration_date: today } });
    expect(cartPoints.status, cartPoints.text).toBe(200);
    await realtimeCart(server.client, 99, 10);
    expect(await companyWide('activation')).toEqual([]);
    expect(await companyWide('expiration')).toEqual([]);
    // 26 hours ahead (Etc/GMT-14): a day or two pass, and a sweep (every 200 ms) records what fell due.
    await server.client.patch('/company', { timezone: 'Etc/GMT-14' });
    await expect.poll(() => companyWide('activation'), { timeout: 5_000, interval: 100 }).toEqual([[1, 60, -60]]);
    await expect.poll(() => companyWide('expiration'), { timeout: 5_000, interval: 100 }).toEqual([[2, -9, 0], [99, -7, 0]]);
    // The customers' own reads find nothing left to settle: nothing is recorded twice.
    for (const id of [1, 2]) await expectLedgerAddsUp(server.client, id);
    expect(await companyWide('activation')).toHaveLength(1);
    expect(await companyWide('expiration')).toHaveLength(2);
    // A later sweep finds nothing due either.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await companyWide('expiration')).toHaveLength(2);
    // It stops cleanly with the server.
    expect(await server.stop()).toBe(0);
    // The sweep's walk, chunk after chunk: customers with entries, a record or not.
    const env = openStore(server.dataDir);
    expect(customersWithEntries(env, TENANT, undefined, 2)).toEqual([idKey('1'), idKey('2')]);
    expect(customersWithEntries(env, TENANT, idKey('2'), 2)).toEqual([idKey('99')]);
    expect(customersWithEntries(env, TENANT, idKey('99'), 2)).toEqual([]);
    await env.close();
  });
});

/**
 * Stores written before buckets were grouped by transaction kept one record and one index entry per bucket
 * (`points_buckets`, `points_available`, `points_pending`); the server moves them when it opens the store.
 */
describe('points ledger: a store with one record per bucket', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await createCustomer(server.client, 1);
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** Rewrites the wallets as the old layout kept them. */
  async function writeOldLayout(dataDir: string): Promise<number> {
    const env = openStore(dataDir);
    const legacy = ['points_buckets', 'points_available', 'points_pending'].map((name) => env.db(name));
    const [buckets, available, pending] = legacy;
    const grouped = customerEntries(env, 'points_tx_buckets');
    const customer = [TENANT, idKey('1')];
    const everyEntry = under(customer);
    let count = 0;
    await env.transact(() => {
      for (const { key, value } of grouped.getRange(everyEntry)) {
        const [tenant, customer] = key as string[];
        for (const b of value as { tx: string; campaign_id: string | null; from: string; to: string | null; remaining: number; active: boolean }[]) {
          const identity = [idKey(b.tx), b.campaign_id ?? '', b.from, b.to ?? ''];
          buckets.putSync([tenant, customer, ...identity], b);
          if (b.remaining > 0) (b.active ? available : pending).putSync(b.active ? [tenant, customer, b.to ?? '~', b.from, ...identity] : [tenant, customer, b.from, ...identity], null);
          count++;
        }
        grouped.removeSync(key);
      }
      for (const kind of ['points_available_txs', 'points_pending_txs'] as const) for (const key of customerEntries(env, kind).getKeys(everyEntry)) customerEntries(env, kind).removeSync(key);
    });
    await env.close();
    return count;
  }

  it('moves the buckets at start: the balance, the expiring points and spending order are the same', async () => {
    const soon = await triggerCampaign(server.client, 'soon', 20, { expiration_period_type: 'fixed', expiration_date: utcDate(10) });
    const later = await triggerCampaign(server.client, 'later', 30, { expiration_period_type: 'fixed', expiration_date: utcDate(40) });
    const pending = await triggerCampaign(server.client, 'tomorrow', 7, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' });
    for (const [slug, campaign] of [['later', later], ['soon', soon], ['tomorrow', pending]] as const) await grant(server.client, slug, 1, campaign);
    // A cart earning from two campaigns: one transaction, two buckets.
    for (const value of [1, 2]) {
      const res = await server.client.post('/points', { rule_params: { name: `cart ${value} per euro`, rule_effects: [{ type: 'ratio', value }] } });
      expect(res.status, res.text).toBe(200);
    }
    await realtimeCart(server.client, 1, 10);
    const expiring = (await server.client.get('/customers/1/points_expiring')).body;
    await server.stop();
    expect(await writeOldLayout(server.dataDir)).toBe(5);
    await server.restart();
    expect(await balance(server.client, 1)).toMatchObject({ score: 87, score_available: 80 });
    expect((await server.client.get('/customers/1/points_expiring')).body).toEqual(expiring);
    // The points that expire first are spent first.
    expect((await server.client.post('/points/redeem', { customer_id: 1, amount: 25, comments: 'after the move' })).status).toBe(200);
    const [spent] = (await transactions(server.client, 1)).filter((t) => t.type === 'subtract');
    expect(spent.scores.map((s) => [s.loyalty_score_id, s.score])).toEqual([[soon, -20], [later, -5]]);
    await expectLedgerAddsUp(server.client, 1);
    await server.stop();
    const env = openStore(server.dataDir);
    for (const name of ['points_buckets', 'points_available', 'points_pending']) expect([...env.db(name).getKeys({})]).toEqual([]);
    // Left: 'later' (25), 'tomorrow' (pending) and the cart's two buckets, in one record.
    const customer = [TENANT, idKey('1')];
    const buckets = customerEntries(env, 'points_tx_buckets').getRange(under(customer));
    expect([...buckets].map(({ value }) => (value as unknown[]).length).sort()).toEqual([1, 1, 2]);
    await env.close();
    await server.restart();
  });
});
