import { describe, expect, it } from 'vitest';
import { cart, discount, evaluate, line, productIn } from '../../test-support/scenario.js';

const effectsOf = (outcome: ReturnType<typeof evaluate>) => outcome.response.effects.map((e) => ({ line: e.line, value: e.value, rule_id: e.rule_id }));
const lineTotals = (outcome: ReturnType<typeof evaluate>) => outcome.response.lines.map((l) => l.total);

describe('discount effect types and distributions', () => {
  it('percentage, individual_items: each applied line, rounded half up to the cent', () => {
    const outcome = evaluate(
      [discount(1, { rule_application: productIn(10, 11), rule_effects: [{ type: 'percentage', value: 15, distribution: 'individual_items' }] })],
      cart([line(1, 10, 9.99, 1), line(2, 11, 0.3, 1), line(3, 12, 5, 1)]),
    );
    // 15% of 9.99 = 1.4985 -> 1.50; 15% of 0.30 = 0.045 -> 0.05.
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 150, rule_id: 1 }, { line: 2, value: 5, rule_id: 1 }]);
    expect(lineTotals(outcome)).toEqual([8.49, 0.25, 5]);
    expect(outcome.response.total).toBe(13.74);
    expect(outcome.response.total_discount_promotion_applied).toBe(1.55);
    expect(outcome.response.total_discount_applied).toBe(1.55);
  });

  it('direct_value, individual_items: the value per unit', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'direct_value', value: 0.5 }] })], cart([line(1, 10, 6, 3)]));
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 150, rule_id: 1 }]);
  });

  it('limits caps the units discounted, in line order', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'percentage', value: 50, distribution: 'individual_items', limits: 3 }] })],
      cart([line(1, 10, 4, 2), line(2, 11, 10, 2)]),
    );
    // Line 1: both units (2.00 off); line 2: one of two units (50% of 5.00 = 2.50).
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 200, rule_id: 1 }, { line: 2, value: 250, rule_id: 1 }]);
  });

  it('individual_items_pro_rata: one amount split by line totals, cents adding up (largest remainder)', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 1, distribution: 'individual_items_pro_rata' }] })],
      cart([line(1, 10, 1), line(2, 11, 1), line(3, 12, 1)]),
    );
    const values = outcome.response.effects.map((e) => e.value);
    expect(values).toEqual([34, 33, 33]);
    expect(values.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('pro-rata splits stay exact for amounts beyond 2^53 in intermediate products', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 100000.01, distribution: 'individual_items_pro_rata' }] })],
      cart([line(1, 10, 50000000), line(2, 11, 50000000), line(3, 12, 50000000)]),
    );
    expect(outcome.response.effects.map((e) => e.value)).toEqual([3333334, 3333334, 3333333]);
  });

  it('total: one amount taken from the applied lines in line order', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] })],
      cart([line(1, 10, 5), line(2, 11, 5)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 500, rule_id: 1 }, { line: 2, value: 200, rule_id: 1 }]);
  });

  it('total_cart: one effect on line -1 over the whole cart, spread over the lines', () => {
    const outcome = evaluate(
      [discount(1, { rule_application: productIn(10), rule_effects: [{ type: 'percentage', value: 10, distribution: 'total_cart' }] })],
      cart([line(1, 10, 10), line(2, 11, 20)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: -1, value: 300, rule_id: 1 }]);
    expect(lineTotals(outcome)).toEqual([9, 18]);
  });

  it('total_cart acts on the whole cart even when rule_application selects none of its lines; other distributions then do nothing', () => {
    const outcome = evaluate(
      [
        discount(1, { rule_application: productIn(99), rule_effects: [{ type: 'percentage', value: 10, distribution: 'total_cart' }] }),
        discount(2, { rule_application: productIn(99), rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] }),
      ],
      cart([line(1, 10, 10), line(2, 11, 20)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: -1, value: 300, rule_id: 1 }]);
    expect(lineTotals(outcome)).toEqual([9, 18]);
  });

  it('a campaign selecting no line still applies its total_cart effect beside effects on the selected lines', () => {
    const outcome = evaluate(
      [
        discount(1, {
          rule_application: productIn(99),
          rule_effects: [
            { type: 'direct_value', value: 1, distribution: 'individual_items' },
            { type: 'percentage', value: 10, distribution: 'total_cart' },
          ],
        }),
      ],
      cart([line(1, 10, 10), line(2, 11, 20)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: -1, value: 300, rule_id: 1 }]);
    expect(outcome.response.total).toBe(27);
  });

  it('no line below zero: a direct value larger than the line', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'direct_value', value: 50 }] })], cart([line(1, 10, 20)]));
    expect(lineTotals(outcome)).toEqual([0]);
    expect(outcome.response.effects[0].value).toBe(2000);
  });

  it('combo_price: bundle parts form combos at the combo price', () => {
    const combo = {
      conditions: {
        and: [
          { array_field: 'lines', bundle: 1, conditions: [{ field: 'product_id', operator: 'in', values: [10] }] },
          { array_field: 'lines', bundle: 2, conditions: [{ field: 'product_id', operator: 'in', values: [20] }] },
        ],
      },
    };
    const outcome = evaluate(
      [discount(1, { rule_application: combo, rule_effects: [{ type: 'combo_price', value: 5 }] })],
      cart([line(1, 10, 8, 2), line(2, 20, 3, 1), line(3, 30, 9, 1)]),
    );
    // One combo (one unit of 10 at 4.00 + one unit of 20 at 3.00 = 7.00) for 5.00: 2.00 off, split 4:3.
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 114, rule_id: 1 }, { line: 2, value: 86, rule_id: 1 }]);
    expect(outcome.response.effects[0].effect_type).toBe('combo_price');
  });

  it('several effects of one campaign act in turn', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'percentage', value: 10 }, { type: 'direct_value', value: 1, distribution: 'total' }] })],
      cart([line(1, 10, 10)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 100, rule_id: 1 }, { line: 1, value: 100, rule_id: 1 }]);
    expect(lineTotals(outcome)).toEqual([8]);
  });
});

describe('caps, order and stackability', () => {
  it('maximum_budget_transaction caps the discount of one cart', () => {
    const outcome = evaluate(
      [discount(1, { maximum_budget_transaction: 2.5, rule_effects: [{ type: 'percentage', value: 50 }] })],
      cart([line(1, 10, 4), line(2, 11, 4)]),
    );
    expect(effectsOf(outcome)).toEqual([{ line: 1, value: 200, rule_id: 1 }, { line: 2, value: 50, rule_id: 1 }]);
  });

  it('campaigns run in ascending priority, ties by id; stacked discounts apply on the reduced totals', () => {
    const outcome = evaluate(
      [
        discount(3, { priority: 1, rule_effects: [{ type: 'direct_value', value: 1 }] }),
        discount(2, { priority: 1, rule_effects: [{ type: 'percentage', value: 50 }] }),
        discount(9, { priority: 0, rule_effects: [{ type: 'percentage', value: 10 }] }),
      ],
      cart([line(1, 10, 10)]),
    );
    expect(effectsOf(outcome)).toEqual([
      { line: 1, value: 100, rule_id: 9 },
      { line: 1, value: 450, rule_id: 2 },
      { line: 1, value: 100, rule_id: 3 },
    ]);
  });

  it('exclusive: only lines no other discount touched, and no later discount on them', () => {
    const outcome = evaluate(
      [
        discount(1, { priority: 0, rule_application: productIn(10), rule_effects: [{ type: 'percentage', value: 10 }] }),
        discount(2, { priority: 1, stackability_properties: 'exclusive', rule_effects: [{ type: 'percentage', value: 20 }] }),
        discount(3, { priority: 2, rule_effects: [{ type: 'direct_value', value: 1 }] }),
      ],
      cart([line(1, 10, 10), line(2, 11, 10)]),
    );
    expect(effectsOf(outcome)).toEqual([
      { line: 1, value: 100, rule_id: 1 },
      { line: 2, value: 200, rule_id: 2 },
      { line: 1, value: 100, rule_id: 3 },
    ]);
  });

  it('apply_discounts: false stops campaign discounts', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 10 }] })], cart([line(1, 10, 10)], { apply_discounts: false }));
    expect(outcome.response.effects).toEqual([]);
    expect(outcome.response.total).toBe(10);
  });

  it('reports every effect field of the contract', () => {
    const outcome = evaluate([discount(1, { select_customers: 'loyalty', rule_effects: [{ type: 'percentage', value: 10 }] })], cart([line(1, 10, 10)]));
    expect(outcome.response.effects[0]).toEqual({
      rule_id: 1,
      rule_name: 'discount 1',
      type: 'discount',
      effect_type: 'percentage',
      distribution_type: 'individual_items',
      select_customers: 'loyalty',
      line: 1,
      value: 100,
    });
  });
});
