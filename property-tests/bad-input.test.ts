/**
 * Bad input, for every operation of the routing table, over HTTP against one
 * real server: the answer is never a 5xx, a hang or a crash; a 4xx is the
 * contract's `{error, code}` with a code of its error table at that code's
 * status; a body that is not a JSON object, or that its request schema
 * refuses, is never answered 2xx; and a refused request leaves no trace: every
 * named LMDB database of the DATA_DIR reads the same before and after it
 * (read from this process: LMDB is multi-process safe).
 *
 * Each request is a mutation of a valid-looking one (seeded records, so
 * lookups find them): a path value made hostile, a query parameter mangled,
 * repeated or unknown, or a body with a field dropped, replaced by a hostile
 * value (another JSON type, numbers at and beyond their bounds, long strings,
 * NUL, a lone surrogate, nested containers) or added, or a body that is not an
 * object at all. A 2xx is allowed for a body the schema accepts (the store is
 * then read again); semantic refusals are the routes' and are 4xx like any.
 *
 * So that every handler is exercised past its first check, each operation's
 * base request, unmutated, must be answered 2xx (on a second server seeded
 * alike, so the sweep's store stays as seeded); the sweep reports the
 * operations none of whose mutations was answered 2xx.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { open, type RootDatabase } from 'lmdb';
import { storeSnapshots, type Snapshot } from './store-snapshot.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, statusOf, type ErrorCode } from '../engine/src/index.js';
import { parseJsonObject } from '../server/src/http/json.js';
import { OPERATIONS, type OperationId } from '../server/src/http/operations.js';
import { createAjv, SCHEMA_DOCUMENTS } from '../server/src/http/validation.js';
import { REQUEST_SCHEMAS, RESPONSE_BODIES } from '../server/src/openapi/bodies.js';
import { PAGE_PARAMETERS, QUERY_PARAMETERS } from '../server/src/openapi/parameters.js';
import { cartBody } from '../server/src/testing/carts.js';
import type { CompanySettings } from '../server/src/tenancy/types.js';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../server/src/testing/server.js';
import { sleep } from '../server/src/webhooks/testing.js';

// Fixed, so CI is repeatable; FUZZ_SEED and FUZZ_RUNS explore further by hand (fast-check prints the seed of a failure).
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 60);
const ANSWER_WITHIN_MS = 5000;

/** A JSON text put in a body as is: numbers JSON.stringify cannot write (beyond 2^53, -0, 1e400). */
class Raw {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

/** What replaces a field: every JSON type, numbers at and beyond bounds, hostile strings, containers. */
const HOSTILE_VALUES: unknown[] = [
  null, true, false, 0, -1, new Raw('-0'), 1.5, -1.5, 100, new Raw('9007199254740993'), new Raw('9223372036854775807'),
  new Raw('9223372036854775808'), new Raw('-9223372036854775809'), new Raw('1e308'), new Raw('-1e308'), new Raw('1e400'), new Raw('1e-400'),
  '', ' ', 'a'.repeat(300), 'a'.repeat(100_000), 'a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\u202eabc\u202c', 'مرحبا', '0', '-1', '1.5', 'abc',
  '9223372036854775808', '2020-13-45', '2026-02-30T25:61:00Z', 'true', 'null', '__proto__',
  {}, [], [null], [[1]], { a: { b: [1] } }, new Raw('{"__proto__":{"polluted":1}}'), nested(60), [''.padEnd(300, 'x')],
];

/** Whole bodies that are not a JSON object, or not JSON. */
const HOSTILE_BODIES = ['[]', '1', '"x"', 'null', 'true', '{"a":', '{', '}', '{}}', '\u0000', 'NaN', "{'a':1}", '[' .repeat(100) + ']'.repeat(100), '{"a":1,}'];

const HOSTILE_PATH_VALUES = ['abc', '-1', '0', '9223372036854775807', '9223372036854775808', '%00', 'a'.repeat(300), '%E0%A4%A', '%2F', '1.5', ' 1', '%20'];

const HOSTILE_QUERY_VALUES = ['', 'abc', '-1', '0', '1.5', '1000000', '9223372036854775808', '%00', 'a'.repeat(300), '%E0%A4%A', 'true', 'yes', '2020-13-45', '[]', '{}'];

/**
 * Operations whose success leaves a write for after the answer: transfer-new completes its merge
 * (TALLY_MERGE_DELAY_MS=0: at once), and a customer created with referred_by leaves a pending
 * trigger the refer_a_friend consumer takes within its 200 ms poll.
 */
const BACKGROUND_WRITES_MS: Partial<Record<OperationId, number>> = { 'merges.transfer_new': 200, 'customers.create': 500 };

interface Seeded {
  [name: string]: string;
}

type Path = (string | number)[];

type BodyMutation =
  | { kind: 'none' }
  | { kind: 'drop'; path: Path }
  | { kind: 'replace'; path: Path; value: unknown }
  | { kind: 'extra'; path: Path; key: string; value: unknown }
  | { kind: 'whole'; text: string };

type QueryMutation = { kind: 'set' | 'add'; name: string; value: string };

interface Case {
  params: Record<string, string>;
  query: QueryMutation[];
  body: BodyMutation[];
}

/** Every path inside a JSON value (objects' keys and arrays' indexes), the root excluded. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  }
  return [];
}

function objectPaths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const inner = Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...prefix, Array.isArray(value) ? Number(key) : key]));
  return Array.isArray(value) ? inner : [prefix, ...inner];
}

/** The body's text after the mutations, in order (one that no longer finds its path, after a drop, does nothing). */
function applyMutations(base: unknown, mutations: BodyMutation[]): string {
  const whole = mutations.find((m) => m.kind === 'whole');
  if (whole) return whole.text;
  const body = structuredClone(base) as Record<string | number, unknown>;
  const at = (path: Path) => path.reduce<any>((node, key) => (typeof node === 'object' && node !== null ? node[key] : undefined), body);
  for (const mutation of mutations) {
    if (mutation.kind === 'none' || mutation.kind === 'whole') continue;
    const target = at(mutation.kind === 'extra' ? mutation.path : mutation.path.slice(0, -1));
    if (typeof target !== 'object' || target === null || target instanceof Raw) continue;
    if (mutation.kind === 'extra') {
      // defineProperty: assigning `__proto__` would set the prototype instead of adding a field.
      Object.defineProperty(target, mutation.key, { value: mutation.value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const last = mutation.path[mutation.path.length - 1];
    if (mutation.kind === 'replace') target[last] = mutation.value;
    else if (Array.isArray(target)) target.splice(last as number, 1);
    else delete target[last];
  }
  return toJson(body);
}

function arbBodyMutation(base: unknown): fc.Arbitrary<BodyMutation> {
  const paths = pathsOf(base);
  const objects = objectPaths(base);
  const value = fc.constantFrom(...HOSTILE_VALUES);
  const options: fc.Arbitrary<BodyMutation>[] = [
    fc.constant({ kind: 'none' as const }),
    fc.constantFrom(...HOSTILE_BODIES).map((text) => ({ kind: 'whole' as const, text })),
    fc.record({ kind: fc.constant('extra' as const), path: fc.constantFrom(...objects), key: fc.constantFrom('unknown_field', '__proto__', 'constructor', ''), value }),
  ];
  if (paths.length > 0) {
    options.push(fc.record({ kind: fc.constant('drop' as const), path: fc.constantFrom(...paths) }));
    options.push(fc.record({ kind: fc.constant('replace' as const), path: fc.constantFrom(...paths), value }));
    options.push(fc.record({ kind: fc.constant('replace' as const), path: fc.constantFrom(...paths), value }));
  }
  return fc.oneof(...options);
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

function urlOf(path: string, params: Record<string, string>, query: [string, string][]): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  // Hostile values are sent raw (an invalid percent-encoding included); valid ones are encoded.
  const text = query.map(([name, value]) => `${encodeURIComponent(name)}=${/%|^$/.test(value) ? value : encodeURIComponent(value)}`).join('&');
  return text ? `${filled}?${text}` : filled;
}

function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  // The same snapshot: no transaction committed in between (storeSnapshots).
  if (before === after) return [];
  const changes: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name);
    const b = after.get(name);
    if (!a || !b) {
      changes.push(`database ${name} ${a ? 'removed' : 'created'}`);
      continue;
    }
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      if (a.get(key) === b.get(key)) continue;
      const shown = Buffer.from(key, 'hex').toString('latin1').replace(/[^\x20-\x7e]/g, '.');
      changes.push(`${name}: ${!a.has(key) ? 'added' : !b.has(key) ? 'removed' : 'changed'} ${shown}`);
    }
  }
  return changes;
}

describe('bad input, for every operation', () => {
  let server: TestServer;
  /** A second server seeded alike, where every base request is sent once, unmutated (the sweep's store stays as seeded). */
  let baseline: TestServer | undefined;
  let baselineSeeded: Seeded;
  let store: RootDatabase;
  let seeded: Seeded;
  let ajv: Ajv;
  const checks = new Map<string, ValidateFunction>();
  /** Per operation, how many of the sweep's requests were answered 2xx and 4xx: how deep its handler was exercised. */
  const answers = new Map<OperationId, { ok: number; refused: number }>();

  const snapshot = storeSnapshots(() => store);

  async function send(target: TestServer, method: string, url: string, body: string | undefined, jsonContentType: boolean) {
    const headers: Record<string, string> = { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' };
    if (body !== undefined || jsonContentType) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${target.url}${url}`, { method, headers, body, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    return { status: res.status, text: await res.text() };
  }

  async function seed(target: TestServer): Promise<Seeded> {
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await target.client.request(method, path, { body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
      return res.body;
    };
    await ok('POST', '/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' });
    for (let id = 1; id <= 10; id++) await ok('POST', '/customers', { id, code: `C${id}`, name: `Customer ${id}`, email: `c${id}@example.com`, registration_location_id: 1 });
    await ok('POST', '/customers', { id: 9223372036854775807n, name: 'Largest id', registration_location_id: 1 });
    await ok('POST', '/associations', { customer_id: 1, associate_customer_id: 2, relationship_type: 'child' });
    await ok('POST', '/taxonomies', { slug: 'family', name: 'Family' });
    await ok('POST', '/taxonomies/family/features', { id: 2, name: 'Bakery' });
    await ok('POST', '/locations/taxonomies', { slug: 'region', name: 'Region' });
    await ok('POST', '/locations/taxonomies/region/features', { id: 1, name: 'North' });
    // What the deletions remove: nothing holds them, so they can go.
    await ok('POST', '/taxonomies', { slug: 'season', name: 'Season' });
    await ok('POST', '/taxonomies/family/features', { id: 4, name: 'Unused' });
    await ok('POST', '/locations/taxonomies', { slug: 'climate', name: 'Climate' });
    await ok('POST', '/locations/taxonomies/region/features', { id: 3, name: 'Unused' });
    // What unmerge undoes.
    await ok('POST', '/customers/transfer', { old_customer_id: 9, new_customer_id: 10 });
    await ok('POST', '/products', { id: 1, name: 'Bread', features: [{ taxonomy_slug: 'family', id: 2 }] });
    await ok('POST', '/promotions', { id: 1, name: 'Summer' });
    const points = await ok('POST', '/points', { rule_params: { name: 'Welcome', when: 'welcome', rule_effects: [{ type: 'direct_value', value: 100, distribution: 'total' }] } });
    await ok('POST', '/trigger', { trigger: 'welcome', customer_id: 1, loyalty_rule_id: points.id });
    const discount = await ok('POST', '/discounts', {
      rule_params: { name: 'Two off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 2, distribution: 'total' }] },
      coupon_params: { static_code: 'SPRING', name: 'Spring', max_redemptions: 100, printable: true },
    });
    const coupon = (await target.client.get(`/discounts/${discount.id}`)).body.coupon_info.coupon_id;
    await ok('POST', '/discounts/trigger', { customer_id: 1, loyalty_rule_id: discount.id, external_voucher_code: 'V1' });
    const bare = await ok('POST', '/discounts', { rule_params: { name: 'Bare', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    const reward = await ok('POST', '/rewards', { name: 'Mug', points: 0, type: 'physical' });
    const redemption = await ok('POST', `/rewards/${reward.id}/redeem`, { customer_id: 1, location_id: 1 });
    const game = await ok('POST', '/games', { rule_params: { name: 'Wheel', select_customers: 'targeted' }, game: { type: 'wheel', game_prizes: [] } });
    const instantWin = await ok('POST', '/instant_wins', {
      rule_params: { name: 'Scratch', select_customers: 'loyalty' },
      instant_win: { instant_win_prizes: [{ name: 'Mug', outcome: { promotion_type: 'reward', promotion_id: reward.id }, weight: 1, stock: 3 }] },
    });
    const challenge = await ok('POST', '/challenges', { name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Starter', threshold: 30, points: 5 }] });
    const program = await ok('POST', '/tier_programs', { name: 'Club', attribute: 'total_spent', structure: [{ level: 1, name: 'Bronze', threshold: 0 }, { level: 2, name: 'Gold', threshold: 100 }] });
    await ok('POST', '/custom_event_definitions', { slug: 'visit', name: 'Visit', schema: { type: 'object' } });
    const event = await ok('POST', '/custom_events', { slug: 'visit', customer_id: 1, data: {} });
    // Port 9 (discard) refuses the connection: with one retry the delivery fails within a few polls, and can be retried.
    // Then the dispatcher is turned off, so nothing writes in the background during the sweep.
    const webhook = await ok('POST', '/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['customer.updated'] });
    await ok('PATCH', '/customers/8', { name: 'Hooked' });
    const deliveryOf = async () => (await target.client.get(`/webhooks/${webhook.id}/deliveries`)).body.data[0] as { id: number; status: string };
    let delivery = await deliveryOf();
    for (const until = Date.now() + 5000; delivery.status !== 'failed' && Date.now() < until; delivery = await deliveryOf()) await sleep(20);
    expect(delivery.status).toBe('failed');
    await target.restart({ WEBHOOK_POLL_INTERVAL_MS: '0' });
    // Texts per language must be in the Company's languages: the base bodies write English and Spanish.
    await ok('PATCH', '/company', {
      cart_cancellation_wait_seconds: 0, languages: ['en', 'es'],
      audiences: [{ id: 1, name: 'Spain', rule: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } } }],
    });
    await ok('POST', '/carts/realtime', cartBody(10, { id: 1, code: 'CART-1', customer_id: 1 }));
    await ok('POST', '/carts/realtime', cartBody(20, { id: 2, code: 'CART-2', customer_id: 1 }));
    const page = (await target.client.get('/customers/1/attributes', { query: { per_page: '1' } })).body;
    const token = (await target.client.get('/rewards/transactions', { query: { per_page: '1' } })).body.next_token_starts_after
      ?? (await target.client.get('/carts', { query: { per_page: '1' } })).body.next_token_starts_after;
    expect(token, JSON.stringify(page)).toBeTypeOf('string');
    return {
      points: String(points.id), discount: String(discount.id), bare: String(bare.id), coupon: String(coupon), reward: String(reward.id),
      redemption: String(redemption.redemption_id), game: String(game.id), instantWin: String(instantWin.id), challenge: String(challenge.id),
      program: String(program.id), event: String(event.id), webhook: String(webhook.id), delivery: String(delivery.id), token,
    };
  }

  /** Seeded values of an operation's path parameters, so that its lookups find a record. */
  function validParams(op: OperationId, path: string, seeded: Seeded): Record<string, string> {
    const resource = op.split('.')[0];
    const byResource: Record<string, string> = {
      customers: '1', associations: '1', merges: '9', carts: '1', custom_events: seeded.event, discounts: seeded.discount, points: seeded.points, games: seeded.game,
      instant_wins: seeded.instantWin, rewards: seeded.reward, challenges: seeded.challenge, tier_programs: seeded.program, coupons: seeded.coupon,
      vouchers: 'V1', products: '1', taxonomies: 'family', features: '2', locations: '1', location_taxonomies: 'region', location_features: '1', promotions: '1',
      webhooks: seeded.webhook,
    };
    const params: Record<string, string> = {};
    for (const name of pathParamNames(path)) {
      params[name] = byResource[resource];
      if (name === 'taxonomy_slug') params[name] = resource === 'features' ? 'family' : 'region';
    }
    if (op === 'points.balance' || op === 'points.expiring' || op === 'vouchers.selected' || op === 'challenges.customer_list') {
      params[pathParamNames(path)[0]] = '1';
    }
    if (op === 'challenges.customer_get') params.value = '1';
    if (op === 'rewards.rollback') params.id = seeded.redemption;
    if (op === 'webhooks.retry_delivery') params.delivery_id = seeded.delivery;
    if (op === 'taxonomies.delete') params.slug = 'season';
    if (op === 'features.delete') params.id = '4';
    if (op === 'location_taxonomies.delete') params.slug = 'climate';
    if (op === 'location_features.delete') params.id = '3';
    return params;
  }

  /** A request body the operation's schema accepts, naming seeded records. */
  function baseBody(op: OperationId, seeded: Seeded): Record<string, unknown> | undefined {
    const cart = (fields: Record<string, unknown> = {}) => cartBody(10, { customer_id: 1, ...fields });
    const bodies: Partial<Record<OperationId, Record<string, unknown>>> = {
      'messages.print': { width: 16, messages: [{ text: 'Hello' }] },
      'company.update': { cart_cancellation_wait_seconds: 0, languages: ['en', 'es'], default_language: 'en', currency: 'EUR' },
      'customers.create': {
        id: 100, code: 'NEW', name: 'New', email: 'new@example.com', phone: '600000000', phone_prefix: '+34', birth: '1990-01-31', country: 'ES',
        registration_location_id: 1, status: 'active', terms: true, password: 'secret123', password_confirmation: 'secret123', referred_by: 1, attributes: {},
      },
      'customers.search': { id: 1 },
      'customers.update': { name: 'Renamed', email: 'renamed@example.com' },
      'customers.cards': { id: 700, main: true },
      'associations.create': { customer_id: 1, associate_customer_id: 3, relationship_type: 'child' },
      'associations.update': { customer_id: 1, associate_customer_id: 2, relationship_type: 'child', main: false },
      'merges.transfer': { old_customer_id: 4, new_customer_id: 5, motive: 'lost card' },
      'merges.transfer_new': { old_customer_id: 6, new_customer_id: 7 },
      'carts.simulate': cart({
        coupons_desired: ['SPRING'], vouchers_desired: ['SPRING'], location_id: 1, currency: 'EUR', payments: [{ amount: 10, type: 'card', change: 0 }],
        promotions: [{ promotion_id: 1, discount: 0.5, line_order: 1 }], attributes: {},
      }),
      'carts.realtime': cart({ id: 10, code: 'CART-10' }),
      'carts.create': cartBody(-10, { id: 11, code: 'CART-11', customer_id: 1, lines: [{ order: 1, product_id: 1, total: -10, quantity: -1 }], returns: [{ ticket_id: 1, line_order: 1, from_line_order: 1, quantity: -1 }] }),
      'carts.cancellation': { cart_to_cancel_id: 2, new_cart_id: 12 },
      'custom_events.create': { slug: 'visit', customer_id: 1, data: { a: 1 } },
      'custom_event_definitions.create': { slug: 'shop', name: 'Shop', schema: { type: 'object' } },
      'triggers.trigger': { trigger: 'welcome', customer_id: 1, loyalty_rule_id: seeded.points },
      'discounts.create': {
        rule_params: {
          name: 'D', available_from: '2026-01-01T10:00:00Z', available_to: '2036-12-31T23:59:59Z', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
          rule_conditions: { conditions: { and: [{ field: 'location_id', operator: 'in', values: [1] }, { field: 'total', operator: 'gt', value: 5 }] } },
        },
        coupon_params: { static_code: 'NEWCODE', name: 'New', max_redemptions: 3 },
      },
      'discounts.update': { rule_params: { name: 'Renamed', rule_effects: [{ type: 'direct_value', value: 3, distribution: 'total' }] } },
      'discounts.redeem': { static_code: 'SPRING', customer_id: 1, cart_id: 1, discount: 1 },
      'discounts.trigger': { customer_id: 2, loyalty_rule_id: seeded.discount },
      'games.play': { customer_id: 1 },
      'games.create': { rule_params: { name: 'Wheel 2' }, game: { type: 'wheel', game_prizes: [] } },
      'games.update': { rule_params: { name: 'Wheel 3' } },
      'games.assign': { customer_id: 1 },
      'instant_wins.create': {
        rule_params: { name: 'Scratch 2', select_customers: 'loyalty' },
        instant_win: { instant_win_prizes: [{ name: 'Mug', outcome: { promotion_type: 'reward', promotion_id: seeded.reward }, weight: 1, stock: 3 }] },
      },
      'instant_wins.update': { rule_params: { name: 'Scratch 3' } },
      'points.create': { rule_params: { name: 'P', when: 'welcome', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] } },
      'points.update': { rule_params: { name: 'Welcome 2' } },
      'points.redeem': { customer_id: 1, amount: 1, comments: 'gift' },
      'points.redeem_cart': { activity_id: 1, customer_id: 1, amount: 1, location_id: 1 },
      'points.transfer': { score: 1, from_customer_id: 1, to_customer_id: 3 },
      'rewards.redeem': { customer_id: 1, location_id: 1 },
      'rewards.rollback': { status_detail: 'returned' },
      'rewards.create': { name: { en: 'Bag', es: 'Bolsa' }, points: 5, type: 'physical', total_stock: 2 },
      'rewards.update': { name: 'Mug 2' },
      'challenges.enroll': { customer_id: 1 },
      'challenges.create': { name: 'Visits', attribute: 'total_spent', structure: [{ level: 1, name: 'One', threshold: 10, points: 1 }] },
      'challenges.update': { name: 'Spend 2' },
      'tier_programs.create': { name: 'Club 2', attribute: 'total_spent', structure: [{ level: 1, name: 'Bronze', threshold: 0 }] },
      'tier_programs.update': { name: 'Club 3' },
      'coupons.create': { loyalty_rule_id: seeded.bare, coupon_params: { static_code: 'BARE', name: 'Bare' } },
      'coupons.update': { coupon_params: { name: 'Spring 2', max_redemptions: 50 } },
      'vouchers.redeem': { codes: ['V1'], customer_id: 1, location_id: 1 },
      'vouchers.rollback': { codes: ['V1'], customer_id: 1 },
      'vouchers.print': { codes: ['V1'], customer_id: 1 },
      'vouchers.print_put': { codes: ['V1'], customer_id: 1 },
      'vouchers.select_many': { codes: ['V1'], customer_id: 1 },
      'vouchers.deselect_many': { codes: ['V1'], customer_id: 1 },
      'vouchers.select': { customer_id: 1 },
      'vouchers.deselect': { customer_id: 1 },
      'vouchers.freeze': { customer_id: 1 },
      'vouchers.unfreeze': { customer_id: 1 },
      'products.create': { id: 2, name: 'Cake', features: [{ taxonomy_slug: 'family', id: 2 }] },
      'products.update': { name: 'Bread 2', active: true },
      'taxonomies.create': { slug: 'brand', name: 'Brand' },
      'taxonomies.update': { name: 'Family 2' },
      'features.create': { id: 3, name: 'Pastry' },
      'features.update': { name: 'Bakery 2' },
      'locations.create': { id: 2, code: 'L2', name: 'Madrid', country: 'ES', features: [{ taxonomy_slug: 'region', id: 1 }] },
      'locations.update': { name: 'Barcelona 2' },
      'location_taxonomies.create': { slug: 'size', name: 'Size' },
      'location_taxonomies.update': { name: 'Region 2' },
      'location_features.create': { id: 2, name: 'South' },
      'location_features.update': { name: 'North 2' },
      'promotions.create': { id: 2, name: 'Winter', available_from: '2026-01-01T00:00:00Z' },
      'promotions.update': { name: 'Summer 2' },
      'webhooks.create': { url: 'https://example.com/hooks', events: ['cart.created', 'customer.deleted'], description: 'ERP', active: true },
      'webhooks.update': { description: 'ERP 2', events: ['customer.updated'] },
    };
    return bodies[op];
  }

  /** Query parameters the operation requires, with valid values. */
  function baseQuery(op: OperationId): [string, string][] {
    const required: Partial<Record<OperationId, [string, string][]>> = {
      'customers.get': [['search_param', 'id']],
      'customers.export': [['search_param', 'id']],
      'customers.list': [['ids', '1,2']],
      'customers.delete': [['hard', 'false']],
      'customers.audience_validation': [['segment_id', '1']],
      'associations.delete': [['customer_id', '1'], ['associate_customer_id', '2']],
      'merges.unmerge': [['with_activites', 'false']],
      'points.cashbacks': [['location_id', '1']],
      'vouchers.list': [['customer_id', '1']],
      'vouchers.excluded_products': [['code', 'V1']],
    };
    return required[op] ?? [];
  }

  function schemaOf(op: OperationId): string | undefined {
    const id = REQUEST_SCHEMAS[op] ?? op;
    return SCHEMA_DOCUMENTS.has(id) ? id : undefined;
  }

  /** The server's Company settings now: a text per language is checked against its languages. */
  const companySettings = async () => (await server.client.get('/company')).body as CompanySettings;

  /** Whether the server must refuse the body: not a JSON object, or refused by the operation's schema for the Company's `settings`. */
  function mustRefuse(op: OperationId, text: string | undefined, settings: CompanySettings): string | undefined {
    if (text === undefined) return undefined;
    let body: Record<string, unknown>;
    try {
      body = parseJsonObject(text);
    } catch (error) {
      return (error as Error).message;
    }
    const id = schemaOf(op);
    if (!id) return undefined;
    let check = checks.get(id);
    if (!check) checks.set(id, (check = ajv.getSchema(id)!));
    return check.call({ settings }, body) ? undefined : `schema ${id}: ${check.errors!.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`;
  }

  /** The operation's base request: valid path values, its required query parameters, its base body. */
  function baseRequest(op: OperationId, records: Seeded): { url: string; body: string | undefined } {
    const spec = OPERATIONS[op];
    const body = spec.method === 'GET' ? undefined : toJson(baseBody(op, records) ?? {});
    return { url: urlOf(spec.path, validParams(op, spec.path, records), baseQuery(op)), body };
  }

  beforeAll(async () => {
    // No background writes during the test: the points settlement sweep is off, merges complete at once, the webhook dispatcher is off after seed().
    const start = () => startServer({ env: { POINTS_SETTLEMENT_INTERVAL_MS: '0', TALLY_MERGE_DELAY_MS: '0', WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_SECONDS: '0' } });
    [server, baseline] = await Promise.all([start(), start()]);
    ajv = createAjv({ requests: true });
    for (const document of SCHEMA_DOCUMENTS.values()) ajv.addSchema(document);
    [seeded, baselineSeeded] = await Promise.all([seed(server), seed(baseline)]);
    store = open({ path: server.dataDir, readOnly: true, maxDbs: 256 });
  });

  afterAll(async () => {
    await store?.close();
    await Promise.all([server?.dispose(), baseline?.dispose()]);
  });

  it('every base body is one its schema accepts (the mutations start from valid requests)', async () => {
    const settings = await companySettings();
    for (const op of Object.keys(OPERATIONS) as OperationId[]) {
      const id = schemaOf(op);
      if (!id || OPERATIONS[op].method === 'GET') continue;
      const base = baseBody(op, seeded);
      expect(base, `${op} has no base body`).toBeDefined();
      expect(mustRefuse(op, toJson(base), settings), op).toBeUndefined();
    }
  });

  // Deletions last: the other operations find the records they would remove; the customer's last of all (its association goes first).
  const rank = (op: OperationId) => (op === 'customers.delete' ? 2 : Number(OPERATIONS[op].method === 'DELETE'));
  const order = (Object.keys(OPERATIONS) as OperationId[]).sort((a, b) => rank(a) - rank(b));

  // Otherwise a handler the sweep never gets past its first check is only tested up to that check.
  it('every base request, unmutated, is answered 2xx (in the sweep\'s order, on the baseline server)', async () => {
    const refused: string[] = [];
    for (const op of order) {
      const spec = OPERATIONS[op];
      const { url, body } = baseRequest(op, baselineSeeded);
      const res = await send(baseline!, spec.method, url, body, 'jsonContentType' in spec);
      if (res.status >= 300) refused.push(`${op}: ${spec.method} ${url} ${body ?? ''} -> ${res.status} ${res.text}`);
      const settling = BACKGROUND_WRITES_MS[op];
      if (settling) await sleep(settling);
    }
    await baseline!.dispose();
    baseline = undefined;
    expect(refused).toEqual([]);
  });

  it.each(order)('%s', async (op) => {
    const spec = OPERATIONS[op];
    const names = pathParamNames(spec.path);
    const valid = validParams(op, spec.path, seeded);
    const base = spec.method === 'GET' ? undefined : baseBody(op, seeded) ?? {};
    const count = { ok: 0, refused: 0 };
    answers.set(op, count);
    const known = [...(QUERY_PARAMETERS[op] ?? []), ...(RESPONSE_BODIES[op]?.wrap === 'page' ? PAGE_PARAMETERS : [])].map((p) => p.name);
    const token = seeded.token;
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    const cursor = (last: unknown) => Buffer.from(JSON.stringify([...decoded.slice(0, -1), last])).toString('base64url');
    const tokens = [
      token.slice(0, -2), `${token}A`, '!!!', Buffer.from('garbage').toString('base64url'), Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
      cursor({ a: 1 }), cursor(null), cursor('x\u0000y'), cursor('z'.repeat(600)), cursor([[]]), cursor(1e308),
      Buffer.from('"x"').toString('base64url'), Buffer.from('[]').toString('base64url'), Buffer.from('{}').toString('base64url'),
    ];
    const queryValue = fc.oneof(fc.constantFrom(...HOSTILE_QUERY_VALUES), fc.constantFrom(...tokens));
    const arbQuery: fc.Arbitrary<QueryMutation> = fc.record({
      kind: fc.constantFrom('set' as const, 'add' as const),
      name: fc.constantFrom(...known, 'per_page', 'starting_after', 'unknown_param', 'search_param', 'search_by', 'customer_id'),
      value: queryValue,
    });
    const arbParams = fc.record(
      Object.fromEntries(names.map((name) => [name, fc.oneof({ weight: 2, arbitrary: fc.constant(valid[name]) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_PATH_VALUES) })])),
    ) as fc.Arbitrary<Record<string, string>>;
    const arbCase: fc.Arbitrary<Case> = fc.record({
      params: arbParams,
      query: fc.array(arbQuery, { maxLength: 3 }),
      body: base === undefined ? fc.constant([]) : fc.array(arbBodyMutation(base), { minLength: 1, maxLength: 2 }),
    });

    // PATCH /company is the one operation that changes them, and writes no text per language.
    const settings = await companySettings();
    let before = snapshot();
    await fc.assert(
      fc.asyncProperty(arbCase, async (c) => {
        const query = baseQuery(op);
        for (const q of c.query) {
          const index = query.findIndex(([name]) => name === q.name);
          if (q.kind === 'set' && index >= 0) query[index] = [q.name, q.value];
          else query.push([q.name, q.value]);
        }
        const url = urlOf(spec.path, c.params, query);
        const text = base === undefined ? undefined : applyMutations(base, c.body);
        const shown = `${spec.method} ${url.slice(0, 300)} ${text?.slice(0, 300) ?? ''}`;
        let res: { status: number; text: string };
        try {
          res = await send(server, spec.method, url, text, 'jsonContentType' in spec);
        } catch (error) {
          throw new Error(`${shown}: no answer within ${ANSWER_WITHIN_MS} ms (${(error as Error).message})`);
        }
        expect(res.status, `${shown}\n${res.text}`).toBeLessThan(500);
        if (res.status < 300) count.ok++;
        else count.refused++;
        if (res.status < 300) {
          const refusal = mustRefuse(op, text, settings);
          expect(refusal, `${shown}: answered ${res.status} to a body that must be refused\n${res.text}`).toBeUndefined();
          // A request that succeeded may have written; what a later refused one must leave is this. Some
          // leave work that writes just after the answer: wait for it first.
          const settling = BACKGROUND_WRITES_MS[op];
          if (settling) await new Promise((resolve) => setTimeout(resolve, settling));
          before = snapshot();
          return;
        }
        const body = JSON.parse(res.text) as { error?: unknown; code?: unknown };
        expect(Object.keys(body).sort(), `${shown}\n${res.text}`).toEqual(['code', 'error']);
        expect(body.error, shown).toBeTypeOf('string');
        expect(body.code, shown).toBeTypeOf('string');
        const code = body.code as ErrorCode;
        expect(code !== 'server_error' && (code in ERROR_STATUS || /^[a-z_]+_not_found$/.test(code)), `${shown}: code ${code}`).toBe(true);
        expect(res.status, `${shown}: ${res.text}`).toBe(statusOf(code));
        const after = snapshot();
        expect(diffSnapshots(before, after), `${shown}: answered ${res.status} ${res.text.slice(0, 300)} yet wrote`).toEqual([]);
      }),
      { numRuns: RUNS_PER_OPERATION, seed: SEED, endOnFailure: true },
    );
  });

  it('reports the operations no mutation got past validation or lookup (at most their base request did)', () => {
    const never = [...answers].filter(([, count]) => count.ok === 0).map(([op, count]) => `${op} (${count.refused} refused)`);
    if (never.length > 0) console.info(`bad-input sweep: no 2xx among the mutations of ${never.join(', ')}`);
  });
});
