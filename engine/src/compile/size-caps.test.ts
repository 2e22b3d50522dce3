/** The size caps of a campaign's rules and effects: at the cap it compiles, one above it is refused naming the field, in either form (object or JSON string). */
import { describe, expect, it } from 'vitest';
import { compileCampaigns, compileRule, MAX_RULE_CONDITIONS, MAX_RULE_EFFECTS } from '../index.js';
import { discount, errorOf, SETTINGS } from '../../test-support/scenario.js';

const effects = [{ type: 'percentage', value: 10 }];
const leaf = (i: number) => ({ field: 'total', operator: 'gte', value: i });
/** A rule of `n` condition objects: leaves on a cart field in one `and`. */
const cartLeaves = (n: number) => ({ conditions: { and: Array.from({ length: n }, (_, i) => leaf(i)) } });
/** A rule of `n` condition objects: one line condition (1) holding n - 1 leaves on line fields. */
const lineLeaves = (n: number) => ({
  conditions: { and: [{ array_field: 'lines', conditions: Array.from({ length: n - 1 }, (_, i) => ({ field: 'product_id', operator: 'neq', value: i + 1 })) }] },
});
const compile = (params: Record<string, unknown>) => compileCampaigns([discount(1, { rule_effects: effects, ...params })], SETTINGS);

describe(`a campaign's rules hold at most ${MAX_RULE_CONDITIONS} condition objects, rule_conditions and rule_application together`, () => {
  it('at the cap it compiles, in either rule', () => {
    expect(compile({ rule_conditions: cartLeaves(MAX_RULE_CONDITIONS) }).discounts).toHaveLength(1);
    expect(compile({ rule_application: lineLeaves(MAX_RULE_CONDITIONS) }).discounts).toHaveLength(1);
    expect(compile({ rule_conditions: cartLeaves(300), rule_application: lineLeaves(200) }).discounts).toHaveLength(1);
  });

  it('one above is refused naming the rule, as an object and as a JSON string', () => {
    for (const rule of [cartLeaves(MAX_RULE_CONDITIONS + 1), JSON.stringify(cartLeaves(MAX_RULE_CONDITIONS + 1))]) {
      expect(errorOf(() => compile({ rule_conditions: rule }))).toEqual({
        code: 'invalid_request',
        field: 'campaigns[0].rule_params.rule_conditions',
        message: 'campaigns[0].rule_params.rule_conditions: must have at most 500 conditions',
      });
    }
    expect(errorOf(() => compile({ rule_application: JSON.stringify(lineLeaves(MAX_RULE_CONDITIONS + 1)) })).message).toBe(
      'campaigns[0].rule_params.rule_application: must have at most 500 conditions',
    );
  });

  it("rule_application's share is what rule_conditions leaves, said with rule_conditions' count", () => {
    expect(errorOf(() => compile({ rule_conditions: cartLeaves(300), rule_application: lineLeaves(201) }))).toEqual({
      code: 'invalid_request',
      field: 'campaigns[0].rule_params.rule_application',
      message: 'campaigns[0].rule_params.rule_application: must have at most 200 conditions (500 with the 300 conditions of rule_params.rule_conditions)',
    });
  });

  it('every object counts: each item of a group, nested groups too, and each leaf of a line condition', () => {
    const nested = { conditions: { or: [{ and: [leaf(1), leaf(2)] }, { array_field: 'lines', conditions: [{ field: 'product_id', operator: 'eq', value: 1 }] }] } };
    expect(compileRule(nested, 'rule').size).toBe(5);
    expect(compileRule(undefined, 'rule').size).toBe(0);
    // Empty groups cost a node each on every evaluation: they count as conditions do.
    const empties = { conditions: { and: Array.from({ length: MAX_RULE_CONDITIONS + 1 }, () => ({ and: [] })) } };
    expect(errorOf(() => compileRule(empties, 'rule')).message).toBe('rule: must have at most 500 conditions');
  });

  it('a rule compiled alone (an audience) has the whole cap; a huge one is refused at the first condition past it', () => {
    expect(compileRule(cartLeaves(MAX_RULE_CONDITIONS), 'audiences[0].rule').size).toBe(MAX_RULE_CONDITIONS);
    expect(errorOf(() => compileRule(cartLeaves(50_000), 'audiences[0].rule')).message).toBe('audiences[0].rule: must have at most 500 conditions');
  });
});

describe(`a campaign has at most ${MAX_RULE_EFFECTS} effects`, () => {
  const many = (n: number) => Array.from({ length: n }, () => effects[0]);

  it('at the cap it compiles; one above is refused naming rule_effects, as a list and as a JSON string', () => {
    expect(compile({ rule_effects: many(MAX_RULE_EFFECTS) }).discounts[0].effects).toHaveLength(MAX_RULE_EFFECTS);
    for (const rule_effects of [many(MAX_RULE_EFFECTS + 1), JSON.stringify(many(MAX_RULE_EFFECTS + 1))]) {
      expect(errorOf(() => compile({ rule_effects }))).toEqual({
        code: 'invalid_request',
        field: 'campaigns[0].rule_params.rule_effects',
        message: 'campaigns[0].rule_params.rule_effects: must have at most 100 items',
      });
    }
  });
});
