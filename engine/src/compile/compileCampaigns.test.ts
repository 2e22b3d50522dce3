import { describe, expect, it } from 'vitest';
import { checkEffectBounds, compileCampaigns, compileEachCampaign, evaluateCart, MAX_POINTS, MAX_RULE_EFFECTS, TallyError } from '../index.js';
import { cart, context, discount, errorOf, line, points, productIn, SETTINGS } from '../../test-support/scenario.js';

const ok = [{ type: 'percentage', value: 10 }];

describe('compileCampaigns rejects malformed campaigns, naming the field', () => {
  it.each([
    ['unknown effect type', discount(1, { rule_effects: [{ type: 'gift', value: 1 }] }), 'campaigns[0].rule_params.rule_effects[0].type'],
    ['percentage above 100', discount(1, { rule_effects: [{ type: 'percentage', value: 120 }] }), 'campaigns[0].rule_params.rule_effects[0].value'],
    ['unknown distribution', discount(1, { rule_effects: [{ type: 'percentage', value: 10, distribution: 'random' }] }), 'campaigns[0].rule_params.rule_effects[0].distribution'],
    ['no effects', discount(1, { rule_effects: [] }), 'campaigns[0].rule_params.rule_effects'],
    ['effects not JSON', discount(1, { rule_effects: '[{' }), 'campaigns[0].rule_params.rule_effects'],
    ['limits not a positive integer', discount(1, { rule_effects: [{ type: 'percentage', value: 10, limits: 0 }] }), 'campaigns[0].rule_params.rule_effects[0].limits'],
    ['unknown stackability', discount(1, { stackability_properties: 'sometimes', rule_effects: ok }), 'campaigns[0].rule_params.stackability_properties'],
    ['unknown select_customers', discount(1, { select_customers: 'vip', rule_effects: ok }), 'campaigns[0].rule_params.select_customers'],
    ['unknown once period', discount(1, { once: 'weekly', once_limit: 1, rule_effects: ok }), 'campaigns[0].rule_params.once'],
    ['unknown chance_to_accrue period', discount(1, { chance_to_accrue_period: 'weekly', chance_to_accrue_limit: 1, rule_effects: ok }), 'campaigns[0].rule_params.chance_to_accrue_period'],
    ['chance_to_accrue disagreeing with once', discount(1, { once: 'num_day', once_limit: 1, chance_to_accrue_period: 'num_day', chance_to_accrue_limit: 2, rule_effects: ok }), 'campaigns[0].rule_params.chance_to_accrue_limit'],
    ['weekly recurrence without days', discount(1, { recurrence_type: 'weekly', rule_effects: ok }), 'campaigns[0].rule_params.recurrence_days'],
    ['a weekly recurrence day beyond 7', discount(1, { recurrence_type: 'weekly', recurrence_days: [1, 8], rule_effects: ok }), 'campaigns[0].rule_params.recurrence_days[1]'],
    ['bad available_from', discount(1, { available_from: 'soon', rule_effects: ok }), 'campaigns[0].rule_params.available_from'],
    ['points ratio on a discount-only distribution', points(1, { rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items_pro_rata' }] }), 'campaigns[0].rule_params.rule_effects[0].distribution'],
    ['unknown fixed expiration option', points(1, { expiration_period_type: 'fixed', fixed_option_selected: 'never', rule_effects: [{ type: 'ratio', value: 1 }] }), 'campaigns[0].rule_params.fixed_option_selected'],
  ])('%s', (_name, campaign, field) => {
    const error = errorOf(() => compileCampaigns([campaign], SETTINGS));
    expect(error).toMatchObject({ code: 'invalid_request', field });
    expect(error.message).toContain(field);
  });

  it('a weekly or monthly recurrence needs its days: missing, not a list, empty, or a day out of the period', () => {
    const message = (recurrence: Record<string, unknown>) => errorOf(() => compileCampaigns([discount(1, { ...recurrence, rule_effects: ok })], SETTINGS)).message;
    expect(message({ recurrence_type: 'weekly' })).toBe('campaigns[0].rule_params.recurrence_days: is required with rule_params.recurrence_type weekly');
    expect(message({ recurrence_type: 'monthly', recurrence_days: null })).toBe('campaigns[0].rule_params.recurrence_days: is required with rule_params.recurrence_type monthly');
    expect(message({ recurrence_type: 'weekly', recurrence_days: 'mon' })).toBe('campaigns[0].rule_params.recurrence_days: must be an array');
    expect(message({ recurrence_type: 'monthly', recurrence_days: [] })).toBe('campaigns[0].rule_params.recurrence_days: must not be empty');
    expect(message({ recurrence_type: 'monthly', recurrence_days: [31, 32] })).toBe('campaigns[0].rule_params.recurrence_days[1]: must be an integer between 1 and 31');
  });

  it("an amount a campaign spends (a budget, a direct_value discount) states the money range from 0, whichever bound fails, in either form", () => {
    const message = (fields: Record<string, unknown>) => errorOf(() => compileCampaigns([discount(1, { rule_effects: ok, ...fields })], SETTINGS)).message;
    const range = 'must be a number between 0 and 90071992547409';
    for (const value of [-1, -0.5, '-1', 1e14, 1e300, '90071992547410']) {
      expect(message({ budget_value: value })).toBe(`campaigns[0].rule_params.budget_value: ${range}`);
      expect(message({ maximum_budget_transaction: value })).toBe(`campaigns[0].rule_params.maximum_budget_transaction: ${range}`);
      expect(message({ rule_effects: [{ type: 'direct_value', value }] })).toBe(`campaigns[0].rule_params.rule_effects[0].value: ${range}`);
    }
    // The bounds themselves are amounts.
    expect(() => compileCampaigns([discount(1, { budget_value: 90071992547409, maximum_budget_transaction: 0, rule_effects: [{ type: 'direct_value', value: 90071992547409 }] })], SETTINGS)).not.toThrow();
  });

  it('a once period without once_limit means once in that period (never an unlimited campaign); so does chance_to_accrue_period alone', () => {
    const program = compileCampaigns([discount(1, { once: 'num_day', rule_effects: ok }), discount(2, { chance_to_accrue_period: 'num_month', rule_effects: ok }), discount(3, { rule_effects: ok })], SETTINGS);
    expect(program.discounts.map((c) => c.once)).toEqual([{ period: 'num_day', limit: 1 }, { period: 'num_month', limit: 1 }, null]);
  });

  it('a malformed rule', () => {
    const error = errorOf(() => compileCampaigns([discount(1, { rule_conditions: { conditions: { and: [{ field: 'total', operator: 'about', value: 1 }] } }, rule_effects: ok })], SETTINGS));
    expect(error.code).toBe('invalid_request');
    expect(error.field).toMatch(/^campaigns\[0\]\.rule_params\.rule_conditions/);
  });

  it('duplicate ids and static codes; prize weights above 1; bad settings', () => {
    expect(errorOf(() => compileCampaigns([discount(1, { rule_effects: ok }), discount(1, { rule_effects: ok })], SETTINGS)).field).toBe('campaigns[1].id');
    const coupon = { coupon_params: { static_code: 'X' } };
    expect(errorOf(() => compileCampaigns([discount(1, { rule_effects: ok }, coupon), discount(2, { rule_effects: ok }, coupon)], SETTINGS)).field).toBe('campaigns[1].coupon_params.static_code');
    const prizes = [{ id: 1, name: 'a', weight: 0.7, stock: 1 }, { id: 2, name: 'b', weight: 0.4, stock: 1 }];
    expect(errorOf(() => compileCampaigns([{ id: 1, type: 'instant_win', rule_params: {}, prizes }], SETTINGS)).field).toBe('campaigns[0].prizes');
    expect(errorOf(() => compileCampaigns([], { ...SETTINGS, timezone: 'Mars/Olympus' })).field).toBe('settings.timezone');
    expect(errorOf(() => compileCampaigns([], { ...SETTINGS, currency: 'euro' })).field).toBe('settings.currency');
  });

  it('throws TallyError instances', () => {
    expect(() => compileCampaigns([discount(1, { rule_effects: [] })], SETTINGS)).toThrow(TallyError);
  });
});

describe('compileEachCampaign leaves a campaign that does not compile out of the program, the others apply', () => {
  const overCap = discount(2, { rule_effects: Array.from({ length: MAX_RULE_EFFECTS + 1 }, () => ok[0]) });
  const campaigns = [discount(1, { rule_effects: ok }), overCap, discount(1, { rule_effects: [{ type: 'percentage', value: 20 }] })];

  it('reports each one left out beside the program, its error naming the field within the campaign', () => {
    const { program, failures } = compileEachCampaign(campaigns, SETTINGS);
    expect(program.discounts.map((c) => c.id)).toEqual(['1']);
    expect(failures.map((f) => ({ index: f.index, id: f.id, code: f.error.code, field: f.error.field, message: f.error.message }))).toEqual([
      { index: 1, id: 2, code: 'invalid_request', field: 'rule_params.rule_effects', message: 'rule_params.rule_effects: must have at most 100 items' },
      { index: 2, id: 1, code: 'invalid_request', field: 'id', message: 'id: duplicate id 1' },
    ]);
    expect(failures[0].error).toBeInstanceOf(TallyError);
    // The program evaluates as one of the good campaigns alone: 10% of 20.
    expect(evaluateCart(program, cart([line(1, 10, 20)]), context()).response.total_discount_applied).toBe(2);
  });

  it('no failures when all compile; settings that do not compile still throw; compileCampaigns still refuses the whole list', () => {
    expect(compileEachCampaign(campaigns.slice(0, 1), SETTINGS).failures).toEqual([]);
    expect(errorOf(() => compileEachCampaign(campaigns, { ...SETTINGS, timezone: 'Mars/Olympus' })).field).toBe('settings.timezone');
    expect(errorOf(() => compileCampaigns(campaigns, SETTINGS)).field).toBe('campaigns[1].rule_params.rule_effects');
  });
});

describe('checkEffectBounds: the bounds of points effect values, checked where a campaign is written', () => {
  it.each([
    ['a ratio above 2147483647 points per currency unit', [{ type: 'ratio', value: 1e300 }], 0, 'must be a number greater than 0 and at most 2147483647 (points per currency unit)'],
    ['a direct_value above 2147483647', [{ type: 'ratio', value: 1 }, { type: 'direct_value', value: MAX_POINTS + 1 }], 1, 'must be an integer between 1 and 2147483647'],
  ])('refuses %s, naming the effect', (_name, effects, i, message) => {
    const field = `rule_params.rule_effects[${i}].value`;
    expect(errorOf(() => checkEffectBounds(effects, 'points'))).toEqual({ code: 'invalid_request', field, message: `${field}: ${message}` });
  });

  it('takes the largest values (as JSON strings too) and leaves discounts to the compiler', () => {
    expect(() => checkEffectBounds(JSON.stringify([{ type: 'ratio', value: MAX_POINTS }, { type: 'direct_value', value: MAX_POINTS }]), 'points')).not.toThrow();
    expect(() => checkEffectBounds([{ type: 'direct_value', value: 1e10 }], 'discount')).not.toThrow();
  });

  it('compileCampaigns does not check them: a campaign stored before the bound still compiles (evaluation cuts its awards, effects/points.test.ts)', () => {
    const stored = [points(1, { rule_effects: [{ type: 'ratio', value: 1e12 }] }), points(2, { rule_effects: [{ type: 'direct_value', value: 1e12 }] })];
    expect(compileCampaigns(stored, SETTINGS).points).toHaveLength(2);
  });
});

describe('the program', () => {
  const campaigns = [
    discount(2, { priority: 1, rule_conditions: productIn(10), rule_effects: ok }),
    points(1, { priority: 1, rule_effects: [{ type: 'ratio', value: 1 }] }),
    discount(3, { priority: 0, rule_effects: ok }),
  ];

  it('is frozen', () => {
    const program = compileCampaigns(campaigns, SETTINGS);
    expect(Object.isFrozen(program)).toBe(true);
    expect(Object.isFrozen(program.discounts)).toBe(true);
    expect(Object.isFrozen(program.discounts[0])).toBe(true);
  });

  it('exports json-rules-engine rules in evaluation order (priority, then id)', () => {
    const json = compileCampaigns(campaigns, SETTINGS).toJSON();
    expect(json.rules.map((rule) => rule.name)).toEqual(['3', '1', '2']);
    expect(json.rules[2].event).toMatchObject({ type: 'discount', params: { campaign_id: '2' } });
    expect(json.rules[2].conditions).toHaveProperty('all');
    expect(json.rules.map((rule) => rule.priority)).toEqual([3, 2, 1]);
    expect(json.settings).toEqual({ currency: 'EUR', timezone: 'Europe/Madrid', point_value: '0.01', cashback_line_share: '0.5', cashback_cap: null, score_threshold_cashback: 0 });
  });

  it('accepts int64 ids beyond 2^53 as strings and bigints', () => {
    const program = compileCampaigns([discount(1, { rule_effects: ok }), { ...discount(1, { rule_effects: ok }), id: '9223372036854775807' }, { ...discount(1, { rule_effects: ok }), id: 9223372036854775806n }], SETTINGS);
    expect(program.toJSON().rules.map((rule) => rule.name)).toEqual(['1', '9223372036854775806', '9223372036854775807']);
  });
});
