/**
 * A stored game that no longer compiles (stored before a stricter rule, here the conditions cap, written straight into
 * the store while the server is stopped): its single read answers the error, as discount, points and instant-win reads do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overConditionsCap, rewriteStored } from '../campaigns/testing.js';
import { startServer, type TestServer } from '../testing/server.js';
import { GameStore } from './store.js';
import type { GameRecord } from './types.js';

describe('a stored game that no longer compiles, its single read says why', () => {
  let server: TestServer;
  let good: number;
  let bad: number;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '0' } });
    const game = (name: string) => ({
      rule_params: { name, select_customers: 'loyalty' },
      game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 }] },
    });
    const ids: number[] = [];
    for (const name of ['Good wheel', 'Bad wheel']) {
      const created = await server.client.post('/games', game(name));
      expect(created.status, created.text).toBe(200);
      ids.push(created.body.id);
    }
    [good, bad] = ids;
    expect((await server.client.post('/customers', { id: 1, name: 'Player', registration_location_id: 1 })).status).toBe(200);
    const overCap = overConditionsCap({ field: 'customer.country', operator: 'neq', value: 'XX' });
    await rewriteStored<GameRecord>(server, (env) => new GameStore(env), bad, (params) => ({ ...params, rule_conditions: overCap }));
  });
  afterAll(() => server.dispose());

  it("its single read answers the compile error, naming the rule; a good one's is null, and a list item has none", async () => {
    const read = await server.client.get(`/games/${bad}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.compile_error).toEqual({ code: 'invalid_request', message: expect.stringMatching(/^rule_params\.rule_conditions/) });
    expect((await server.client.get(`/games/${good}`)).body.compile_error).toBeNull();
    expect((await server.client.get('/games')).body.data[0]).not.toHaveProperty('compile_error');
    // A play compiles the game: it answers the error the read shows, and writes nothing.
    const played = await server.client.post(`/games/${bad}/play`, { customer_id: 1 });
    expect([played.status, played.body.code, played.body.error]).toEqual([400, 'invalid_request', read.body.compile_error.message]);
    expect((await server.client.get('/customers/1/points')).body.score).toBe(0);
  });

  it('a fix over HTTP clears it', async () => {
    const fixed = await server.client.patch(`/games/${bad}`, { rule_params: { rule_conditions: { conditions: { and: [] } } } });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await server.client.get(`/games/${bad}`)).body.compile_error).toBeNull();
  });
});
