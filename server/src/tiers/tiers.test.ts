import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { TierStore } from './store.js';
import type { TierProgram } from './types.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };
const levels = [
  { level: 1, name: 'Bronze', threshold: 0 },
  { level: 3, name: 'Gold', threshold: 1000 },
  { level: 2, name: 'Silver', threshold: 100.1 },
];
const programs: TierProgram[] = [
  { id: '1', name: 'Spend', countries: [], active: true, attribute: 'spend', levels, validity_days: 365 },
  { id: '2', name: 'Spain only', countries: ['ES'], active: true, attribute: 'spend', levels },
  { id: '3', name: 'Portugal only', countries: ['PT'], active: true, attribute: 'spend', levels },
  { id: '4', name: 'Retired', countries: [], active: false, attribute: 'spend', levels },
];

describe('GET /customers/{id}/tiers', () => {
  let server: TestServer;
  const tiers = async (value: string, query: Record<string, string> = {}) => server.client.get(`/customers/${value}/tiers`, { query });

  beforeAll(async () => {
    server = await startServer();
    await server.client.patch('/company', { customer_attribute_schema: { type: 'object', properties: { spend: { type: 'number' } } } });
    await server.client.post('/customers', { id: 1, code: 'T1', name: 'N', registration_location_id: 1, country: 'ES', attributes: { spend: 0.2 } });
    // Programs are written by the back office (issue 5); here through the store, while the server is stopped.
    await server.stop();
    const env = openStore(server.dataDir);
    await env.transact(() => programs.forEach((program) => new TierStore(env).putProgram(tenant, program)));
    await env.close();
    await server.restart();
  });
  afterAll(() => server.dispose());

  it('answers active programs of the customer country or of none, with the standing in each', async () => {
    const res = await tiers('1');
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    expect(res.body.data[0]).toEqual({
      id: 1,
      name: 'Spend',
      countries: [],
      current_level_name: 'Bronze',
      current_level: 1,
      attribute_value: 0.2,
      won_at: null,
      expires_at: null,
      to_reach_next_level_value: 99.9,
      to_reach_next_level_name: 'Silver',
      structure: [levels[0], levels[2], levels[1]],
    });
  });

  it('records since when a level is held when the measured attribute changes; the top level has no next', async () => {
    const before = Date.now();
    await server.client.patch('/customers/1', { attributes: { spend: 1500 } });
    const [spend, spain] = (await tiers('T1', { search_param: 'code' })).body.data;
    expect(spend).toMatchObject({ current_level: 3, current_level_name: 'Gold', attribute_value: 1500 });
    expect(spend).not.toHaveProperty('to_reach_next_level_value');
    expect(spend).not.toHaveProperty('to_reach_next_level_name');
    expect(Date.parse(spend.won_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(spend.expires_at) - Date.parse(spend.won_at)).toBe(365 * 24 * 3600 * 1000);
    expect(spain.won_at).toBe(spend.won_at);
    expect(spain.expires_at).toBeNull();
  });

  it('measures an integer attribute beyond 2^53 exactly, answering every digit and keeping the level held', async () => {
    const held = (await tiers('1')).body.data[0];
    expect((await server.client.patch('/customers/1', { attributes: { spend: 9007199254740993n } })).status).toBe(200);
    const spend = (await tiers('1')).body.data[0];
    expect(spend).toMatchObject({ current_level: 3, attribute_value: 9007199254740993n, won_at: held.won_at });
    expect(spend.won_at).not.toBeNull();
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await tiers('404');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('customer_not_found');
  });
});
