/**
 * A game or instant-win update that changes nothing writes nothing, as a
 * discount's or points campaign's (docs/campaigns.md, Update): no new version
 * (campaign_history_id kept), and for instant wins no new campaigns version,
 * so no cart worker recompiles. A real change writes one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('game and instant-win updates that change nothing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const customer = await server.client.post('/customers', { id: 1, code: 'C1', name: 'Ana', registration_location_id: 1 });
    expect(customer.status, customer.text).toBe(200);
  });
  afterAll(() => server.dispose());

  /** The campaign's version after each update sent, and whether each was answered 200. */
  const versions = async (path: string, updates: readonly Record<string, unknown>[]) => {
    const seen: unknown[] = [];
    for (const body of updates) {
      const res = await server.client.patch(path, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(200);
      seen.push((await server.client.get(path)).body.campaign_history_id);
    }
    return seen;
  };

  it('a game keeps its campaign_history_id through updates equal to what is stored; a real change moves it', async () => {
    const rule = { name: 'Wheel', description: { en: 'Spin it' }, select_customers: 'loyalty', available_to: '2030-01-01' };
    const created = await server.client.post('/games', {
      rule_params: rule, coupon_params: { static_code: 'SPIN' },
      game: { type: 'wheel', game_prizes: [{ name: 'Nothing', outcome: 'no_prize', weight: 1, stock: -1 }] },
    });
    expect(created.status, created.text).toBe(200);
    const path = `/games/${created.body.id}`;
    const before = (await server.client.get(path)).body;
    const unchanged = [{}, { rule_params: {} }, { rule_params: rule }, { rule_params: { available_from: null } }, { coupon_params: { static_code: 'SPIN' } }, { game: { type: 'wheel' } }];
    expect(await versions(path, unchanged)).toEqual(unchanged.map(() => before.campaign_history_id));
    // A request that changed nothing is no change to record (docs/audit-log.md).
    const audit = await server.client.get('/audit_log', { query: { target: `game:${created.body.id}` } });
    expect(audit.body.data.filter((entry: { operation: string }) => entry.operation === 'games.update')).toEqual([]);

    const [moved] = await versions(path, [{ rule_params: { name: 'Big wheel' } }]);
    expect(moved).not.toBe(before.campaign_history_id);
    const old = await server.client.get(`/games/${before.campaign_history_id}`, { query: { search_by: 'campaign_history_id' } });
    expect(old.body).toMatchObject({ id: created.body.id, name: 'Wheel' });
  });

  it('an instant win keeps its campaign_history_id and the workers their program through updates equal to what is stored; a real change moves both', async () => {
    const compilations = async () => {
      // Worker log lines reach the test's stdout reader a little after the answer.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return server.lines.filter((line) => line.includes('"program compiled"')).length;
    };
    const simulate = async () => {
      const res = await server.client.post('/carts/simulate', cartBody(50, { customer_id: 1 }));
      expect(res.status, res.text).toBe(200);
    };
    const rule = { name: 'Scratch', select_customers: 'loyalty', once: 'num_day', once_limit: 1 };
    const created = await server.client.post('/instant_wins', { rule_params: rule, instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] } });
    expect(created.status, created.text).toBe(200);
    const path = `/instant_wins/${created.body.id}`;
    await simulate();
    const before = (await server.client.get(path)).body;
    const compiled = await compilations();
    const unchanged = [{}, { rule_params: {} }, { rule_params: rule }, { rule_params: { name: 'Scratch', description: null } }];
    expect(await versions(path, unchanged)).toEqual(unchanged.map(() => before.campaign_history_id));
    await simulate();
    expect(await compilations()).toBe(compiled);

    const [moved] = await versions(path, [{ rule_params: { once_limit: 2 } }]);
    expect(moved).not.toBe(before.campaign_history_id);
    await simulate();
    expect(await compilations()).toBeGreaterThan(compiled);
  });
});
