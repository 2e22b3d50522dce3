/**
 * An integration written against the legacy names only (part 1, Versioning: the old paths; the deprecated
 * fields of carts and triggers) runs a whole day of work: two servers seeded alike, one spoken to with the
 * current names, one with the legacy ones, must give the same answers (status and body), the same side
 * effects (balances, ledger, carts, events), the same webhooks and the same audit entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';
import { Receiver, sleep } from '../webhooks/testing.js';

const CREATED = '2026-11-20T10:00:00Z';
const EVENTS = [
  'cart.created', 'cart.cancelled', 'points_transaction.created', 'customer.created', 'customer.updated', 'reward_redemption.created',
  'reward_redemption.reverted', 'voucher.issued', 'voucher.redeemed', 'custom_event.created',
];

/** One request in both forms: the current name and the legacy name the old integration sends. */
interface Step {
  name: string;
  method: 'GET' | 'POST';
  current: string;
  legacy: string;
  body?: Record<string, unknown>;
  /** The body the legacy integration sends, when it uses a deprecated field (else `body`). */
  legacyBody?: Record<string, unknown>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A deprecated request field the answer echoes under its own name: [legacy name, current name]. */
  echoes?: [string, string];
}

/** Instants, generated codes and the receivers' ports differ between the two runs: they are compared by form only. */
function normalized(value: unknown): unknown {
  if (typeof value === 'string') {
    if (/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d/.test(value)) return '<instant>';
    if (/^[A-Z0-9]{12}$/.test(value)) return '<generated code>';
    return value.replace(/127\.0\.0\.1:\d+/g, '<receiver>');
  }
  if (Array.isArray(value)) return value.map(normalized);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v)]));
  }
  return value;
}

const cart = (id: number, extra: Record<string, unknown> = {}) => ({
  id, creation_date: CREATED, total: 12.5, customer_id: 1, location_id: 10, custom1: 'till 4', custom2: { lane: 4 },
  lines: [{ order: 1, product_id: 100, total: 12.5, quantity: 1, custom1: 'aisle 3' }], ...extra,
});

describe('an integration speaking only the legacy names', () => {
  let current: TestServer;
  let legacy: TestServer;
  const receivers = new Map<TestServer, Receiver>();
  const ids: Record<string, number> = {};

  async function seed(server: TestServer): Promise<void> {
    const ok = (res: TestResponse) => expect(res.status, res.text).toBe(200);
    const c = server.client;
    ok(await c.post('/locations', { id: 10, code: 'MAD-01', name: 'Madrid', country: 'ES' }));
    ok(await c.patch('/company', { audiences: [{ id: 1, name: 'Spain', rule: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } } }] }));
    ok(await c.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } }));
    const birthday = await c.post('/points', { rule_params: { name: 'Birthday', when: 'birthday', rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] } });
    ok(birthday);
    ids.birthday = birthday.body.id;
    const definition = await c.post('/custom_event_definitions', { slug: 'review', name: 'Review', schema: { type: 'object', properties: { stars: { type: 'integer' } }, required: ['stars'] } });
    ok(definition);
    ok(await c.post('/points', { rule_params: { name: 'Review', custom_entity_definition_id: definition.body.id, rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }] } }));
    const reward = await c.post('/rewards', { name: 'Mug', points: 50, type: 'physical', countries: ['ES'] });
    ok(reward);
    ids.reward = reward.body.id;
    const receiver = await new Receiver().listen();
    receivers.set(server, receiver);
    ok(await c.post('/webhooks', { url: receiver.url, events: EVENTS }));
    for (const id of [1, 2]) {
      ok(await c.post('/customers', { id, code: `C${id}`, name: `Customer ${id}`, registration_location_id: 10, country: 'ES', custom1: 'gold', custom1f: 1.5 }));
    }
  }

  beforeAll(async () => {
    [current, legacy] = await Promise.all([startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } }), startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } })]);
    await seed(current);
    await seed(legacy);
  });
  afterAll(async () => {
    for (const receiver of receivers.values()) await receiver.close();
    await Promise.all([current?.dispose(), legacy?.dispose()]);
  });

  /** Runs the step on both servers; expects the same status and body; returns the legacy answer. */
  async function both(step: Step): Promise<TestResponse> {
    const send = (server: TestServer, path: string, body: unknown) =>
      server.client.request(step.method, path, { body, query: step.query, headers: step.headers });
    const viaCurrent = await send(current, step.current, step.body);
    const viaLegacy = await send(legacy, step.legacy, step.legacyBody ?? step.body);
    expect(viaLegacy.body?.code, `${step.name}: ${viaLegacy.text}`).not.toBe('route_not_found');
    let answered = viaLegacy.body;
    if (step.echoes) {
      const [old, now] = step.echoes;
      expect(answered, step.name).toHaveProperty(old);
      const { [old]: echoed, ...rest } = answered;
      answered = { ...rest, [now]: echoed };
    }
    expect({ status: viaLegacy.status, body: normalized(answered) }, step.name).toEqual({ status: viaCurrent.status, body: normalized(viaCurrent.body) });
    return viaLegacy;
  }

  const flow: Step[] = [
    { name: 'simulate', method: 'POST', current: '/carts/simulate', legacy: '/activities/simulate', body: cart(501, { coupons_desired: [] }), legacyBody: cart(501, { vouchers_desired: [] }), echoes: ['vouchers_desired', 'coupons_desired'] },
    { name: 'realtime', method: 'POST', current: '/carts/realtime', legacy: '/activities/realtime', body: cart(501) },
    { name: 'realtime, same id', method: 'POST', current: '/carts/realtime', legacy: '/activities/realtime', body: cart(501, { total: 13, lines: [{ order: 1, product_id: 100, total: 13, quantity: 1 }] }) },
    { name: 'plain create', method: 'POST', current: '/carts', legacy: '/activities', body: cart(502) },
    { name: 'plain create, same id', method: 'POST', current: '/carts', legacy: '/activities', body: cart(502, { total: 14, lines: [{ order: 1, product_id: 100, total: 14, quantity: 1 }] }) },
    { name: 'cart read', method: 'GET', current: '/carts/501', legacy: '/activities/501' },
    { name: 'cart read, unknown', method: 'GET', current: '/carts/999', legacy: '/activities/999' },
    { name: 'cart list', method: 'GET', current: '/carts', legacy: '/activities', query: { customer_id: '1' } },
    { name: 'cart list, refused', method: 'GET', current: '/carts', legacy: '/activities', query: { customer_id: '1', customer_code: 'C1' } },
    { name: 'trigger', method: 'POST', current: '/trigger', legacy: '/scores/trigger', body: { trigger: 'birthday', customer_id: 1, loyalty_rule_id: 0, comments: 'hb' }, headers: { 'X-Author-Email': 'crm@shop.example' } },
    { name: 'trigger, unknown campaign', method: 'POST', current: '/trigger', legacy: '/scores/trigger', body: { trigger: 'birthday', customer_id: 1, loyalty_rule_id: 99999 } },
    { name: 'custom event', method: 'POST', current: '/custom_events', legacy: '/custom_entities', body: { id: 'ev-1', customer_id: 1, slug: 'review', data: { stars: 5 } } },
    { name: 'custom event, refused data', method: 'POST', current: '/custom_events', legacy: '/custom_entities', body: { id: 'ev-2', customer_id: 1, slug: 'review', data: { stars: 'five' } } },
    { name: 'custom event, duplicate id', method: 'POST', current: '/custom_events', legacy: '/custom_entities', body: { id: 'ev-1', customer_id: 1, slug: 'review', data: { stars: 4 } } },
    { name: 'custom event list', method: 'GET', current: '/custom_events', legacy: '/custom_entities', query: { customer_id: '1' } },
    { name: 'custom event read', method: 'GET', current: '/custom_events/ev-1', legacy: '/custom_entities/ev-1' },
    { name: 'balance', method: 'GET', current: '/customers/1/points', legacy: '/customers/1/scores' },
    { name: 'balance by code', method: 'GET', current: '/customers/C1/points', legacy: '/customers/C1/scores', query: { search_param: 'code' } },
    { name: 'expiring', method: 'GET', current: '/customers/1/points_expiring', legacy: '/customers/1/scores_expiring' },
    { name: 'subtract', method: 'POST', current: '/points/redeem', legacy: '/scores/subtract', body: { customer_id: 1, amount: 20, comments: 'till' } },
    { name: 'subtract, no comments', method: 'POST', current: '/points/redeem', legacy: '/scores/subtract', body: { customer_id: 1, amount: 20 } },
    { name: 'cart redeem', method: 'POST', current: '/points/redeem_cart', legacy: '/scores/activity_redeem', body: { activity_id: 501, customer_id: 1, amount: 10 } },
    { name: 'cart redeem, unknown cart', method: 'POST', current: '/points/redeem_cart', legacy: '/scores/activity_redeem', body: { activity_id: 999, customer_id: 1, amount: 10 } },
    { name: 'transfer', method: 'POST', current: '/points/transfer', legacy: '/scores/transfer', body: { from_customer_id: 1, to_customer_id: 2, score: 30, comments: 'family', country: 'ES' }, headers: { 'X-Author-Email': 'crm@shop.example' } },
    { name: 'transfer, too much', method: 'POST', current: '/points/transfer', legacy: '/scores/transfer', body: { from_customer_id: 1, to_customer_id: 2, score: 100000 } },
    { name: 'transactions', method: 'GET', current: '/points/transactions', legacy: '/scores/transactions', query: { customer_id: '1', per_page: '100' } },
    { name: 'transactions of the receiver', method: 'GET', current: '/points/transactions', legacy: '/scores/transactions', query: { customer_code: 'C2', origin_type: 'transfer' } },
    { name: 'audience validation', method: 'GET', current: '/customers/1/audience_validation', legacy: '/customers/1/segment_validation', query: { segment_id: '1' } },
    { name: 'audience validation, no segment', method: 'GET', current: '/customers/1/audience_validation', legacy: '/customers/1/segment_validation' },
    { name: 'audiences', method: 'GET', current: '/customers/1/audiences', legacy: '/customers/1/segments' },
    { name: 'balance after', method: 'GET', current: '/customers/1/points', legacy: '/customers/1/scores' },
  ];

  it('answers every legacy name as its current name, step by step', async () => {
    // The trigger names the seeded campaign: by loyalty_rule_id, and by its deprecated name loyalty_score_id.
    const trigger = flow.find((s) => s.name === 'trigger')!;
    trigger.body = { ...trigger.body, loyalty_rule_id: ids.birthday };
    trigger.legacyBody = { trigger: 'birthday', customer_id: 1, loyalty_score_id: ids.birthday, comments: 'hb' };
    for (const step of flow) await both(step);
  });

  it('redeems a reward and rolls the redemption back through /redemptions', async () => {
    for (const server of [current, legacy]) {
      const redeemed = await server.client.post(`/rewards/${ids.reward}/redeem`, { location_id: 10, customer_id: 1 });
      expect(redeemed.status, redeemed.text).toBe(200);
    }
    const listed = await both({ name: 'redemptions', method: 'GET', current: '/rewards/transactions', legacy: '/redemptions', query: { customer_id: '1' } });
    const id = listed.body.data[0].id;
    await both({ name: 'rollback', method: 'POST', current: `/rewards/transactions/${id}/rollback`, legacy: `/redemptions/${id}/rollback`, body: { status_detail: 'returned' } });
    await both({ name: 'rollback again', method: 'POST', current: `/rewards/transactions/${id}/rollback`, legacy: `/redemptions/${id}/rollback`, body: { status_detail: 'twice' } });
    await both({ name: 'rollback, no detail', method: 'POST', current: `/rewards/transactions/${id}/rollback`, legacy: `/redemptions/${id}/rollback`, body: {} });
    await both({ name: 'redemptions after', method: 'GET', current: '/rewards/transactions', legacy: '/redemptions', query: { customer_id: '1' } });
  });

  it('leaves the same records: carts, ledger, balances', async () => {
    const reads: [string, Record<string, string>?][] = [
      ['/carts', { per_page: '100' }], ['/points/transactions', { per_page: '100' }], ['/customers/1/points'], ['/customers/2/points'],
      ['/custom_events'], ['/customers/1', { search_param: 'id' }],
    ];
    for (const [path, query] of reads) {
      const [a, b] = await Promise.all([current.client.get(path, { query }), legacy.client.get(path, { query })]);
      expect(normalized(b.body), path).toEqual(normalized(a.body));
    }
  });

  it('sends the same webhooks', async () => {
    const [a, b] = [receivers.get(current)!, receivers.get(legacy)!];
    await sleep(300);
    await b.waitFor(a.received.length);
    await sleep(300);
    const events = (r: Receiver) => r.received.map((e) => normalized({ ...e.event, id: undefined })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(events(b)).toEqual(events(a));
    expect(events(a).length).toBeGreaterThan(5);
  });

  it('records the same audit entries, each with the path as sent', async () => {
    const entries = async (server: TestServer) => (await server.client.get('/audit_log', { query: { per_page: '100' } })).body.data as { path: string }[];
    const [a, b] = [await entries(current), await entries(legacy)];
    expect(b.map((e) => normalized({ ...e, path: undefined }))).toEqual(a.map((e) => normalized({ ...e, path: undefined })));
    expect(b.map((e) => e.path)).toContain('/scores/transfer');
    expect(b.map((e) => e.path)).toContain('/scores/subtract');
  });
});
