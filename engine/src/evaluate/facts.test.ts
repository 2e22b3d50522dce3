import { describe, expect, it } from 'vitest';
import { cart, context, discount, evaluate, line, points } from '../../test-support/scenario.js';

const when = (leaf: Record<string, unknown>) => ({ conditions: { and: [leaf] } });
const applies = (rule_conditions: unknown, c = cart([line(1, 10, 10)]), ctx = context()) =>
  evaluate([discount(1, { rule_conditions, rule_effects: [{ type: 'percentage', value: 10 }] })], c, ctx).response.effects.length > 0;

describe('the facts conditions read', () => {
  it('creation_date weekday and hour in the Company timezone', () => {
    // 18:30 UTC on Friday 2026-11-20 is 19:30 in Madrid.
    expect(applies(when({ field: 'creation_date.hour', operator: 'eq', value: 19 }))).toBe(true);
    expect(applies(when({ field: 'creation_date.weekday', operator: 'eq', value: 5 }))).toBe(true);
    expect(applies(when({ field: 'creation_date.hour', operator: 'eq', value: 18 }))).toBe(false);
  });

  it('the customer from the context', () => {
    const gold = context({ customer: { id: 42, tier: 'gold', attributes: { vip: true } } });
    expect(applies(when({ field: 'customer.tier', operator: 'in', values: ['gold'] }), undefined, gold)).toBe(true);
    expect(applies(when({ field: 'customer.attributes.vip', operator: 'eq', value: true }), undefined, gold)).toBe(true);
    expect(applies(when({ field: 'customer.tier', operator: 'in', values: ['gold'] }))).toBe(false);
  });

  it('cart money in cents from numbers or decimal strings', () => {
    const c = cart([line(1, 10, '10.10' as never)], { total: '10.10' as never });
    expect(applies(when({ field: 'total', operator: 'gte', value: 10.1 }), c)).toBe(true);
    expect(applies(when({ field: 'total', operator: 'gt', value: 10.1 }), c)).toBe(false);
    expect(evaluate([], c).response.total).toBe(10.1);
  });

  it('product features from the catalogue (context.product_features) for line conditions', () => {
    const application = when({ array_field: 'lines', conditions: [{ field: 'feature', operator: 'in', values: ['family:1'] }] });
    const campaign = discount(1, { rule_application: application, rule_effects: [{ type: 'percentage', value: 10 }] });
    const ctx = context({ product_features: { '10': ['family:1'], '11': ['family:2'] } });
    const outcome = evaluate([campaign], cart([line(1, 10, 10), line(2, 11, 10)]), ctx);
    expect(outcome.response.effects.map((e) => e.line)).toEqual([1]);
  });

  it('the location features from company data (context.location_features): each operator, facts present and absent', () => {
    const outlet = (operator: string, value: unknown) =>
      when(operator === 'in' || operator === 'not_in' ? { field: 'location_feature', operator, values: value } : { field: 'location_feature', operator, value });
    const tagged = context({ location_features: ['kind:1', 'region:9'] });
    const untagged = context({ location_features: ['region:9'] });
    const unknown = context();
    const cases: [unknown, boolean, boolean, boolean][] = [
      // rule, at a tagged location, an untagged one, one whose features the context does not carry
      [outlet('in', ['kind:1', 'kind:5']), true, false, false],
      [outlet('eq', 'kind:1'), true, false, false],
      [outlet('not_in', ['kind:1']), false, true, true],
      [outlet('neq', 'kind:1'), false, true, true],
    ];
    for (const [rule, atTagged, atUntagged, atUnknown] of cases) {
      expect([applies(rule, undefined, tagged), applies(rule, undefined, untagged), applies(rule, undefined, unknown)], JSON.stringify(rule)).toEqual([atTagged, atUntagged, atUnknown]);
    }
  });

  it('product code and EAN from the catalogue (context.product_codes) for lines sent without them; a line\'s own wins', () => {
    const byCode = when({ array_field: 'lines', conditions: [{ field: 'product_code', operator: 'eq', value: 'MILK' }] });
    const byEan = when({ array_field: 'lines', conditions: [{ field: 'product_ean', operator: 'eq', value: '8410000000001' }] });
    const campaigns = [
      discount(1, { rule_application: byCode, rule_effects: [{ type: 'percentage', value: 10 }] }),
      discount(2, { rule_application: byEan, rule_effects: [{ type: 'percentage', value: 5 }] }),
    ];
    const ctx = context({ product_codes: { '10': { code: 'MILK', ean: '8410000000001' }, '11': { code: 'MILK' } } });
    const scanned = { ...line(3, 11, 10), product_code: 'BREAD' };
    const outcome = evaluate(campaigns, cart([line(1, 10, 10), line(2, 12, 10), scanned]), ctx);
    expect(outcome.response.effects.map((e) => [e.rule_id, e.line])).toEqual([[1, 1], [2, 1]]);
    expect(outcome.response.lines.map((l) => l.product_code)).toEqual([undefined, undefined, 'BREAD']);
  });
});

describe('cancellation lines', () => {
  it('a line with a negative total gets no discount and earns no points', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'percentage', value: 10 }] }), points(2, { rule_effects: [{ type: 'ratio', value: 10 }] })],
      cart([line(1, 10, -10, -1), line(2, 11, 5)]),
    );
    expect(outcome.response.effects.map((e) => [e.type, e.line, e.value])).toEqual([
      ['discount', 2, 50],
      ['points', 2, 45],
    ]);
    expect(outcome.response.lines[0].total).toBe(-10);
  });
});
