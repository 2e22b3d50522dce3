/**
 * Accept-Language on instant-win reads (common rule 7): a configured
 * language (a region tag by its language, q values honoured), else the
 * Company default; no header: the default. Texts sent per language on create
 * and update are read back in each language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('instant wins in several languages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { languages: ['es', 'en', 'pt'], default_language: 'es' })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('answers name and description in the language asked, falling back to the default', async () => {
    const c = server.client;
    const created = await c.post('/instant_wins', {
      rule_params: { name: { es: 'Rasca', en: 'Scratch' }, description: { es: 'Rasca y gana', en: 'Scratch and win' } },
      instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as number;
    const texts = async (language?: string) => {
      const headers = language === undefined ? undefined : { 'Accept-Language': language };
      const [listed] = (await c.get('/instant_wins', { headers })).body.data;
      const single = (await c.get(`/instant_wins/${id}`, { headers })).body;
      expect([listed.name, listed.description]).toEqual([single.name, single.description]);
      return [single.name, single.description];
    };
    expect(await texts()).toEqual(['Rasca', 'Rasca y gana']);
    expect(await texts('en')).toEqual(['Scratch', 'Scratch and win']);
    expect(await texts('en-GB')).toEqual(['Scratch', 'Scratch and win']);
    expect(await texts('fr, en;q=0.8, es;q=0.5')).toEqual(['Scratch', 'Scratch and win']);
    // A configured language without a text of its own, an unknown one, a region of the default: the default's.
    for (const language of ['pt', 'fr', 'es-ES', 'en;q=0']) expect(await texts(language)).toEqual(['Rasca', 'Rasca y gana']);
    // An update's texts replace the stored ones, each language read back.
    expect((await c.patch(`/instant_wins/${id}`, { rule_params: { name: { es: 'Rasca ya', pt: 'Raspadinha' } } })).status).toBe(200);
    expect(await texts('pt')).toEqual(['Raspadinha', 'Rasca y gana']);
    expect(await texts('en')).toEqual(['Rasca ya', 'Scratch and win']);
  });

  it('names its effect in a cart answer in the language asked, as campaigns are', async () => {
    const created = await server.client.post('/instant_wins', {
      rule_params: { name: { es: 'Ruleta', en: 'Wheel' }, select_customers: 'loyalty' },
      instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] },
    });
    expect(created.status, created.text).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
    const nameIn = async (language: string) => {
      const cart = { customer_id: 1, creation_date: '2026-11-20T10:00:00Z', total: 5, lines: [{ order: 1, total: 5, quantity: 1 }] };
      const res = await server.client.post('/carts/simulate', cart, { headers: { 'Accept-Language': language } });
      expect(res.status, res.text).toBe(200);
      return res.body.effects.find((e: { rule_id: number }) => e.rule_id === created.body.id).rule_name;
    };
    expect([await nameIn('en'), await nameIn('es'), await nameIn('pt')]).toEqual(['Wheel', 'Ruleta', 'Ruleta']);
  });
});
