/** Campaign reads (GET /discounts/{id}, GET /points/{id}) → the engine's input: what the server's reads change, undone. */
import { describe, expect, it } from 'vitest';
import { campaignFromRead, cartCampaignsFromReads, locationFeaturesFromRead } from './fromRead.js';

const read = (fields: Record<string, unknown>) => ({
  id: 5, type: 'discount', name: 'Five', description: null, category: { id: 4, name: null, priority: null }, active: true,
  available_to: null, customer_registration_countries: [], recurrence_days: null, rule_conditions: null,
  rule_effects: '[{"type":"direct_value","value":1,"distribution":"total"}]', maximum_discount_transaction: 2.5,
  chances_to_accrue: 'num_day', chances_to_accrue_period: 'num_day', chances_to_accrue_limit: 2, coupon_info: null, ...fields,
});

describe('campaignFromRead', () => {
  it('drops nulls and empty lists, and renames the fields reads rename', () => {
    expect(campaignFromRead(read({}))).toEqual({
      id: 5, type: 'discount',
      rule_params: {
        name: 'Five', active: true, rule_effects: '[{"type":"direct_value","value":1,"distribution":"total"}]', loyalty_rule_category_id: 4,
        maximum_budget_transaction: 2.5, chance_to_accrue_period: 'num_day', chance_to_accrue_limit: 2,
      },
    });
  });

  it("ignores what a read reports of the budget's spend: the preview's counters are its own (docs/evaluation.md)", () => {
    const budgeted = read({ budget_value: 10, budget_period: 'num_day' });
    expect(campaignFromRead({ ...budgeted, budget_spent: 7.5, budget_available: 2.5 })).toEqual(campaignFromRead(budgeted));
  });

  it('takes the coupon from a single read, its texts in the default language, and an inactive one as none', () => {
    const coupon_info = { coupon_id: 9, static_code: 'S', coupon_name: 'Nombre', external_id: null, key: null };
    const coupon_params = { static_code: 'S', name: { en: 'Name', es: 'Nombre' }, description: null, active: true, max_redemptions: 3, available_to: '2026-12-31' };
    expect(campaignFromRead(read({ coupon_info, coupon_params }), { default_language: 'en' }).coupon_params).toEqual({
      id: 9, static_code: 'S', name: 'Name', active: true, max_redemptions: 3, available_to: '2026-12-31',
    });
    expect(campaignFromRead(read({ coupon_info })).coupon_params).toEqual({ id: 9, static_code: 'S', name: 'Nombre' });
    const paused = campaignFromRead(read({ select_customers: 'targeted', coupon_info, coupon_params: { ...coupon_params, active: false } }));
    expect([paused.coupon_params, paused.rule_params.active]).toEqual([undefined, false]);
  });

  it('leaves out the campaigns a trigger or a custom event runs', () => {
    const reads = [read({ id: 1 }), read({ id: 2, type: 'points', when: 'birthday' }), read({ id: 3, type: 'points', custom_entity_definition_id: 7 }), read({ id: 4, when: 'after_create_activity' })];
    expect(cartCampaignsFromReads(reads).map((c) => c.id)).toEqual([1, 4]);
  });

  it('refuses a read that is not a discount or points campaign', () => {
    expect(() => campaignFromRead(null as never)).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'campaign: must be an object' }));
    expect(() => campaignFromRead(read({ type: 'gaming' }))).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'type: must be discount or points' }));
  });
});

describe('locationFeaturesFromRead', () => {
  it("a location read's features as rules name them; none when it has none; a malformed one is an invalid_request", () => {
    const features = [{ taxonomy_slug: 'kind', taxonomy_name: 'Kind', id: 1, name: 'Outlet' }, { taxonomy_slug: 'region', taxonomy_name: 'Region', id: 9223372036854775807n, name: 'North' }];
    expect(locationFeaturesFromRead({ id: 10, code: 'OUT1', features })).toEqual(['kind:1', 'region:9223372036854775807']);
    expect(locationFeaturesFromRead({ id: 10, features: [] })).toEqual([]);
    expect(() => locationFeaturesFromRead({ id: 10, features: [{ id: 1 }] })).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'features[0].taxonomy_slug: must be a string' }));
  });
});
