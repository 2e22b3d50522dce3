/** Campaign reads (GET /discounts/{id}, GET /points/{id}, GET /instant_wins/{id}) → the engine's input: what the server's reads change, undone. */
import { describe, expect, it } from 'vitest';
import { compileCampaigns } from './compileCampaigns.js';
import { evaluateCart } from '../evaluate/evaluateCart.js';
import { campaignFromRead, cartCampaignsFromReads, countersFromReads, instantWinFromRead, locationFeaturesFromRead } from './fromRead.js';

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

/** A single read of an instant win as GET /instant_wins/{id} answers it. */
const winRead = (fields: Record<string, unknown>) => ({
  id: 8, campaign_history_id: 30, name: 'Draw', description: null, active: true, available_from: null, available_to: null,
  recurrence_type: null, recurrence_days: [], select_customers: 'loyalty', customer_registration_countries: [], once: 'num_day', once_limit: 2,
  coupon_info: { static_code: 'LUCKY' }, currency: null, coupon_required: false, tiers: [], chances_to_accrue_period: null, budget_value: null,
  custom_entity_definition_id: null, locations_ids: [],
  instant_win: {
    instant_win_prizes: [
      { id: 1, name: 'Points', description: 'Five', outcome: { promotion_type: 'points', promotion_id: 12 }, weight: 0.5, stock: 3, available_stock: 1, stock_management_strategy: 'remove_prize' },
      { id: 2, name: 'Nothing', description: null, outcome: { promotion_type: '', promotion_id: null }, weight: 0.25, stock: -1, available_stock: -1, stock_management_strategy: 'remove_prize' },
    ],
  },
  rule_conditions: '{"conditions":{"and":[{"field":"total","operator":"gte","value":20}]}}', rule_application: null, rule_effects: null,
  priority: 3, stackability_properties: null, when: null, compile_error: null, ...fields,
});

describe('instantWinFromRead', () => {
  it("maps a single read's rules, order, code and prizes as the server compiles them (configured stock, no prize as an empty outcome)", () => {
    expect(instantWinFromRead(winRead({}))).toEqual({
      id: 8, type: 'instant_win',
      rule_params: {
        name: 'Draw', active: true, select_customers: 'loyalty', once: 'num_day', once_limit: 2, coupon_required: false, priority: 3,
        rule_conditions: '{"conditions":{"and":[{"field":"total","operator":"gte","value":20}]}}',
      },
      coupon_params: { static_code: 'LUCKY' },
      prizes: [
        { id: 1, name: 'Points', description: 'Five', outcome: { promotion_type: 'points', promotion_id: 12 }, weight: 0.5, stock: 3, stock_management_strategy: 'remove_prize' },
        { id: 2, name: 'Nothing', outcome: { promotion_type: '' }, weight: 0.25, stock: -1, stock_management_strategy: 'remove_prize' },
      ],
    });
  });

  it('refuses a list item (no rules: it would take part in every cart) and a read without prizes', () => {
    const { rule_conditions: _r, rule_application: _a, rule_effects: _e, priority: _p, stackability_properties: _s, when: _w, compile_error: _c, ...item } = winRead({});
    expect(() => instantWinFromRead(item)).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/^rule_conditions: is required/) }));
    expect(() => instantWinFromRead(winRead({ instant_win: null }))).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'instant_win.instant_win_prizes: must be an array' }));
  });

  it('is what cartCampaignsFromReads makes of a read with instant_win, leaving out one a trigger runs', () => {
    const reads = [read({ id: 1 }), winRead({ id: 2 }), winRead({ id: 3, when: 'birthday' })];
    expect(cartCampaignsFromReads(reads).map((c) => [c.id, c.type])).toEqual([[1, 'discount'], [2, 'instant_win']]);
  });
});

describe('countersFromReads', () => {
  it("gives an instant win read for a customer its uses: the limit less remaining_participations (a once period alone is a limit of 1)", () => {
    const reads = [
      winRead({ id: 8, remaining_participations: 0 }),
      winRead({ id: 9, remaining_participations: 1 }),
      winRead({ id: 10, once_limit: null, remaining_participations: 0 }),
      // Unlimited, read without a customer, a discount read: no counter.
      winRead({ id: 11, once: null, once_limit: null, remaining_participations: -1 }),
      winRead({ id: 12 }),
      read({ id: 13 }),
    ];
    expect(countersFromReads(reads)).toEqual({ 8: { uses: 2 }, 9: { uses: 1 }, 10: { uses: 1 } });
  });

  it('makes a preview reject an instant win whose participations the customer used, as the server does', () => {
    const program = compileCampaigns(cartCampaignsFromReads([winRead({ id: 8 })]), { currency: 'EUR', timezone: 'UTC' });
    const cart = { customer_id: 1, creation_date: '2026-11-20T10:00:00Z', total: 25, lines: [{ order: 1, total: 25, quantity: 1 }] };
    const preview = (remaining: number) => evaluateCart(program, cart, {
      now: '2026-11-20T10:00:00Z', mode: 'simulate', seed: '', customer: { id: 1 }, counters: countersFromReads([winRead({ id: 8, remaining_participations: remaining })]),
    }).response;
    expect(preview(1).effects.map((e) => e.type)).toEqual(['instant_win']);
    expect(preview(0).effects).toEqual([]);
    expect(preview(0).rejected_campaigns.map((r) => r.rule_id)).toEqual([8]);
  });

  it('refuses a remaining_participations that is no count', () => {
    for (const remaining of [-2, 1.5, '1', null]) {
      expect(() => countersFromReads([winRead({ remaining_participations: remaining })])).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'reads[0].remaining_participations: must be an integer of at least -1' }));
    }
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
