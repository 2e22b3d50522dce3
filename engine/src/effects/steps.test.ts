/**
 * Cart rule 4 on the answer: a line's total stays divisible by its quantity after every discount and cashback,
 * so the answered cart is accepted when the till sends it back. Every amount taken off a line is a whole number of
 * its steps (|quantity| cents; p cents for a weighed p/r).
 */
import { describe, expect, it } from 'vitest';
import { cart, context, discount, evaluate, line, SETTINGS } from '../../test-support/scenario.js';
import { evaluateCart, compileCampaigns, type Outcome } from '../index.js';

const values = (outcome: Outcome) => outcome.response.effects.map((e) => ({ line: e.line, value: e.value }));
const totals = (outcome: Outcome) => outcome.response.lines.map((l) => l.total);
const withPoints = (available: number) => context({ customer: { id: 42, points_available: available } });
const combo = {
  conditions: {
    and: [
      { array_field: 'lines', bundle: 1, conditions: [{ field: 'product_id', operator: 'in', values: [10] }] },
      { array_field: 'lines', bundle: 2, conditions: [{ field: 'product_id', operator: 'in', values: [20] }] },
    ],
  },
};

/** The answered cart sent back as a request: the engine reads it (it refuses a line total its quantity does not divide). */
function sentBack(outcome: Outcome): Outcome {
  const { response } = outcome;
  return evaluateCart(compileCampaigns([], SETTINGS), { creation_date: response.creation_date, total: response.total, lines: response.lines }, context());
}

describe('individual_items: per unit, in whole steps of the line', () => {
  it('percentage: the unit price\'s percentage rounded half up, times the units (1% off 3 × 3.33 is 3 × 0.03, not 0.10)', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 1 }] })], cart([line(1, 100, 9.99, 3)]));
    expect(values(outcome)).toEqual([{ line: 1, value: 9 }]);
    expect(totals(outcome)).toEqual([9.9]);
    expect(sentBack(outcome).response.total).toBe(9.9);
  });

  it('percentage: 7% off 3 × 3.33 takes 3 × 0.23 = 0.69', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 7 }] })], cart([line(1, 100, 9.99, 3)]));
    expect(values(outcome)).toEqual([{ line: 1, value: 69 }]);
    expect(totals(outcome)).toEqual([9.3]);
  });

  it('limits covering part of a line: its discount floored to the line\'s step (2 of 3 units at 7%: 0.46 -> 0.45)', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 7, limits: 2 }] })], cart([line(1, 100, 9.99, 3)]));
    expect(values(outcome)).toEqual([{ line: 1, value: 45 }]);
    expect(totals(outcome)).toEqual([9.54]);
  });

  it('direct_value: the value per unit; on 2 of 3 units (limits) floored to the step', () => {
    expect(values(evaluate([discount(1, { rule_effects: [{ type: 'direct_value', value: 0.5 }] })], cart([line(1, 100, 9.99, 3)])))).toEqual([{ line: 1, value: 150 }]);
    const limited = evaluate([discount(1, { rule_effects: [{ type: 'direct_value', value: 0.5, limits: 2 }] })], cart([line(1, 100, 9.99, 3)]));
    expect(values(limited)).toEqual([{ line: 1, value: 99 }]);
    expect(totals(limited)).toEqual([9]);
  });

  it('a weighed line (1.5 = 3/2) is discounted in steps of 3 cents: 7% of 4.50 = 0.32 -> 0.30; 0.50 off -> 0.48', () => {
    const weighed = cart([line(1, 100, 4.5, 1.5)]);
    const percent = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 7 }] })], weighed);
    expect(values(percent)).toEqual([{ line: 1, value: 30 }]);
    expect(totals(percent)).toEqual([4.2]);
    const direct = evaluate([discount(1, { rule_effects: [{ type: 'direct_value', value: 0.5 }] })], weighed);
    expect(totals(direct)).toEqual([4.02]);
    expect(sentBack(direct).response.lines[0].total).toBe(4.02);
  });
});

describe('amounts split over lines: each share in whole steps', () => {
  it('individual_items_pro_rata: shares floored to the steps, the cents left to the largest remainder that can take a step', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 1, distribution: 'individual_items_pro_rata' }] })],
      cart([line(1, 10, 9.99, 3), line(2, 11, 1, 1)]),
    );
    // Exact shares 90.90 and 9.10: 90 (a multiple of 3) and 9; the cent left cannot be 3 cents: line 2 takes it.
    expect(values(outcome)).toEqual([{ line: 1, value: 90 }, { line: 2, value: 10 }]);
    expect(totals(outcome)).toEqual([9.09, 0.9]);
  });

  it('individual_items_pro_rata: a remainder no line can take in a whole step is not given (below the nominal by less than a step)', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 1, distribution: 'individual_items_pro_rata' }] })],
      cart([line(1, 10, 9.99, 3)]),
    );
    expect(values(outcome)).toEqual([{ line: 1, value: 99 }]);
    expect(outcome.response.total_discount_promotion_applied).toBe(0.99);
  });

  it('individual_items_pro_rata: a line takes a step beyond its share when the largest remainder\'s step does not fit', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 1, distribution: 'individual_items_pro_rata' }] })],
      cart([line(1, 10, 9.99, 3), line(2, 11, 10, 2)]),
    );
    // Exact shares 49.97 and 50.03: 48 and 50, 2 cents left; line 1's step (3) does not fit, line 2's (2) does.
    expect(values(outcome)).toEqual([{ line: 1, value: 48 }, { line: 2, value: 52 }]);
  });

  it('total: taken in line order, each line in whole steps', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'direct_value', value: 5.01, distribution: 'total' }] })],
      cart([line(1, 10, 3.98, 2), line(2, 11, 9.99, 3), line(3, 12, 1, 1)]),
    );
    // 3.98 from line 1; 1.03 left: 1.02 from line 2 (34 × 3 cents), the cent from line 3.
    expect(values(outcome)).toEqual([{ line: 1, value: 398 }, { line: 2, value: 102 }, { line: 3, value: 1 }]);
    expect(totals(outcome)).toEqual([0, 8.97, 0.99]);
  });

  it('total_cart: one effect of the whole amount, spread in whole steps', () => {
    const outcome = evaluate(
      [discount(1, { rule_effects: [{ type: 'percentage', value: 10, distribution: 'total_cart' }] })],
      cart([line(1, 10, 9.99, 3), line(2, 11, 1.01, 1)]),
    );
    expect(values(outcome)).toEqual([{ line: -1, value: 110 }]);
    // Shares 99.9 and 10.1: 99 and 10, the cent left to line 2 (line 1's step is 3).
    expect(totals(outcome)).toEqual([9, 0.9]);
  });

  it('combo_price: the combo discount split over the contributing lines in whole steps', () => {
    const outcome = evaluate(
      [discount(1, { rule_application: combo, rule_effects: [{ type: 'combo_price', value: 4 }] })],
      cart([line(1, 10, 9.99, 3), line(2, 20, 2, 1)]),
    );
    // One combo: 3.33 + 2.00 for 4.00, 1.33 off split 333:200 = 83.09 and 49.91: 81 and 49, then line 1's step.
    expect(values(outcome)).toEqual([{ line: 1, value: 84 }, { line: 2, value: 49 }]);
    expect(totals(outcome)).toEqual([9.15, 1.51]);
  });

  it('maximum_budget_transaction: the cap filled in line order in whole steps', () => {
    const outcome = evaluate(
      [discount(1, { maximum_budget_transaction: 2.5, rule_effects: [{ type: 'percentage', value: 50 }] })],
      cart([line(1, 10, 9.99, 3), line(2, 11, 4, 1)]),
    );
    // 50% of 3.33 = 1.67 a unit (5.01 on line 1); the cap's 2.50 gives line 1 2.49 (83 × 3 cents) and line 2 the cent.
    expect(values(outcome)).toEqual([{ line: 1, value: 249 }, { line: 2, value: 1 }]);
    expect(totals(outcome)).toEqual([7.5, 3.99]);
  });

  it('the budget left caps the same way, and a cap no step fits in leaves the cents unspent', () => {
    const campaign = discount(1, { budget_value: 10, rule_effects: [{ type: 'percentage', value: 50 }] });
    const outcome = evaluate([campaign], cart([line(1, 10, 9.99, 3)]), context({ counters: { 1: { budget_spent_cents: 998 } } }));
    expect(values(outcome)).toEqual([]);
    expect(totals(outcome)).toEqual([9.99]);
    expect(outcome.writes.budgets).toEqual([]);
  });
});

describe('cashback: the money on a line in whole steps, the points that buy it', () => {
  it('5.01 of cashback on a 2-unit line of 20.00 spends 500 points (5.00); the point left is not spent', () => {
    const outcome = evaluate([], cart([line(1, 10, 20, 2)], { cashback_score_desired: 501 }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([{ line_order: 1, score: 500, discount: 5 }]);
    expect(outcome.response.score_used).toBe(500);
    expect(totals(outcome)).toEqual([15]);
    expect(outcome.writes.points_used?.amount).toBe(500);
  });

  it('explicit cashbacks the same', () => {
    const outcome = evaluate([], cart([line(1, 10, 20, 2)], { cashbacks: [{ line_order: 1, score: 501 }] }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([{ line_order: 1, score: 500, discount: 5 }]);
  });

  it('cashback_score_desired spreads by line order: what a line cannot take in whole steps goes to the next', () => {
    const outcome = evaluate([], cart([line(1, 10, 20, 2), line(2, 11, 10, 1)], { cashback_score_desired: 503 }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([
      { line_order: 1, score: 502, discount: 5.02 },
      { line_order: 2, score: 1, discount: 0.01 },
    ]);
    expect(totals(outcome)).toEqual([14.98, 9.99]);
  });

  it('a point value of half a cent: points in blocks whose money is whole steps (6 points, 3 cents, on a 3-unit line)', () => {
    const settings = { ...SETTINGS, point_value: 0.005 };
    const outcome = evaluate([], cart([line(1, 10, 9.99, 3)], { cashback_score_desired: -1 }), withPoints(5000), settings);
    // Cap 4.99 = 998 points (4.99); in steps of 3 cents: 996 points for 4.98.
    expect(outcome.response.cashbacks).toEqual([{ line_order: 1, score: 996, discount: 4.98 }]);
    expect(totals(outcome)).toEqual([5.01]);
  });

  it('discounts then cashback then points: the answered cart is accepted back, points a multiple of the quantity', () => {
    const campaigns = [
      discount(1, { rule_effects: [{ type: 'percentage', value: 7 }] }),
      { id: 2, type: 'points' as const, rule_params: { name: 'ten', rule_effects: [{ type: 'ratio', value: 10 }] } },
    ];
    const outcome = evaluate(campaigns, cart([line(1, 10, 9.99, 3), line(2, 11, 20, 2)], { cashback_score_desired: 301 }), withPoints(1000));
    // 9.30 and 18.60 after 7% (3 × 0.23, 2 × 0.70); 301 points: 300 on line 1 (a multiple of 3 cents), 1 can go nowhere.
    expect(totals(outcome)).toEqual([6.3, 18.6]);
    expect(outcome.response.score_used).toBe(300);
    expect(outcome.response.scores.map((s) => s.score)).toEqual([63, 186]);
    expect(sentBack(outcome).response.total).toBe(24.9);
  });
});
