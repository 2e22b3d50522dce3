import { describe, expect, it } from 'vitest';
import { compileCampaigns } from '../compile/compileCampaigns.js';
import type { Settings } from '../types.js';
import { ANONYMOUS, cart, context, errorOf, evaluate, line, points, SETTINGS } from '../../test-support/scenario.js';

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

  it('never more than the cart\'s lines still add up to: an exchange pays no points out as money', () => {
    const exchange = evaluate([], cart([line(1, 10, 10), line(2, 10, -10, -1)], { cashback_score_desired: -1 }), withPoints(388));
    expect([exchange.response.score_used, exchange.response.total, exchange.response.cashbacks]).toEqual([0, 0, []]);
    expect(exchange.writes.points_used).toBeNull();
    // A line returned beside a dearer one: the cart pays 4, so at most 4 off (400 points), not the 5 of line 1's cap.
    const partly = evaluate([], cart([line(1, 10, 10), line(2, 10, -6, -1)], { cashback_score_desired: -1 }), withPoints(1000));
    expect([partly.response.score_used, partly.response.total]).toEqual([400, 0]);
  });

  it('never more than the customer has', () => {
    expect(evaluate([], cart([line(1, 10, 100)], { cashback_score_desired: 900 }), withPoints(120)).response.score_used).toBe(120);
  });

  it('explicit cashbacks, clamped to the line cap', () => {
    const outcome = evaluate([], cart([line(1, 10, 4), line(2, 11, 10)], { cashbacks: [{ line_order: 2, score: 800 }] }), withPoints(1000));
    expect(outcome.response.cashbacks).toEqual([{ line_order: 2, score: 500, discount: 5 }]);
  });

  it('the point value and the line share come from the settings', () => {
    const settings = { ...SETTINGS, point_value: 0.05, cashback_line_share: 0.2 };
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

describe('cashback_cap: the most points a cart spends', () => {
  const capped = (cap: number | null): Settings => ({ ...SETTINGS, cashback_cap: cap });
  const lines = [line(1, 10, 4), line(2, 11, 10)];

  it('a cap below what the lines allow stops cashback_score_desired; the lines take it in order', () => {
    const outcome = evaluate([], cart(lines, { cashback_score_desired: 600 }), withPoints(1000), capped(300));
    expect(outcome.response.cashbacks).toEqual([
      { line_order: 1, score: 200, discount: 2 },
      { line_order: 2, score: 100, discount: 1 },
    ]);
    expect([outcome.response.score_used, outcome.response.score_used_as_money, outcome.response.total]).toEqual([300, 3, 11]);
    expect(outcome.response.customer[0].score_available).toBe(700);
    expect(outcome.writes.points_used).toEqual({ customer_id: 42, customer_code: null, amount: 300 });
  });

  it('-1 spends the available points up to the cap', () => {
    expect(evaluate([], cart(lines, { cashback_score_desired: -1 }), withPoints(2000), capped(250)).response.cashbacks).toEqual([
      { line_order: 1, score: 200, discount: 2 },
      { line_order: 2, score: 50, discount: 0.5 },
    ]);
    // Fewer points available than the cap: the balance bounds, as without one.
    expect(evaluate([], cart(lines, { cashback_score_desired: -1 }), withPoints(120), capped(250)).response.score_used).toBe(120);
  });

  it('explicit cashbacks share the cap in the order they are listed', () => {
    const request = { cashbacks: [{ line_order: 2, score: 150 }, { line_order: 1, score: 200 }] };
    expect(evaluate([], cart(lines, request), withPoints(1000), capped(300)).response.cashbacks).toEqual([
      { line_order: 2, score: 150, discount: 1.5 },
      { line_order: 1, score: 150, discount: 1.5 },
    ]);
  });

  it('a cap above what the lines allow changes nothing; null or absent is no cap', () => {
    const request = cart(lines, { cashback_score_desired: -1 });
    const uncapped = evaluate([], request, withPoints(2000));
    expect(uncapped.response.score_used).toBe(700);
    expect(evaluate([], request, withPoints(2000), capped(null))).toEqual(uncapped);
    expect(evaluate([], request, withPoints(2000), capped(700))).toEqual(uncapped);
  });

  it('0 spends nothing', () => {
    for (const request of [{ cashback_score_desired: -1 }, { cashback_score_desired: 100 }, { cashbacks: [{ line_order: 1, score: 100 }] }]) {
      const outcome = evaluate([], cart(lines, request), withPoints(1000), capped(0));
      expect([outcome.response.cashbacks, outcome.response.score_used, outcome.response.total]).toEqual([[], 0, 14]);
      expect(outcome.writes.points_used).toBeNull();
    }
  });

  it('a line takes whole steps of the cap; the point its step leaves goes to the next line', () => {
    // 2 x 20.00: 301 points would be 3.01, not a whole number of 2 cents.
    const outcome = evaluate([], cart([line(1, 10, 40, 2), line(2, 11, 10)], { cashback_score_desired: -1 }), withPoints(1000), capped(301));
    expect(outcome.response.cashbacks).toEqual([
      { line_order: 1, score: 300, discount: 3 },
      { line_order: 2, score: 1, discount: 0.01 },
    ]);
  });

  it('a point worth a fraction of a cent buys exactly its money: whole blocks of points, never a rounded cent', () => {
    const settings = (point_value: number) => ({ ...SETTINGS, point_value });
    const tenLines = Array.from({ length: 10 }, (_, i) => line(i + 1, 10 + i, 1));
    // 0.005: 2 points buy 1 cent, so 1 point on a line buys nothing (it was 1 cent for half a cent's worth).
    const single = evaluate([], cart(tenLines, { cashbacks: tenLines.map((_, i) => ({ line_order: i + 1, score: 1 })) }), withPoints(1000), settings(0.005));
    expect([single.response.cashbacks, single.response.score_used, single.response.total]).toEqual([[], 0, 10]);
    const desired = evaluate([], cart([line(1, 10, 100)], { cashback_score_desired: 501 }), withPoints(1000), settings(0.005));
    expect(desired.response.cashbacks).toEqual([{ line_order: 1, score: 500, discount: 2.5 }]);
    // 0.003: 10 points buy 3 cents.
    for (const [request, score, discount] of [[1001, 1000, 3], [-1, 1660, 4.98]] as const) {
      const outcome = evaluate([], cart([line(1, 10, 100)], { cashback_score_desired: request }), withPoints(1666), settings(0.003));
      expect(outcome.response.cashbacks).toEqual([{ line_order: 1, score, discount }]);
      expect(outcome.response.score_used_as_money).toBe(discount);
      expect(outcome.writes.points_used?.amount).toBe(score);
    }
  });

  it('is an integer 0..2147483647 or null, and the line share stays its own setting', () => {
    for (const cap of [0.5, -1, 2147483648, '100']) {
      expect(errorOf(() => compileCampaigns([], { ...SETTINGS, cashback_cap: cap as number }))).toEqual({
        code: 'invalid_request',
        field: 'settings.cashback_cap',
        message: 'settings.cashback_cap: must be an integer between 0 and 2147483647 or null',
      });
    }
    expect(compileCampaigns([], capped(2147483647)).toJSON().settings).toMatchObject({ cashback_line_share: '0.5', cashback_cap: 2147483647 });
  });
});
