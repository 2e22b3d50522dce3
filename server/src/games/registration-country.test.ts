/**
 * customer_registration_countries of games and instant wins is the customer's
 * registration country as carts read it (its registration location's, else
 * its own country, else the Company's): a play, the lists and the single
 * read with a customer agree with the carts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('games and instant wins by registration country', () => {
  let server: TestServer;
  const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((c) => c.id);
  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    expect((await c.post('/locations', { id: 1, code: 'MAD', name: 'Madrid', country: 'ES' })).status).toBe(200);
    // Registered in a Madrid store, living in Portugal: a Spanish registration.
    expect((await c.post('/customers', { id: 13, name: 'Di', registration_location_id: 1, country: 'PT' })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  const countries = (list: string[]) => ({ customer_registration_countries: list });

  it('a game of the registration country is listed and played; one of the profile country is not', async () => {
    const c = server.client;
    const game = (name: string, params: Record<string, unknown>) => c.post('/games', {
      rule_params: { name, ...params }, game: { type: 'wheel', config: {}, template: 't', game_prizes: [{ name: 'Nothing', outcome: 'no_prize', weight: 1, stock: -1 }] },
    });
    const spain = (await game('Spain', countries(['ES']))).body.id;
    const portugal = (await game('Portugal', countries(['PT']))).body.id;
    expect(ids(await c.get('/games', { query: { customer_id: '13' } }))).toEqual([spain]);
    const played = await c.post(`/games/${spain}/play`, { customer_id: 13 });
    expect(played.body.effects).toHaveLength(1);
    expect(played.body.effects[0]).toMatchObject({ rule_id: spain, type: 'gaming', game_info: { status: 'no_prize' } });
    expect((await c.post(`/games/${portugal}/play`, { customer_id: 13 })).body).toEqual({ code: 'success', effects: [] });
  });

  it('an instant win of the registration country is listed, read and played by carts; one of the profile country is not', async () => {
    const c = server.client;
    const instantWin = async (name: string, params: Record<string, unknown>) => (await c.post('/instant_wins', {
      rule_params: { name, select_customers: 'loyalty', ...params }, instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] },
    })).body.id as number;
    const spain = await instantWin('Spain', countries(['ES']));
    const portugal = await instantWin('Portugal', countries(['PT']));
    expect(ids(await c.get('/instant_wins', { query: { customer_id: '13' } }))).toEqual([spain]);
    expect((await c.get(`/instant_wins/${spain}`, { query: { customer_id: '13' } })).status).toBe(200);
    const notHere = await c.get(`/instant_wins/${portugal}`, { query: { customer_id: '13' } });
    expect([notHere.status, notHere.body.code]).toEqual([404, 'instant_win_not_found']);
    // The cart takes part in the one the list shows, and only in it.
    const cart = await c.post('/carts/simulate', cartBody(10, { customer_id: 13 }));
    const played = cart.body.effects.filter((e: { type: string }) => e.type === 'instant_win').map((e: { rule_id: number }) => e.rule_id);
    expect(played).toEqual([spain]);
  });
});
