import { compileCampaigns, type Campaign } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { describeProgram } from './programs.js';

const cart = (id: number) => ({ id, creation_date: '2026-11-20T10:00:00Z', total: 2.99, lines: [{ order: 1, product_id: 100, total: 2.99, quantity: 1 }] });

describe('each worker compiles a Company program once per campaign version', () => {
  let server: TestServer;
  const compilations = () => server.lines.filter((line) => line.includes('"program compiled"')).map((line) => JSON.parse(line) as { version: number });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('never compiles per request, and recompiles after a campaign change', async () => {
    const created = await server.client.post('/points', { rule_params: { name: 'Ten', rule_effects: [{ type: 'ratio', value: 10 }] } });
    for (let i = 0; i < 40; i++) expect((await server.client.post('/carts/simulate', cart(i + 1))).body.score).toBe(29);
    await settle();
    const first = compilations();
    expect(first.length).toBeGreaterThanOrEqual(1);
    expect(first.length).toBeLessThanOrEqual(2);
    expect((await server.client.patch(`/points/${created.body.id}`, { rule_params: { rule_effects: [{ type: 'ratio', value: 20 }] } })).status).toBe(200);
    for (let i = 0; i < 40; i++) expect((await server.client.post('/carts/simulate', cart(i + 1))).body.score).toBe(59);
    await settle();
    const after = compilations().slice(first.length);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(new Set(after.map((c) => c.version)).size).toBe(1);
    expect(after[0].version).toBeGreaterThan(first[0].version);
  });
});

describe('what the context reads for a program', () => {
  const describe_ = (...rules: Record<string, unknown>[]) => {
    const campaigns: Campaign[] = rules.map((rule, i) => ({ id: i + 1, type: 'discount', rule_params: { name: `C${i}`, ...rule, rule_effects: [{ type: 'percentage', value: 5 }] } }));
    return describeProgram(compileCampaigns(campaigns, { currency: 'EUR', timezone: 'UTC' }), campaigns, { campaignVersion: 1, settingsVersion: 1 });
  };
  const tier = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Gold' }] } };
  const feature = { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'feature', operator: 'eq', value: 'colour:1' }] }] } };

  it("measures the customer's tier and reads the lines' features only for a program whose rules name them", () => {
    expect(describe_({})).toMatchObject({ usesTier: false, usesFeatures: false });
    expect(describe_({}, { rule_conditions: tier })).toMatchObject({ usesTier: true, usesFeatures: false });
    expect(describe_({ rule_conditions: JSON.stringify(tier) })).toMatchObject({ usesTier: true });
    expect(describe_({ rule_application: feature })).toMatchObject({ usesTier: false, usesFeatures: true });
  });

  it("reads the code of a cart's location_id only for a program whose rules name location_code", () => {
    const leaf = (field: string) => ({ conditions: { and: [{ field, operator: 'not_in', values: field === 'location_id' ? [1] : ['BCN'] }] } });
    expect(describe_({ rule_conditions: leaf('location_id') })).toMatchObject({ usesLocationCode: false });
    expect(describe_({}, { rule_conditions: leaf('location_code') })).toMatchObject({ usesLocationCode: true });
  });

  it("reads the features of a cart's location only for a program whose rules name location_feature, and no catalogue for it", () => {
    const outlet = { conditions: { and: [{ field: 'location_feature', operator: 'in', values: ['kind:1'] }] } };
    expect(describe_({}, { rule_application: feature })).toMatchObject({ usesLocationFeatures: false, usesFeatures: true });
    expect(describe_({ rule_conditions: outlet })).toMatchObject({ usesLocationFeatures: true, usesFeatures: false });
    expect(describe_({ rule_conditions: JSON.stringify(outlet) })).toMatchObject({ usesLocationFeatures: true, usesFeatures: false });
    expect(describe_({ rule_conditions: outlet, rule_application: feature })).toMatchObject({ usesLocationFeatures: true, usesFeatures: true });
  });
});
