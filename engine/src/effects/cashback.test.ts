import { describe, expect, it } from 'vitest';
import { ANONYMOUS, cart, context, evaluate, line, points, SETTINGS } from '../../test-support/scenario.js';

const withPoints = (available: number) => context({ customer: { id: 42, points_available: available } });

describe('cashback', () => {
  it('cashback_score_desired spreads by line order, each line capped at half its original_total', () => {
    const outcome = evaluate([], cart([line(1, 10, 4), line(2, 11, 10)], { cashback_score_desired: 500 }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([
      { line_order: 1, score: 200, discount: 2 },
      { line_order: 2, score: 300, discount: 3 },
    ]);
    expect(outcome.response.score_used).toBe(500);
    expect(outcome.response.score_used_as_money).toBe(5);
    expect(outcome.response.lines.map((l) => l.total)).toEqual([2, 7]);
    expect(outcome.response.total).toBe(9);
    expect(outcome.writes.points_used).toEqual({ customer_id: 42, customer_code: null, amount: 500 });
  });

  it('-1 uses all available points, within the caps', () => {
    const outcome = evaluate([], cart([line(1, 10, 4), line(2, 11, 10)], { cashback_score_desired: -1 }), withPoints(2000));
    expect(outcome.response.score_used).toBe(700);
    expect(outcome.response.customer[0].score_available).toBe(1300);
  });

  it('a cart in another currency than the Company\'s spends no points: a point is worth money of the Company\'s currency only', () => {
    for (const request of [{ cashback_score_desired: -1 }, { cashbacks: [{ line_order: 1, score: 500 }] }]) {
      const outcome = evaluate([], cart([line(1, 10, 20)], { currency: 'JPY', ...request }), withPoints(1000));
      expect(outcome.response.cashbacks).toEqual([]);
      expect([outcome.response.score_used, outcome.response.score_used_as_money, outcome.response.total]).toEqual([0, 0, 20]);
      expect(outcome.response.customer[0].score_available).toBe(1000);
      expect(outcome.writes.points_used).toBeNull();
    }
    // The Company's currency sent explicitly spends as when it is left out.
    expect(evaluate([], cart([line(1, 10, 20)], { currency: 'EUR', cashback_score_desired: -1 }), withPoints(1000)).response.score_used).toBe(1000);
  });

  it('never more than the customer has', () => {
    expect(evaluate([], cart([line(1, 10, 100)], { cashback_score_desired: 900 }), withPoints(120)).response.score_used).toBe(120);
  });

  it('explicit cashbacks, clamped to the line cap', () => {
    const outcome = evaluate([], cart([line(1, 10, 4), line(2, 11, 10)], { cashbacks: [{ line_order: 2, score: 800 }] }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([{ line_order: 2, score: 500, discount: 5 }]);
  });

  it('the point value and the cap share come from the settings', () => {
    const settings = { ...SETTINGS, point_value: 0.05, cashback_cap: 0.2 };
    const outcome = evaluate([], cart([line(1, 10, 10)], { cashback_score_desired: -1 }), withPoints(1000), settings);
    // Cap 2.00 = 40 points at 0.05.
    expect(outcome.response.cashbacks).toEqual([{ line_order: 1, score: 40, discount: 2 }]);
  });

  it('below score_threshold_cashback nothing is spent', () => {
    const settings = { ...SETTINGS, score_threshold_cashback: 500 };
    const outcome = evaluate([], cart([line(1, 10, 10)], { cashback_score_desired: -1 }), withPoints(499), settings);
    expect(outcome.response.score_used).toBe(0);
    expect(outcome.response.customer[0]).toMatchObject({ score_threshold_cashback: 500, score_to_reach_cashback: 1, money_threshold_cashback: 5 });
  });

  it('an anonymous cart spends nothing', () => {
    expect(evaluate([], cart([line(1, 10, 10)], { cashback_score_desired: -1 }), context(ANONYMOUS)).response.score_used).toBe(0);
  });

  it('points are earned on the lines after cashback; apply_discounts: false keeps cashback', () => {
    const campaigns = [points(1, { rule_effects: [{ type: 'ratio', value: 1 }] })];
    const outcome = evaluate(campaigns, cart([line(1, 10, 10)], { cashback_score_desired: 500, apply_discounts: false }), withPoints(1000));
    expect(outcome.response.score_used).toBe(500);
    expect(outcome.response.score).toBe(5);
  });
});
