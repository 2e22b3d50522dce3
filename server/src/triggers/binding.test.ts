import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteStoredCampaign } from '../campaigns/testing.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, triggerCampaign } from '../points/testing.js';

describe('each points campaign runs on its own event', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await createCustomer(server.client, 70);
    await createCustomer(server.client, 71);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('a cart never grants the points of trigger or custom-event campaigns', async () => {
    await server.client.post('/points', { rule_params: { name: 'Cart', when: 'after_create_activity', rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] } });
    await triggerCampaign(server.client, 'birthday', 500);
    const def = await server.client.post('/custom_event_definitions', { slug: 'review', schema: { type: 'object' } });
    await server.client.post('/points', { rule_params: { name: 'Review', custom_entity_definition_id: def.body.id, rule_effects: [{ type: 'direct_value', value: 300, distribution: 'total' }] } });
    const res = await server.client.post('/carts/realtime', { id: 1, creation_date: '2026-11-20T10:00:00Z', total: 5, customer_id: 70, lines: [{ order: 1, total: 5, quantity: 1 }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.score).toBe(7);
    expect((await balance(server.client, 70)).score).toBe(7);
  });

  it('a trigger never runs cart campaigns or cart instant wins: after_create_activity is refused as a trigger', async () => {
    const cart = await server.client.post('/points', { rule_params: { name: 'Cart 2', when: 'after_create_activity', rule_effects: [{ type: 'direct_value', value: 9, distribution: 'total' }] } });
    expect(cart.status, cart.text).toBe(200);
    const before = (await balance(server.client, 71)).score;
    const refused = await server.client.post('/trigger', { trigger: 'after_create_activity', customer_id: 71, loyalty_rule_id: cart.body.id, score_overwrite: 50000000 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_request' });
    expect(refused.body.error).toMatch(/^trigger: /);
    expect((await server.client.post('/trigger', { trigger: 'after_create_activity', customer_id: 71 })).status).toBe(400);
    expect((await balance(server.client, 71)).score).toBe(before);
    expect((await server.client.get('/points/transactions', { query: { customer_id: '71' } })).body.data).toEqual([]);
  });

  it('refuses a campaign bound where it could never act: a discount off carts, bound points that are not one direct_value', async () => {
    const effects = { ratio: [{ type: 'ratio', value: 2 }], two: [{ type: 'direct_value', value: 10 }, { type: 'direct_value', value: 20 }] };
    const def = await server.client.post('/custom_event_definitions', { slug: 'survey', schema: { type: 'object' } });
    for (const binding of [{ when: 'signup' }, { custom_entity_definition_id: def.body.id }]) {
      for (const rule_effects of Object.values(effects)) {
        const refused = await server.client.post('/points', { rule_params: { name: 'Never pays', ...binding, rule_effects } });
        expect(refused.body, JSON.stringify(binding)).toEqual({
          code: 'invalid_request', error: 'rule_params.rule_effects: must be one direct_value effect: a campaign bound to a trigger or a custom event grants a fixed number of points',
        });
      }
    }
    const discount = await server.client.post('/discounts', { rule_params: { name: 'Never applies', when: 'signup', rule_effects: [{ type: 'direct_value', value: 1 }] } });
    expect(discount.body).toEqual({ code: 'invalid_request', error: 'rule_params.when: must be after_create_activity or absent: a discount acts on carts only' });
    // Bound to carts, a ratio is what it always was; moved to a trigger by a PATCH, it is checked.
    const cart = await server.client.post('/points', { rule_params: { name: 'Per euro', rule_effects: effects.ratio } });
    expect(cart.status, cart.text).toBe(200);
    expect((await server.client.patch(`/points/${cart.body.id}`, { rule_params: { when: 'signup' } })).status).toBe(400);
    expect((await server.client.get('/points', { query: { per_page: '100' } })).body.data.map((c: { name: string }) => c.name)).not.toContain('Never pays');
  });

  it('names such a campaign stored before the check in its compile_error, and keeps it editable', async () => {
    const bound = await triggerCampaign(server.client, 'old-ratio', 5);
    await rewriteStoredCampaign(server, bound, (params) => ({ ...params, rule_effects: [{ type: 'ratio', value: 2 }] }));
    expect((await server.client.get(`/points/${bound}`)).body.compile_error).toEqual({
      code: 'invalid_request', message: 'rule_params.rule_effects: must be one direct_value effect: a campaign bound to a trigger or a custom event grants a fixed number of points',
    });
    expect((await server.client.patch(`/points/${bound}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('a campaign with a custom_entity_definition_id runs on the custom events of that definition only, whatever its when', async () => {
    await createCustomer(server.client, 72);
    const def = await server.client.post('/custom_event_definitions', { slug: 'both-event', schema: { type: 'object' } });
    const both = await server.client.post('/points', {
      rule_params: { name: 'Both', when: 'both-trigger', custom_entity_definition_id: def.body.id, rule_effects: [{ type: 'direct_value', value: 4, distribution: 'total' }] },
    });
    expect(both.status, both.text).toBe(200);
    const triggered = await server.client.post('/trigger', { trigger: 'both-trigger', customer_id: 72 });
    expect(triggered.status, triggered.text).toBe(200);
    expect(triggered.body).toMatchObject({ score: 0, effects: [] });
    const named = await server.client.post('/trigger', { trigger: 'both-trigger', customer_id: 72, loyalty_rule_id: both.body.id });
    expect(named.body).toEqual({ code: 'invalid_request', error: `loyalty_rule_id: campaign ${both.body.id} is not bound to trigger both-trigger` });
    const event = await server.client.post('/custom_events', { slug: 'both-event', customer_id: 72, data: {} });
    expect(event.status, event.text).toBe(200);
    expect(event.body.score).toBe(4);
    expect((await balance(server.client, 72)).score).toBe(4);
  });

  it('refuses a trigger binding no trigger can send (when not a slug, or over 255 characters); one stored before stays editable', async () => {
    const error = 'rule_params.when: must be a slug (letters, digits, underscores, hyphens) of at most 255 characters: an event names what it runs by it';
    const effects = [{ type: 'direct_value', value: 1, distribution: 'total' }];
    for (const when of ['has space', 'x'.repeat(256)]) {
      const refused = await server.client.post('/points', { rule_params: { name: 'Unreachable', when, rule_effects: effects } });
      expect(refused.body, when).toEqual({ code: 'invalid_request', error });
    }
    const longest = await triggerCampaign(server.client, 'x'.repeat(255), 1, { name: 'Longest slug' });
    const patched = await server.client.patch(`/points/${longest}`, { rule_params: { when: 'no-ñ' } });
    expect(patched.body).toEqual({ code: 'invalid_request', error });
    await rewriteStoredCampaign(server, longest, (params) => ({ ...params, when: 'has space' }));
    expect((await server.client.get(`/points/${longest}`)).body.compile_error).toEqual({ code: 'invalid_request', message: error });
    expect((await server.client.patch(`/points/${longest}`, { rule_params: { active: false } })).status).toBe(200);
    // Moved to a slug, it is a trigger's again.
    expect((await server.client.patch(`/points/${longest}`, { rule_params: { when: 'reachable', active: true } })).status).toBe(200);
    expect((await server.client.post('/trigger', { trigger: 'reachable', customer_id: 71 })).body.score).toBe(1);
  });

  it('a points campaign binds only to a custom event definition that exists: else 404, nothing written', async () => {
    const params = { name: 'Ghost event', custom_entity_definition_id: 987654, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] };
    const before = (await server.client.get('/points')).body.data.length;
    const created = await server.client.post('/points', { rule_params: params });
    expect(created.status).toBe(404);
    expect(created.body).toEqual({ code: 'custom_event_definition_not_found', error: 'rule_params.custom_entity_definition_id: no custom event definition 987654' });
    expect((await server.client.get('/points')).body.data).toHaveLength(before);

    const def = await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } });
    const bound = await server.client.post('/points', { rule_params: { ...params, custom_entity_definition_id: def.body.id } });
    expect(bound.status, bound.text).toBe(200);
    const patched = await server.client.patch(`/points/${bound.body.id}`, { rule_params: { custom_entity_definition_id: 987654 } });
    expect(patched.status).toBe(404);
    expect(patched.body.error).toMatch(/^rule_params\.custom_entity_definition_id: /);
    expect((await server.client.get(`/points/${bound.body.id}`)).body.custom_entity_definition_id).toBe(def.body.id);
  });
});
