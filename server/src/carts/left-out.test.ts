/**
 * A stored campaign that no longer compiles (stored before a stricter rule, here the effects cap, written straight
 * into the store while the server is stopped) is left out of its Company's program: carts still get the other
 * campaigns, the compile logs it once per program build, and its single read answers the error.
 */
import { MAX_RULE_EFFECTS } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overConditionsCap, rewriteStored, rewriteStoredCampaign } from '../campaigns/testing.js';
import { InstantWinStore } from '../instant-wins/store.js';
import type { InstantWinRecord } from '../instant-wins/types.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const LEFT_OUT = 'campaign left out of the program: it does not compile';

describe('a stored campaign that no longer compiles is left out of the program, the others apply', () => {
  let server: TestServer;
  let good: number;
  let bad: number;
  const warnings = () => server.lines.filter((line) => line.includes(LEFT_OUT)).map((line) => JSON.parse(line) as Record<string, unknown>);
  const compilations = () => server.lines.filter((line) => line.includes('"program compiled"')).length;

  beforeAll(async () => {
    // Inline carts: one program cache, so one build per version.
    server = await startServer({ env: { WORKERS: '0' } });
    const discount = await server.client.post('/discounts', { rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'total' }] } });
    expect(discount.status, discount.text).toBe(200);
    good = discount.body.id;
    const points = await server.client.post('/points', { rule_params: { name: 'Ten a euro', rule_effects: [{ type: 'ratio', value: 10 }] } });
    expect(points.status, points.text).toBe(200);
    bad = points.body.id;
    expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    const overCap = Array.from({ length: MAX_RULE_EFFECTS + 1 }, () => ({ type: 'ratio', value: 10 }));
    await rewriteStoredCampaign(server, bad, (params) => ({ ...params, rule_effects: overCap }));
  });
  afterAll(() => server.dispose());

  it('simulate and realtime carts get the good campaign and not the one left out; logged once per build, not per cart', async () => {
    for (let i = 0; i < 5; i++) {
      const simulated = await server.client.post('/carts/simulate', cartBody(20, { customer_id: 1 }));
      expect(simulated.status, simulated.text).toBe(200);
      expect(simulated.body.total_discount_applied).toBe(2);
      expect(simulated.body.score).toBe(0);
      expect(simulated.body.effects.map((e: { rule_id: number }) => e.rule_id)).toEqual([good]);
    }
    const realtime = await realtimeCart(server.client, 1, 20);
    expect(realtime.body.total_discount_applied).toBe(2);
    expect(realtime.body.score).toBe(0);
    expect(compilations()).toBe(1);
    expect(warnings()).toEqual([
      expect.objectContaining({
        level: 40, tenant: 'default/sandbox', campaign_id: String(bad), code: 'invalid_request', message: 'rule_params.rule_effects: must have at most 100 items',
      }),
    ]);
  });

  it("the campaign's single read answers its compile error, naming the rule; a good one's is null", async () => {
    const read = await server.client.get(`/points/${bad}`);
    expect(read.status).toBe(200);
    expect(read.body.compile_error).toEqual({ code: 'invalid_request', message: 'rule_params.rule_effects: must have at most 100 items' });
    expect((await server.client.get(`/discounts/${good}`)).body.compile_error).toBeNull();
    // A list item does not compile its campaign.
    expect((await server.client.get('/points')).body.data[0]).not.toHaveProperty('compile_error');
  });

  it('a fix over HTTP puts it back into the program', async () => {
    const fixed = await server.client.patch(`/points/${bad}`, { rule_params: { rule_effects: [{ type: 'ratio', value: 10 }] } });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await server.client.get(`/points/${bad}`)).body.compile_error).toBeNull();
    expect((await server.client.post('/carts/simulate', cartBody(20, { customer_id: 1 }))).body.score).toBe(180); // 10 a euro of 18, after the 10% off
    expect(warnings()).toHaveLength(1);
  });
});

describe('a stored instant win that no longer compiles is left out of the program, its single read says why', () => {
  let server: TestServer;
  let good: number;
  let bad: number;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '0' } });
    const instantWin = (name: string) => ({ rule_params: { name }, instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] } });
    const ids: number[] = [];
    for (const name of ['Good draw', 'Bad draw']) {
      const created = await server.client.post('/instant_wins', instantWin(name));
      expect(created.status, created.text).toBe(200);
      ids.push(created.body.id);
    }
    [good, bad] = ids;
    const overCap = overConditionsCap({ field: 'total', operator: 'gte', value: 0 });
    await rewriteStored<InstantWinRecord>(server, (env) => new InstantWinStore(env), bad, (params) => ({ ...params, rule_conditions: overCap }));
  });
  afterAll(() => server.dispose());

  it('its single read answers the compile error, naming the rule; a good one\'s is null, and a list item has none', async () => {
    const read = await server.client.get(`/instant_wins/${bad}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.compile_error).toEqual({ code: 'invalid_request', message: expect.stringMatching(/^rule_params\.rule_conditions/) });
    expect((await server.client.get(`/instant_wins/${good}`)).body.compile_error).toBeNull();
    expect((await server.client.get('/instant_wins')).body.data[0]).not.toHaveProperty('compile_error');
    // Carts are still evaluated: the program is compiled without it.
    const simulated = await server.client.post('/carts/simulate', cartBody(20));
    expect(simulated.status, simulated.text).toBe(200);
  });

  it('a fix over HTTP clears it', async () => {
    const fixed = await server.client.patch(`/instant_wins/${bad}`, { rule_params: { rule_conditions: { conditions: { and: [] } } } });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await server.client.get(`/instant_wins/${bad}`)).body.compile_error).toBeNull();
  });
});

describe('a stored campaign bound to a custom event that no longer compiles is left out, the other bound one applies', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
    const def = await server.client.post('/custom_event_definitions', { slug: 'visit', name: 'Store visit', schema: { type: 'object' } });
    expect(def.status, def.text).toBe(200);
    const bound = (name: string, value: number) => ({ rule_params: { name, custom_entity_definition_id: def.body.id, rule_effects: [{ type: 'direct_value', value, distribution: 'total' }] } });
    expect((await server.client.post('/points', bound('Three a visit', 3))).status).toBe(200);
    const bad = await server.client.post('/points', bound('Five a visit', 5));
    expect(bad.status, bad.text).toBe(200);
    expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    // A bound campaign's effects are replaced by its points (or score_overwrite): the conditions' cap is the one that bites.
    const overCap = overConditionsCap({ field: 'total', operator: 'gte', value: 0 });
    await rewriteStoredCampaign(server, bad.body.id, (params) => ({ ...params, rule_conditions: JSON.stringify(overCap) }));
  });
  afterAll(() => server.dispose());

  it('each event earns the good campaign\'s points; the campaign left out is logged once per program build', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await server.client.post('/custom_events', { customer_id: 1, slug: 'visit', data: { visit: i } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.score).toBe(3);
    }
    expect(server.lines.filter((line) => line.includes(LEFT_OUT))).toHaveLength(1);
  });
});
