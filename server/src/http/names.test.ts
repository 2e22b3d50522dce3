/**
 * Every human-readable name a request writes (common#/$defs/name, also per
 * language: campaigns, coupons, rewards, challenges, tiers, games and their
 * prizes, instant-win prizes, custom event definitions, customers, audiences,
 * company data) is 1 to 255 characters without a control character: anything
 * else is 400 invalid_request naming the field, and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { startServer, type TestServer } from '../testing/server.js';

type Probe = { name: string; method: 'post' | 'patch'; path: string; field: string; body: (name: unknown) => Record<string, unknown> };

const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];

const PROBES: Probe[] = [
  { name: 'campaign', method: 'post', path: '/discounts', field: 'rule_params.name', body: (name) => ({ rule_params: { name, rule_effects: effects } }) },
  { name: 'campaign, per language', method: 'post', path: '/points', field: 'rule_params.name.es', body: (name) => ({ rule_params: { name: { en: 'Points', es: name }, rule_effects: effects } }) },
  {
    name: 'coupon', method: 'post', path: '/discounts', field: 'coupon_params.name',
    body: (name) => ({ rule_params: { name: 'D', select_customers: 'targeted', rule_effects: effects }, coupon_params: { static_code: 'NEW', name } }),
  },
  { name: 'coupon (PATCH)', method: 'patch', path: '/coupons/COUPON', field: 'coupon_params.name', body: (name) => ({ coupon_params: { name } }) },
  { name: 'reward', method: 'post', path: '/rewards', field: 'name', body: (name) => ({ name, points: 1, type: 'physical' }) },
  { name: 'reward category', method: 'post', path: '/rewards', field: 'categories[0].name', body: (name) => ({ name: 'Mug', points: 1, type: 'physical', categories: [{ id: 1, name }] }) },
  { name: 'challenge', method: 'post', path: '/challenges', field: 'name', body: (name) => ({ name, attribute: 'total_spent', structure: [{ level: 1, name: 'One', threshold: 1 }] }) },
  { name: 'challenge level', method: 'post', path: '/challenges', field: 'structure[0].name', body: (name) => ({ name: 'C', attribute: 'total_spent', structure: [{ level: 1, name, threshold: 1 }] }) },
  { name: 'tier program', method: 'post', path: '/tier_programs', field: 'name', body: (name) => ({ name, attribute: 'total_spent', structure: [{ level: 1, name: 'Bronze', threshold: 0 }] }) },
  { name: 'tier level', method: 'post', path: '/tier_programs', field: 'structure[0].name', body: (name) => ({ name: 'Club', attribute: 'total_spent', structure: [{ level: 1, name, threshold: 0 }] }) },
  { name: 'game type', method: 'post', path: '/games', field: 'game.type', body: (type) => ({ rule_params: { name: 'G' }, game: { type, game_prizes: [] } }) },
  {
    name: 'game prize', method: 'post', path: '/games', field: 'game.game_prizes[0].name',
    body: (name) => ({ rule_params: { name: 'G' }, game: { type: 'wheel', game_prizes: [{ name, outcome: 'no_prize', weight: 1, stock: -1 }] } }),
  },
  {
    name: 'instant-win prize', method: 'post', path: '/instant_wins', field: 'instant_win.instant_win_prizes[0].name',
    body: (name) => ({ rule_params: { name: 'I' }, instant_win: { instant_win_prizes: [{ name, weight: 1, stock: -1 }] } }),
  },
  { name: 'custom event definition', method: 'post', path: '/custom_event_definitions', field: 'name', body: (name) => ({ slug: 'visit', name, schema: { type: 'object' } }) },
  { name: 'customer', method: 'post', path: '/customers', field: 'name', body: (name) => ({ id: 2, name, registration_location_id: 1 }) },
  { name: 'customer (PATCH)', method: 'patch', path: '/customers/1', field: 'name', body: (name) => ({ name }) },
  { name: 'audience', method: 'patch', path: '/company', field: 'audiences[0].name', body: (name) => ({ audiences: [{ id: 1, name, rule: {} }] }) },
  { name: 'product', method: 'post', path: '/products', field: 'name', body: (name) => ({ id: 1, name }) },
  { name: 'location', method: 'patch', path: '/locations/1', field: 'name', body: (name) => ({ name }) },
];

const REFUSED: [string, string][] = [
  ['256 characters', 'n'.repeat(256)],
  ['empty', ''],
  ['NUL', 'Gold\u0000'],
  ['DEL', 'Gold\u007f'],
  ['a line break', 'Gold\nTier'],
  ['an escape sequence', '\u001b[31mGold'],
];

describe('names', () => {
  let server: TestServer;
  let coupon: string;
  const audit = async () => (await server.client.get('/audit_log', { query: { per_page: '100' } })).body;
  let before: unknown;

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', { id: 1, name: 'Barcelona', country: 'ES' })).status).toBe(200);
    await createCustomer(server.client, 1);
    const campaign = await server.client.post('/discounts', {
      rule_params: { name: 'Spring', select_customers: 'targeted', rule_effects: effects },
      coupon_params: { static_code: 'SPRING', name: 'Spring' },
    });
    expect(campaign.status, campaign.text).toBe(200);
    coupon = String((await server.client.get(`/discounts/${campaign.body.id}`)).body.coupon_info.coupon_id);
    before = await audit();
  });
  afterAll(() => server.dispose());

  it.each(PROBES)('$name: refused when too long, empty or with a control character, naming $field', async (probe) => {
    const path = probe.path.replace('COUPON', coupon);
    for (const [what, name] of REFUSED) {
      const res = await server.client[probe.method](path, probe.body(name));
      expect(`${what}: ${res.status} ${res.body?.code} ${res.body?.error}`).toMatch(/^[^:]+: 400 invalid_request /);
      expect(res.body.error.startsWith(`${probe.field}:`), `${what}: ${res.body.error}`).toBe(true);
    }
  });

  it('wrote nothing', async () => {
    expect(await audit()).toEqual(before);
  });

  it('accepts a name of 255 characters, and any printable text', async () => {
    for (const [id, name] of [[10, 'n'.repeat(255)], [11, 'Pan ✨ Ñandú «VIP»']] as const) {
      const res = await server.client.post('/products', { id, name });
      expect(res.status, res.text).toBe(200);
      expect((await server.client.get(`/products/${id}`)).body).toMatchObject({ id, name });
    }
  });
});
