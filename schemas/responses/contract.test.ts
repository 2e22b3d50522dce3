/**
 * Contract tests: real requests to the real server, each answer checked
 * against its response schema (the one the OpenAPI document names for the
 * operation, server/src/openapi/bodies.ts), closed (server/src/testing/closed-responses.ts). A mismatch is
 * a finding: either the schema or the handler is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import type { OperationId } from '../../server/src/http/operations.js';
import { SCHEMA_DOCUMENTS } from '../../server/src/http/validation.js';
import { RESPONSE_BODIES, responseBodySchema } from '../../server/src/openapi/bodies.js';
import { startServer, type TestResponse, type TestServer } from '../../server/src/testing/server.js';
import { Receiver, sleep } from '../../server/src/webhooks/testing.js';
import { closedResponseAjv } from '../../server/src/testing/closed-responses.js';
import { OPERATIONS } from '../../server/src/http/operations.js';
import { buildOpenApi } from '../../server/src/openapi/document.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

// Closed: a field an answer carries and its schema does not describe is a failure too.
const ajv = closedResponseAjv(SCHEMA_DOCUMENTS.values());

const byOperation = new Map<OperationId, ValidateFunction>();
/** Operations whose answer a test checked: every operation with a response schema must be among them. */
const checked = new Set<string>();
function checkerOf(operation: OperationId): ValidateFunction {
  const body = RESPONSE_BODIES[operation];
  if (!body) throw new Error(`no response schema for ${operation} in server/src/openapi/bodies.ts`);
  if (!byOperation.has(operation)) byOperation.set(operation, ajv.compile(responseBodySchema(body)));
  return byOperation.get(operation)!;
}

/**
 * The OpenAPI document as a client generated from it reads it: the answer's status must be one the
 * operation declares (not only `default`), and its body must match the schema declared for that status.
 */
const document = buildOpenApi() as { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { schemas: object } };
const documentAjv = new Ajv2020({ strictTypes: false, formats: { int64: true, date: true, 'date-time': true } });
documentAjv.addSchema({ $id: 'openapi', $defs: JSON.parse(JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"openapi#/$defs/')) });
function documentChecker(operation: OperationId, status: number): ValidateFunction {
  const { path, method } = OPERATIONS[operation];
  const declared = document.paths[path]![method.toLowerCase()]!.responses[status];
  expect(declared, `the document declares ${status} for ${operation}`).toBeDefined();
  const schema = JSON.parse(JSON.stringify(declared.content['application/json'].schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/'));
  return documentAjv.compile(schema);
}

/** Common rule 3: datetimes are written YYYY-MM-DDThh:mm:ssZ. */
const WHOLE_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The answer's JSON (plain JSON.parse: what any client sees) must match the operation's schema. */
function expectMatches(res: TestResponse, operation: OperationId, status = 200): any {
  expect(res.status, `${operation}: ${res.text}`).toBe(status);
  const check = status === 200 ? checkerOf(operation) : ajv.getSchema(status === 403 ? 'responses.forbidden' : 'responses.error')!;
  const body = JSON.parse(res.text);
  const valid = check(body);
  if (status === 200) checked.add(operation);
  expect(valid ? [] : check.errors, `${operation} answered ${res.text}`).toEqual([]);
  const declared = documentChecker(operation, status);
  expect(declared(body) ? [] : declared.errors, `${operation} ${status} in docs/openapi.json: ${res.text}`).toEqual([]);
  return body;
}

describe('answers match their response schemas', () => {
  let server: TestServer;
  let discount: number;
  let game: number;
  const customer = {
    id: 500, code: 'C500', name: 'Ana', surname_1: 'Ruiz', registration_location_id: 1, country: 'ES', email: 'ana@example.com', birth: '1990-01-02', attributes: { spend: 150 },
  };
  // Sold now: a voucher issued during the test is pending for a sale of an earlier day.
  const cart = (id: number) => ({
    id, customer_id: 500, location_id: 1, creation_date: new Date().toISOString().slice(0, 19) + 'Z', total: 29.9, coupons_desired: 'all',
    lines: [{ order: 1, product_id: 9, total: 29.9, quantity: 1 }],
  });

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    expect((await c.patch('/company', {
      cart_cancellation_wait_seconds: 0,
      customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } },
      audiences: [{ id: 1, name: 'Spain', rule: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } } }],
    })).status).toBe(200);
    expectMatches(await c.post('/locations', { id: 1, code: 'BCN', name: 'Barcelona', country: 'ES' }), 'locations.create');
    expect((await c.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } })).status).toBe(200);
    const created = await c.post('/discounts', {
      rule_params: {
        name: 'Ten off', select_customers: 'targeted', available_from: '2026-01-01T00:00:00Z', available_to: '2030-12-31T23:59:59Z',
        rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
      },
      coupon_params: { name: 'Gift', static_code: 'GIFT' },
    });
    discount = expectMatches(created, 'discounts.create').id;
    game = expectMatches(await c.post('/games', {
      rule_params: { name: 'Wheel', select_customers: 'loyalty' },
      game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 }] },
    }), 'games.create').id;
  });
  afterAll(() => server.dispose());

  it('customers: create, read, search, list, update, cards, delete', async () => {
    const c = server.client;
    expectMatches(await c.post('/customers', customer), 'customers.create');
    expectMatches(await c.patch('/customers/500', { surname_2: 'Gil' }, { query: { search_param: 'id' } }), 'customers.update');
    expectMatches(await c.post('/customers/500/cards', { id: 7001, main: false, motive: 'second card' }), 'customers.cards');
    expectMatches(await c.post('/customers', { id: 499, name: 'Temp', registration_location_id: 1 }), 'customers.create');
    expectMatches(await c.delete('/customers/499', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } }), 'customers.delete');
    const read = expectMatches(await c.get('/customers/500', { query: { search_param: 'id' } }), 'customers.get');
    expect(read).toMatchObject({ id: 500, code: 'C500', status: 'active', merged: false });
    expectMatches(await c.post('/customers/search', { code: 'C500' }), 'customers.search');
    expectMatches(await c.get('/customers', { query: { ids: '500' } }), 'customers.list');
  });

  it('a customer sent with every field of the create column reads each back (but the secrets), in GET, search and list', async () => {
    const c = server.client;
    const every = {
      id: 520, code: 'C520', card_id: 75200, name: 'Eva', surname_1: 'Sanz', surname_2: 'Gil', email: 'eva.sanz@example.com', phone: '600 520 520', phone_prefix: '+34',
      address: 'Calle 1', address_extra: '2B', city: 'Madrid', state: 'M', postal_code: '28001', birth: '1991-03-04', gender: 'f', document_type: 'passport',
      dni: 'x520', country: 'ES', authentication_token: 'auth-520', registration_location_id: 1, registration_location_code: 'BCN', usual_location_id: 2,
      status: 'active', password: 'secret-520', password_confirmation: 'secret-520', creation_date: '2025-01-02T03:04:05-0100',
      sms_unsubscribe: true, email_unsubscribe: false, push_unsubscribe: true, paper_free: true, collective_slug: 'staff', communications: true,
      terms: true, profiling: false, terms_accepted_at: '2025-01-02T10:00:00Z', profiling_accepted_at: '2025-01-03T10:00:00+0200', app: true,
      push_token: 'push-520', custom1: 'c1', custom1f: 1.5, kind: 'person', preferred_language: 'es', fraudulent: false, third_party_consent: true,
      attributes: { spend: 10 },
    };
    expectMatches(await c.post('/customers', every), 'customers.create');
    const answered = {
      id: 520, code: 'C520', name: 'Eva', surname_1: 'Sanz', surname_2: 'Gil', email: 'eva.sanz@example.com', phone: '600520520', phone_prefix: '+34',
      address: 'Calle 1', address_extra: '2B', city: 'Madrid', state: 'M', postal_code: '28001', birth: '1991-03-04', gender: 'f', document_type: 'passport',
      dni: 'X520', country: 'ES', registration_location_id: 1, registration_location_code: 'BCN', usual_location_id: 2, status: 'active', merged: false,
      creation_date: '2025-01-02T04:04:05Z', sms_unsubscribe: true, email_unsubscribe: false, push_unsubscribe: true, paper_free: true, collective_slug: 'staff',
      communications: true, terms: true, profiling: false, terms_accepted_at: '2025-01-02T10:00:00Z', profiling_accepted_at: '2025-01-03T08:00:00Z', app: true,
      kind: 'person', preferred_language: 'es', fraudulent: false, third_party_consent: true, attributes: { spend: 10 },
    };
    const read = expectMatches(await c.get('/customers/520', { query: { search_param: 'id' } }), 'customers.get');
    expect(read).toEqual({ ...answered, custom1: 'c1', custom1f: 1.5, updated_at: expect.any(String) });
    expect(expectMatches(await c.post('/customers/search', { code: 'C520' }), 'customers.search')).toEqual({ ...answered, updated_at: read.updated_at });
    expect(expectMatches(await c.get('/customers', { query: { ids: '520' } }), 'customers.list')).toEqual({ list: [{ ...answered, updated_at: read.updated_at }] });
  });

  it('a customer accepted with a repeated email and dni reads them as duplicated_email and duplicated_dni', async () => {
    const c = server.client;
    const twin = { id: 510, name: 'Eva', registration_location_id: 1, email: 'eva@example.com', dni: '12345678Z' };
    expectMatches(await c.post('/customers', { ...twin, id: 509 }), 'customers.create');
    expectMatches(await c.post('/customers', twin, { query: { allow_duplicate_email: 'true', allow_duplicate_dni: 'true' } }), 'customers.create');
    const read = expectMatches(await c.get('/customers/510', { query: { search_param: 'id' } }), 'customers.get');
    expect(read).toMatchObject({ duplicated_email: 'eva@example.com', duplicated_dni: '12345678Z' });
  });

  it('an int64 id above 2^53 is an integer in the answer', async () => {
    const big = '9223372036854775807';
    expectMatches(await server.client.post('/customers', `{"id": ${big}, "name": "Max", "registration_location_id": 1}`), 'customers.create');
    const read = await server.client.get(`/customers/${big}`, { query: { search_param: 'id' } });
    expectMatches(read, 'customers.get');
    expect(read.text).toContain(`"id":${big}`);
  });

  it('campaigns: create, read, list, update', async () => {
    const c = server.client;
    const read = expectMatches(await c.get(`/discounts/${discount}`), 'discounts.get');
    expect(read.available_from).toBe('2026-01-01T00:00:00Z');
    expectMatches(await c.get('/discounts'), 'discounts.list');
    expectMatches(await c.patch(`/discounts/${discount}`, { rule_params: { description: 'Ten percent off' } }), 'discounts.update');
    const points = expectMatches(await c.post('/points', { rule_params: { name: 'Paused', active: false, rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } }), 'points.create').id;
    expectMatches(await c.patch(`/points/${points}`, { rule_params: { description: 'Not running' } }), 'points.update');
    expect(expectMatches(await c.get(`/points/${points}`), 'points.get').active).toBe(false);
    expectMatches(await c.get('/points'), 'points.list');
  });

  it('campaign and game reads: date-only bounds read as sent, tiers named by level', async () => {
    const c = server.client;
    const gold = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'gold' }] } };
    const bounds = { available_from: '2026-11-01', available_to: '2026-11-30', rule_conditions: gold };
    const id = expectMatches(await c.post('/discounts', { rule_params: { name: 'November', ...bounds, rule_effects: [{ type: 'percentage', value: 5, distribution: 'individual_items' }] } }), 'discounts.create').id;
    const read = expectMatches(await c.get(`/discounts/${id}`), 'discounts.get');
    expect(read).toMatchObject({ available_from: '2026-11-01', available_to: '2026-11-30', tiers: [{ id: 'gold', name: null, threshold: null }] });
    expectMatches(await c.get('/discounts', { query: { per_page: '100' } }), 'discounts.list');
    const wheel = expectMatches(await c.post('/games', {
      rule_params: { name: 'November wheel', select_customers: 'loyalty', ...bounds }, game: { type: 'wheel', game_prizes: [] },
    }), 'games.create').id;
    expect(expectMatches(await c.get(`/games/${wheel}`), 'games.get')).toMatchObject({ available_to: '2026-11-30', tiers: [{ id: 'gold' }] });
  });

  it('vouchers: issue, read, list', async () => {
    const c = server.client;
    expectMatches(await c.post('/discounts/trigger', { customer_id: 500, loyalty_rule_id: discount, external_voucher_code: 'MYCODE1' }), 'discounts.trigger');
    const voucher = expectMatches(await c.get('/vouchers/MYCODE1'), 'vouchers.get');
    expect(voucher.created_at).toMatch(WHOLE_SECONDS);
    expectMatches(await c.get('/vouchers', { query: { customer_id: '500' } }), 'vouchers.list');
    const held = expectMatches(await c.get('/discounts/MYCODE1', { query: { search_by: 'voucher_code' } }), 'discounts.get');
    expect(held.coupon_info.voucher_info.voucher_code).toBe('MYCODE1');
  });

  it('carts: simulate, realtime, read, list; the cart response carries discount and points effects', async () => {
    const c = server.client;
    const simulated = expectMatches(await c.post('/carts/simulate', cart(77)), 'carts.simulate');
    expect(simulated.effects.map((e: { type: string }) => e.type).sort()).toEqual(['discount', 'points']);
    // The voucher MYCODE1 of the targeted campaign: its coupon with every field of the contract's Cart response.
    expect(simulated.vouchers[0].coupon).toEqual({
      id: expect.any(Number), key: null, name: 'Gift', description: null, static_code: 'GIFT', max_redemptions: 1,
      min_money: null, max_money: null, min_units: null, max_units: null, discount: 10, discount_type: 'percentage', affectation: 'individual_items',
    });
    expect(Array.isArray(simulated.customer)).toBe(true);
    expectMatches(await c.post('/carts/realtime', cart(77)), 'carts.realtime');
    const read = expectMatches(await c.get('/carts/77'), 'carts.get');
    expect(Array.isArray(read.customer)).toBe(false);
    expectMatches(await c.get('/carts', { query: { customer_id: '500' } }), 'carts.list');
    expectMatches(await c.post('/carts', cart(78)), 'carts.create');
    // A repeated plain POST /carts: the duplicate is a deferred error, read with the cart.
    expectMatches(await c.post('/carts', cart(78)), 'carts.create');
    expect(expectMatches(await c.get('/carts/78'), 'carts.get').deferred_errors).toHaveLength(1);
    // Cart rule 6: another currency than the registration country's marks the cart international.
    expect(expectMatches(await c.post('/carts/simulate', { ...cart(79), currency: 'USD' }), 'carts.simulate').international).toBe(true);
    // The request's deprecated custom1..custom8 and apply_* flags read back with the cart.
    const customs = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`custom${n}`, n === 2 ? { note: 'object' } : `c${n}`]));
    expectMatches(await c.post('/carts', { ...cart(81), ...customs, apply_discounts: false, apply_points: true }), 'carts.create');
    expect(expectMatches(await c.get('/carts/81'), 'carts.get')).toMatchObject({ ...customs, apply_discounts: false, apply_points: true });
    const spending = expectMatches(await c.post('/carts/simulate', { ...cart(80), cashback_score_desired: -1 }), 'carts.simulate');
    expect(spending.cashbacks.length).toBeGreaterThan(0);
  });

  it('points: balance, transactions, redeem', async () => {
    const c = server.client;
    const balance = expectMatches(await c.get('/customers/500/points'), 'points.balance');
    expect(balance.score).toBeGreaterThan(0);
    expectMatches(await c.get('/points/transactions', { query: { customer_id: '500' } }), 'points.transactions');
    expectMatches(await c.post('/points/redeem', { customer_id: 500, amount: 5, comments: 'contract test' }), 'points.redeem');
  });

  it('games: read, list, play', async () => {
    const c = server.client;
    expectMatches(await c.get(`/games/${game}`), 'games.get');
    expectMatches(await c.get('/games'), 'games.list');
    const played = expectMatches(await c.post(`/games/${game}/play`, { customer_id: 500 }), 'games.play');
    expect(played.effects[0].game_info.status).toBe('won');
    expectMatches(await c.patch(`/games/${game}`, { rule_params: { description: 'Spin to win' } }), 'games.update');
    const targeted = expectMatches(await c.post('/games', {
      rule_params: { name: 'Private wheel', select_customers: 'targeted' }, game: { type: 'wheel', game_prizes: [] },
    }), 'games.create').id;
    expectMatches(await c.post(`/games/${targeted}/assignments`, { customer_id: 500 }), 'games.assign');
    const [mine] = expectMatches(await c.get('/games', { query: { customer_id: '500', campaign_audience: 'targeted' } }), 'games.list').data;
    expect(mine.loyalty_rule_history_id).toBeDefined();
  });

  it('rewards: read, list, redeem', async () => {
    const c = server.client;
    const reward = expectMatches(await c.post('/rewards', { name: 'Tote bag', points: 5, type: 'physical', total_stock: 3 }), 'rewards.create').id;
    const read = expectMatches(await c.get(`/rewards/${reward}`, { query: { customer_id: '500' } }), 'rewards.get');
    for (const field of ['created_at', 'updated_at']) expect(read[field]).toMatch(WHOLE_SECONDS);
    expect(read.can_redeem).toBe(true);
    expectMatches(await c.get('/rewards'), 'rewards.list');
    expectMatches(await c.patch(`/rewards/${reward}`, { description: 'A cotton tote bag' }), 'rewards.update');
    const redeemed = expectMatches(await c.post(`/rewards/${reward}/redeem`, { customer_id: 500, location_id: 1 }), 'rewards.redeem');
    const [transaction] = expectMatches(await c.get('/rewards/transactions', { query: { customer_id: '500' } }), 'rewards.transactions').data;
    expect(transaction.id).toBe(redeemed.redemption_id);
    expectMatches(await c.post(`/rewards/transactions/${redeemed.redemption_id}/rollback`, { status_detail: 'returned' }), 'rewards.rollback');
  });

  it('customer attributes, tiers and audiences', async () => {
    const c = server.client;
    const structure = [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Silver', threshold: 100 }, { level: 3, name: 'Gold', threshold: 1000 }];
    const program = expectMatches(await c.post('/tier_programs', { name: 'Club', countries: ['ES'], attribute: 'spend', structure, validity_days: 365 }), 'tier_programs.create').id;
    expectMatches(await c.patch(`/tier_programs/${program}`, { name: 'Loyalty club' }), 'tier_programs.update');
    const [standing] = expectMatches(await c.get('/customers/500/tiers'), 'customers.tiers').data;
    expect(standing).toMatchObject({ current_level_name: 'Silver', to_reach_next_level_name: 'Gold' });
    const [attribute] = expectMatches(await c.get('/customers/500/attributes'), 'customers.attributes').data;
    expect(attribute.name).toBe('spend');
    expect(expectMatches(await c.get('/customers/500/audience_validation', { query: { segment_id: '1' } }), 'customers.audience_validation').result).toBe(true);
    expect(expectMatches(await c.get('/customers/500/audiences'), 'customers.audiences').list).toEqual([{ segment_id: 1 }]);
  });

  it('cashback value and thresholds, discount transactions', async () => {
    const c = server.client;
    expectMatches(await c.get('/cashbacks', { query: { location_id: '1' } }), 'points.cashbacks');
    expect(expectMatches(await c.get('/cashback_thresholds'), 'points.cashback_thresholds').data.length).toBeGreaterThan(0);
    expectMatches(await c.get('/discounts/transactions', { query: { customer_id: '500' } }), 'discounts.transactions');
  });

  it('challenges: create, read, list, enroll, the customer view', async () => {
    const c = server.client;
    const structure = [{ level: 1, name: 'Starter', threshold: 10, points: 5 }];
    const id = expectMatches(await c.post('/challenges', { name: 'Spend', attribute: 'total_spent', structure }), 'challenges.create').id;
    const read = expectMatches(await c.get(`/challenges/${id}`), 'challenges.get');
    for (const field of ['created_at', 'updated_at']) expect(read[field]).toMatch(WHOLE_SECONDS);
    expectMatches(await c.get('/challenges'), 'challenges.list');
    expectMatches(await c.post(`/challenges/${id}/enroll`, { customer_id: 500 }), 'challenges.enroll');
    const [mine] = expectMatches(await c.get('/customers/500/challenges'), 'challenges.customer_list').data;
    expect(mine.enrolled).toBe(true);
    expect(expectMatches(await c.get(`/customers/500/challenges/${id}`), 'challenges.customer_get').enrolled).toBe(true);
    expectMatches(await c.patch(`/challenges/${id}`, { description: 'Spend to level up' }), 'challenges.update');
  });

  it('instant wins: create, read, list, and the instant_win effect of a cart', async () => {
    const c = server.client;
    const id = expectMatches(await c.post('/instant_wins', {
      rule_params: { name: 'Scratch card', select_customers: 'loyalty', available_from: '2026-01-01T00:00:00Z' },
      instant_win: { instant_win_prizes: [{ name: 'Mug', description: 'A mug', weight: 1, stock: -1 }] },
    }), 'instant_wins.create').id;
    expectMatches(await c.get(`/instant_wins/${id}`, { query: { customer_id: '500' } }), 'instant_wins.get');
    expectMatches(await c.get('/instant_wins'), 'instant_wins.list');
    const played = expectMatches(await c.post('/carts/simulate', cart(90)), 'carts.simulate');
    expect(played.effects.filter((e: { type: string }) => e.type === 'instant_win')).toHaveLength(1);
    expectMatches(await c.patch(`/instant_wins/${id}`, { rule_params: { active: false } }), 'instant_wins.update');
  });

  it('company data: taxonomies, features, products, locations, legacy promotions', async () => {
    const c = server.client;
    expectMatches(await c.post('/taxonomies', { slug: 'family', name: 'Family' }), 'taxonomies.create');
    expectMatches(await c.post('/taxonomies/family/features', { id: 1, name: 'Kitchen' }), 'features.create');
    expectMatches(await c.post('/products', { id: 1, name: 'Mug', features: [{ taxonomy_slug: 'family', id: 1 }] }), 'products.create');
    const product = expectMatches(await c.get('/products/1'), 'products.get');
    expect(product.features).toEqual([expect.objectContaining({ taxonomy_slug: 'family', id: 1 })]);
    expectMatches(await c.patch('/products/1', { features: [] }), 'products.update');
    expectMatches(await c.delete('/products/1'), 'products.delete');
    expectMatches(await c.patch('/taxonomies/family/features/1', { name: 'Kitchenware' }), 'features.update');
    expectMatches(await c.delete('/taxonomies/family/features/1'), 'features.delete');
    expectMatches(await c.patch('/taxonomies/family', { name: 'Families' }), 'taxonomies.update');
    expectMatches(await c.delete('/taxonomies/family'), 'taxonomies.delete');

    expectMatches(await c.post('/locations/taxonomies', { slug: 'region', name: 'Region' }), 'location_taxonomies.create');
    expectMatches(await c.post('/locations/taxonomies/region/features', { id: 1, name: 'North' }), 'location_features.create');
    expectMatches(await c.post('/locations', { id: 2, name: 'Girona', country: 'ES', features: [{ taxonomy_slug: 'region', id: 1 }] }), 'locations.create');
    expectMatches(await c.get('/locations/2'), 'locations.get');
    expectMatches(await c.patch('/locations/2', { features: [] }), 'locations.update');
    expectMatches(await c.delete('/locations/2'), 'locations.delete');
    expectMatches(await c.patch('/locations/taxonomies/region/features/1', { name: 'Northern' }), 'location_features.update');
    expectMatches(await c.delete('/locations/taxonomies/region/features/1'), 'location_features.delete');
    expectMatches(await c.patch('/locations/taxonomies/region', { name: 'Regions' }), 'location_taxonomies.update');
    expectMatches(await c.delete('/locations/taxonomies/region'), 'location_taxonomies.delete');

    expectMatches(await c.post('/promotions', { id: 1, name: 'Summer' }), 'promotions.create');
    expectMatches(await c.patch('/promotions/1', { name: 'Summer sale' }), 'promotions.update');
    expectMatches(await c.delete('/promotions/1'), 'promotions.delete');
  });

  it('coupons and voucher operations', async () => {
    const c = server.client;
    expectMatches(await c.post('/customers', { id: 502, name: 'Vera', registration_location_id: 1, country: 'ES' }), 'customers.create');
    const campaign = expectMatches(await c.post('/discounts', {
      rule_params: { name: 'Five off', rule_effects: [{ type: 'direct_value', value: 500, distribution: 'total' }] },
    }), 'discounts.create').id;
    const coupon = expectMatches(await c.post('/coupons', { loyalty_rule_id: campaign, coupon_params: { name: 'Printable', static_code: 'PRINT5', printable: true, available_days: 30, print_days: 10 } }), 'coupons.create').id;
    expectMatches(await c.patch(`/coupons/${coupon}`, { coupon_params: { name: 'Printable five' } }), 'coupons.update');
    for (const code of ['W1', 'W2', 'W3']) {
      expectMatches(await c.post('/discounts/trigger', { customer_id: 502, coupon_id: coupon, external_voucher_code: code }), 'discounts.trigger');
    }
    const selected = expectMatches(await c.post('/vouchers/W1/select', {}), 'vouchers.select').voucher;
    expect(selected.selected).toBe(true);
    // Relative windows are instants counted from the issue, written in whole seconds like every datetime.
    for (const field of ['created_at', 'available_to', 'print_to']) expect(selected[field]).toMatch(WHOLE_SECONDS);
    expect(expectMatches(await c.get('/customers/502/vouchers/selected'), 'vouchers.selected').data).toHaveLength(1);
    expectMatches(await c.post('/vouchers/W1/deselect', {}), 'vouchers.deselect');
    expectMatches(await c.put('/vouchers/select', { codes: ['W1', 'W2'] }), 'vouchers.select_many');
    expectMatches(await c.put('/vouchers/deselect', { codes: ['W1', 'W2'] }), 'vouchers.deselect_many');
    expect(expectMatches(await c.post('/vouchers/W3/freeze', {}), 'vouchers.freeze').voucher.status).toBe('frozen');
    expectMatches(await c.post('/vouchers/W3/unfreeze', {}), 'vouchers.unfreeze');
    expectMatches(await c.post('/vouchers/print', { codes: ['W1'] }), 'vouchers.print');
    expectMatches(await c.put('/vouchers/print', { codes: ['W2'] }), 'vouchers.print_put');
    const redeemed = expectMatches(await c.post('/vouchers/redeem', { codes: ['W1'], location_id: 1 }), 'vouchers.redeem');
    expect(redeemed.vouchers[0].status).toBe('redeemed');
    expectMatches(await c.post('/vouchers/rollback', { codes: ['W1'] }), 'vouchers.rollback');
    expectMatches(await c.get('/vouchers/excluded_products', { query: { code: 'W1' } }), 'vouchers.excluded_products');
    expectMatches(await c.delete(`/coupons/${coupon}`), 'coupons.delete');
  });

  it('triggers and custom events', async () => {
    const c = server.client;
    const welcome = (await c.post('/points', { rule_params: { name: 'Welcome', when: 'welcome', rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] } })).body.id;
    const granted = expectMatches(await c.post('/trigger', { trigger: 'welcome', customer_id: 500, loyalty_rule_id: welcome }), 'triggers.trigger');
    expect(granted.score).toBe(100);
    expectMatches(await c.post('/custom_event_definitions', { slug: 'review', schema: { type: 'object', properties: { stars: { type: 'integer' } } } }), 'custom_event_definitions.create');
    expectMatches(await c.get('/custom_event_definitions'), 'custom_event_definitions.list');
    const event = expectMatches(await c.post('/custom_events', { customer_id: 500, slug: 'review', data: { stars: 5 } }), 'custom_events.create');
    expectMatches(await c.get(`/custom_events/${event.id}`), 'custom_events.get');
    expectMatches(await c.get('/custom_events', { query: { customer_id: '500' } }), 'custom_events.list');
  });

  it('webhooks and their deliveries', async () => {
    const c = server.client;
    // Port 9 (discard): nothing answers, the delivery stays listed.
    const webhook = expectMatches(await c.post('/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['customer.updated'] }), 'webhooks.create');
    expectMatches(await c.get('/webhooks'), 'webhooks.list');
    expectMatches(await c.get(`/webhooks/${webhook.id}`), 'webhooks.get');
    expectMatches(await c.patch(`/webhooks/${webhook.id}`, { description: 'ERP' }), 'webhooks.update');
    expect((await c.patch('/customers/500', { name: 'Ana Webhook' })).status).toBe(200);
    const listed = expectMatches(await c.get(`/webhooks/${webhook.id}/deliveries`), 'webhooks.deliveries');
    expect(listed.data).toHaveLength(1);
    expectMatches(await c.post(`/webhooks/${webhook.id}/rotate_secret`), 'webhooks.rotate_secret');
    expectMatches(await c.delete(`/webhooks/${webhook.id}`), 'webhooks.delete');
    // A delivered delivery sent again (a failed one would wait for the default retry schedule).
    const receiver = await new Receiver().listen();
    try {
      const delivered = expectMatches(await c.post('/webhooks', { url: receiver.url, events: ['customer.updated'] }), 'webhooks.create');
      expect((await c.patch('/customers/500', { name: 'Ana María' })).status).toBe(200);
      await receiver.waitFor(1);
      let [sent] = (await c.get(`/webhooks/${delivered.id}/deliveries`)).body.data;
      for (let tries = 0; sent.status !== 'delivered' && tries < 200; tries++) {
        await sleep(25);
        [sent] = (await c.get(`/webhooks/${delivered.id}/deliveries`)).body.data;
      }
      expectMatches(await c.post(`/webhooks/${delivered.id}/deliveries/${sent.id}/retry`), 'webhooks.retry_delivery');
    } finally {
      await receiver.close();
    }
  });

  it('the audit log', async () => {
    const listed = expectMatches(await server.client.get('/audit_log', { query: { per_page: '100' } }), 'audit_log.list');
    expect(listed.data.length).toBeGreaterThan(0);
  });

  it('associations and points transfers between two customers', async () => {
    const c = server.client;
    expectMatches(await c.post('/customers', { id: 501, name: 'Bea', registration_location_id: 1, country: 'ES' }), 'customers.create');
    expectMatches(await c.post('/associations', { customer_id: 500, associate_customer_id: 501 }), 'associations.create');
    expectMatches(await c.get('/customers/500/associates', { headers: { 'Content-Type': 'application/json' } }), 'associations.list');
    expectMatches(await c.patch('/associations', { customer_id: 500, associate_customer_id: 501, relationship_type: 'family' }), 'associations.update');
    const moved = expectMatches(await c.post('/points/transfer', { score: 10, from_customer_id: 500, to_customer_id: 501, comments: 'gift' }, { headers: { 'X-Author-Email': 'agent@shop.example' } }), 'points.transfer');
    expect(moved.score).toBe(10);
    const [received] = expectMatches(await c.get('/points/transactions', { query: { customer_id: '501' } }), 'points.transactions').data;
    expect(received.author).toBe('agent@shop.example');
    const expiring = (await c.post('/points', {
      rule_params: {
        name: 'Thirty days', when: 'monthly', rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    })).body.id;
    expectMatches(await c.post('/trigger', { trigger: 'monthly', customer_id: 501, loyalty_rule_id: expiring }), 'triggers.trigger');
    const [soon] = expectMatches(await c.get('/customers/501/points_expiring'), 'points.expiring').data;
    expect(soon.score_available).toBe(40);
    expectMatches(await c.delete('/associations', { query: { customer_id: '500', associate_customer_id: '501' }, headers: { 'Content-Type': 'application/json' } }), 'associations.delete');
  });

  it('carts: points and a voucher redeemed on a stored cart, then the cart cancelled', async () => {
    const c = server.client;
    expectMatches(await c.post('/points/redeem_cart', { activity_id: 77, customer_id: 500, amount: 1 }), 'points.redeem_cart');
    await c.post('/discounts/trigger', { customer_id: 500, loyalty_rule_id: discount, external_voucher_code: 'MYCODE2' });
    const redeemed = expectMatches(await c.post('/discounts/redeem', { voucher_code: 'MYCODE2', customer_id: 500, cart_id: 77, discount: 150 }), 'discounts.redeem');
    expect(redeemed).toMatchObject({ rule_id: discount, effect_type: 'external_redeem' });
    const cancelled = expectMatches(await c.post('/carts/cancellation', { cart_to_cancel_id: 77, new_cart_id: 7701 }), 'carts.cancellation');
    expect(cancelled.total).toBeLessThan(0);
  });

  it('merges: transfer, unmerge, transfer to a new customer', async () => {
    const c = server.client;
    for (const id of [600, 601, 602, 603]) expectMatches(await c.post('/customers', { id, name: `M${id}`, registration_location_id: 1 }), 'customers.create');
    const bonus = (await c.post('/points', { rule_params: { name: 'Monthly bonus', when: 'monthly', rule_effects: [{ type: 'direct_value', value: 20, distribution: 'total' }] } })).body.id;
    expectMatches(await c.post('/trigger', { trigger: 'monthly', customer_id: 600, loyalty_rule_id: bonus }), 'triggers.trigger');
    expectMatches(await c.post('/customers/transfer', { old_customer_id: 600, new_customer_id: 601 }), 'merges.transfer');
    // The points transaction the merge moved names the customer it came from.
    const [moved] = expectMatches(await c.get('/points/transactions', { query: { associate_id: '600' } }), 'points.transactions').data;
    expect(moved.associate_id).toBe(600);
    const json = { 'Content-Type': 'application/json' };
    expectMatches(await c.post('/customers/600/unmerge', undefined, { headers: json, query: { with_activites: 'false' } }), 'merges.unmerge');
    expectMatches(await c.post('/customers/transfer-new', { old_customer_id: 602, new_customer_id: 603 }), 'merges.transfer_new');
  });

  it('utilities and the Company settings', async () => {
    const c = server.client;
    expect(expectMatches(await c.get('/check', { auth: null }), 'check')).toEqual({ status: 'ok' });
    expect(expectMatches(await c.get('/check'), 'check').environment).toBe('sandbox');
    expectMatches(await c.post('/messages/print', { messages: [{ text: 'Thank you for shopping with us' }], width: 16 }), 'messages.print');
    expectMatches(await c.get('/company'), 'company.get');
    expectMatches(await c.patch('/company', { timezone: 'Europe/Madrid' }), 'company.update');
  });

  it('errors: {error, code} at a status the document declares for the operation, {message: Forbidden} for 403', async () => {
    const c = server.client;
    const code = (res: TestResponse, operation: OperationId, status: number) => expectMatches(res, operation, status).code;
    expect(code(await c.get('/customers/999', { query: { search_param: 'id' } }), 'customers.get', 404)).toBe('customer_not_found');
    expect(code(await c.post('/customers', { id: 0, name: 'X', registration_location_id: 1 }), 'customers.create', 400)).toBe('invalid_request');
    expect(code(await c.post('/customers', { id: 500, name: 'Again', registration_location_id: 1 }), 'customers.create', 409)).toBe('duplicate_id');
    expect(code(await c.get('/check', { query: { unknown: '1' }, auth: null }), 'check', 400)).toBe('invalid_request');
    expect(code(await c.post('/carts/simulate', { ...cart(95), lines: 'none' }), 'carts.simulate', 400)).toBe('invalid_request');
    expect(code(await c.get('/carts/987654'), 'carts.get', 404)).toBe('cart_not_found');
    expect(code(await c.post('/points/transfer', { score: 10_000_000, from_customer_id: 500, to_customer_id: 520 }), 'points.transfer', 402)).toBe('customer_not_enough_score');
    expect(code(await c.get('/discounts/987654'), 'discounts.get', 404)).toMatch(/_not_found$/);
    expect(code(await c.post('/vouchers/redeem', { codes: ['NOSUCHCODE'], location_id: 1 }), 'vouchers.redeem', 404)).toBe('voucher_not_found');
    expect(code(await c.get('/webhooks/987654'), 'webhooks.get', 404)).toBe('webhook_not_found');
    expect(code(await c.get('/rewards/987654'), 'rewards.get', 404)).toMatch(/_not_found$/);
    expect(code(await c.get('/products/987654'), 'products.get', 404)).toBe('product_not_found');
    const key = { headers: { 'Idempotency-Key': 'contract-errors-1' } };
    expectMatches(await c.post('/messages/print', { messages: [{ text: 'one' }], width: 16 }, key), 'messages.print');
    expect(code(await c.post('/messages/print', { messages: [{ text: 'two' }], width: 16 }, key), 'messages.print', 409)).toBe('idempotency_key_reused');
    expectMatches(await c.get('/customers/500', { query: { search_param: 'id' }, auth: { key: 'test-key', secret: 'wrong' } }), 'customers.get', 403);
    expectMatches(await c.get('/customers/500', { query: { search_param: 'id' }, auth: null }), 'customers.get', 403);
  });

  it("a customer's export (after the tests above gave customer 500 carts, points, a redemption, tiers...)", async () => {
    const exported = expectMatches(await server.client.get('/customers/500/export', { query: { search_param: 'id' } }), 'customers.export');
    expect(exported.carts.data.length).toBeGreaterThan(0);
  });

  it('checked a real answer of every operation that has a response schema', () => {
    expect(Object.keys(RESPONSE_BODIES).filter((operation) => !checked.has(operation))).toEqual([]);
  });
});
