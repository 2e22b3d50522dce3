/**
 * A text sent per language (`{es: ..., en: ...}`: names and descriptions of
 * campaigns, coupons, rewards, challenges, games and instant wins) holds the
 * Company's default language and only languages the Company configures
 * (common rule 7): anything else is 400 invalid_request naming the field, and
 * writes nothing. Texts stored before a language was removed keep reading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

type Probe = { name: string; method: 'post' | 'patch'; path: string; field: string; body: (text: unknown) => Record<string, unknown> };

const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];
const prizes = { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] };
const wheel = { type: 'wheel', game_prizes: [{ name: 'Nothing', outcome: 'no_prize', weight: 1, stock: -1 }] };
const level = [{ level: 1, name: 'One', threshold: 1 }];

/** Ids of what the probes update, by the word that stands for them in a path (set before any probe runs). */
const ids: Record<string, string> = {};

const PROBES: Probe[] = [
  { name: 'discount name', method: 'post', path: '/discounts', field: 'rule_params.name', body: (name) => ({ rule_params: { name, rule_effects: effects } }) },
  { name: 'points description', method: 'post', path: '/points', field: 'rule_params.description', body: (description) => ({ rule_params: { name: 'P', description, rule_effects: effects } }) },
  { name: 'discount name (PATCH)', method: 'patch', path: '/discounts/CAMPAIGN', field: 'rule_params.name', body: (name) => ({ rule_params: { name } }) },
  {
    name: 'coupon name', method: 'post', path: '/discounts', field: 'coupon_params.name',
    body: (name) => ({ rule_params: { name: 'D', select_customers: 'targeted', rule_effects: effects }, coupon_params: { static_code: 'NEW', name } }),
  },
  { name: 'coupon description (POST /coupons)', method: 'post', path: '/coupons', field: 'coupon_params.description', body: (description) => ({ loyalty_rule_id: ids.BARE, coupon_params: { description } }) },
  { name: 'coupon name (PATCH)', method: 'patch', path: '/coupons/COUPON', field: 'coupon_params.name', body: (name) => ({ coupon_params: { name } }) },
  { name: 'reward name', method: 'post', path: '/rewards', field: 'name', body: (name) => ({ name, points: 1, type: 'physical' }) },
  { name: 'reward description (PATCH)', method: 'patch', path: '/rewards/REWARD', field: 'description', body: (description) => ({ description }) },
  { name: 'challenge name', method: 'post', path: '/challenges', field: 'name', body: (name) => ({ name, attribute: 'total_spent', structure: level }) },
  { name: 'challenge description (PATCH)', method: 'patch', path: '/challenges/CHALLENGE', field: 'description', body: (description) => ({ description }) },
  { name: 'game name', method: 'post', path: '/games', field: 'rule_params.name', body: (name) => ({ rule_params: { name }, game: wheel }) },
  { name: 'game description (PATCH)', method: 'patch', path: '/games/GAME', field: 'rule_params.description', body: (description) => ({ rule_params: { description } }) },
  { name: 'instant win name', method: 'post', path: '/instant_wins', field: 'rule_params.name', body: (name) => ({ rule_params: { name }, instant_win: prizes }) },
  { name: 'instant win name (PATCH)', method: 'patch', path: '/instant_wins/INSTANT', field: 'rule_params.name', body: (name) => ({ rule_params: { name } }) },
];

/** Each refused text: the field below the probe's that is named (`''`: the probe's own), and the message. */
const REFUSED: [string, Record<string, string>, string, string][] = [
  ['only a language not configured', { fr: 'Solde' }, '.fr', "fr is not one of the Company's languages (es, en, pt)"],
  ['the default and a language not configured', { es: 'Rebajas', en: 'Sale', de: 'Ausverkauf' }, '.de', "de is not one of the Company's languages (es, en, pt)"],
  ['no text in the default language', { en: 'Sale', pt: 'Saldos' }, '', "must have a text in es, the Company's default language"],
];

describe('texts per language', () => {
  let server: TestServer;
  const audit = async () => (await server.client.get('/audit_log', { query: { per_page: '100' } })).body;
  let before: unknown;

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    expect((await c.patch('/company', { languages: ['es', 'en', 'pt'], default_language: 'es' })).status).toBe(200);
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await c.post(path, body);
      expect(res.status, res.text).toBe(200);
      return String(res.body.id);
    };
    ids.CAMPAIGN = await created('/discounts', {
      rule_params: { name: { es: 'Primavera', en: 'Spring' }, select_customers: 'targeted', rule_effects: effects },
      coupon_params: { static_code: 'SPRING', name: { es: 'Primavera', pt: 'Primavera' } },
    });
    ids.COUPON = String((await c.get(`/discounts/${ids.CAMPAIGN}`)).body.coupon_info.coupon_id);
    ids.BARE = await created('/discounts', { rule_params: { name: 'Bare', rule_effects: effects } });
    ids.REWARD = await created('/rewards', { name: { es: 'Taza', en: 'Mug' }, points: 1, type: 'physical' });
    ids.CHALLENGE = await created('/challenges', { name: 'Gasta', attribute: 'total_spent', structure: level });
    ids.GAME = await created('/games', { rule_params: { name: 'Ruleta' }, game: wheel });
    ids.INSTANT = await created('/instant_wins', { rule_params: { name: 'Rasca' }, instant_win: prizes });
    before = await audit();
  });
  afterAll(() => server.dispose());

  it.each(PROBES)('$name: refused without the default language or with one the Company does not configure', async (probe) => {
    const path = probe.path.replace(/[A-Z]+/, (key) => ids[key]);
    for (const [what, text, below, message] of REFUSED) {
      const res = await server.client[probe.method](path, probe.body(text));
      expect(`${what}: ${res.status} ${res.body?.code}`).toBe(`${what}: 400 invalid_request`);
      expect(res.body.error).toBe(`${probe.field}${below}: ${message}`);
    }
  });

  it('wrote nothing', async () => {
    expect(await audit()).toEqual(before);
  });

  it('accepts a text in the default language alone, or with any configured languages', async () => {
    const c = server.client;
    const reward = await c.post('/rewards', { name: { es: 'Bolsa' }, description: { es: 'Tela', en: 'Cloth', pt: 'Pano' }, points: 1, type: 'physical' });
    expect(reward.status, reward.text).toBe(200);
    expect((await c.get(`/rewards/${reward.body.id}`, { headers: { 'Accept-Language': 'pt' } })).body).toMatchObject({ name: 'Bolsa', description: 'Pano' });
  });

  it('is no keyword of the schemas a Company writes, which are checked without a Company', async () => {
    const res = await server.client.post('/custom_event_definitions', { slug: 'visit', name: 'Visit', schema: { type: 'object', properties: { note: { languageTexts: true } } } });
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    expect(res.body.error).toMatch(/^schema: is not a valid JSON Schema: .*languageTexts/);
  });

  it('keeps reading texts stored in a language the Company no longer configures, and takes updates that do not send them', async () => {
    const c = server.client;
    expect((await c.patch('/company', { languages: ['es', 'en', 'pt', 'fr'] })).status).toBe(200);
    const created = await c.post('/rewards', { name: { es: 'Gorra', fr: 'Casquette' }, points: 1, type: 'physical' });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    expect((await c.get(`/rewards/${id}`, { headers: { 'Accept-Language': 'fr' } })).body.name).toBe('Casquette');
    // French removed, then the default moved to English, which the text lacks: reads fall back as they do.
    expect((await c.patch('/company', { languages: ['es', 'en', 'pt'] })).status).toBe(200);
    expect((await c.get(`/rewards/${id}`, { headers: { 'Accept-Language': 'fr' } })).body.name).toBe('Gorra');
    expect((await c.patch(`/rewards/${id}`, { points: 2 })).status).toBe(200);
    expect((await c.patch('/company', { default_language: 'en' })).status).toBe(200);
    expect((await c.get(`/rewards/${id}`)).body).toMatchObject({ name: 'Gorra', points: 2 });
    // Sending the stored text again is a write like any other: refused, naming the language.
    const resent = await c.patch(`/rewards/${id}`, { name: { es: 'Gorra', fr: 'Casquette' } });
    expect([resent.status, resent.body.error]).toEqual([400, "name.fr: fr is not one of the Company's languages (es, en, pt)"]);
  });
});
