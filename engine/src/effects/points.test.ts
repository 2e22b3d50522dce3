import { describe, expect, it } from 'vitest';
import { MAX_POINTS } from '../index.js';
import { ANONYMOUS, cart, context, discount, evaluate, line, points, productIn } from '../../test-support/scenario.js';

const ratio = (value: number | string, extra: Record<string, unknown> = {}) => points(1, { rule_effects: [{ type: 'ratio', value, distribution: 'individual_items' }], ...extra });

describe('points: exact rounding down', () => {
  it.each([
    [2.99, 10, 29],
    [12.5, 1, 12],
    [0.29, 100, 29],
    [1.15, 100, 115],
    [10, 0.5, 5],
    [0.99, 1.5, 1],
  ])('%s at %s points per unit earns %s', (total, rate, expected) => {
    const outcome = evaluate([ratio(rate)], cart([line(1, 10, total)]));
    expect(outcome.response.score).toBe(expected);
    expect(outcome.response.scores[0].score).toBe(expected);
  });

  it('points on a line are divisible by its integer quantity', () => {
    // 3 x 3.33 = 9.99 at 1 point per unit = 9 points, a multiple of 3.
    expect(evaluate([ratio(1)], cart([line(1, 10, 9.99, 3)])).response.score).toBe(9);
    // 2 x 4.99 = 9.98 at 1 point = 9 -> 8.
    expect(evaluate([ratio(1)], cart([line(1, 10, 9.98, 2)])).response.score).toBe(8);
  });

  it('one award is at most MAX_POINTS (2147483647), cut down to a multiple of the quantity on a line: every score a safe integer', () => {
    const big = [line(1, 10, 1.5e9, 3), line(2, 11, 1e9, 1)];
    const perLine = evaluate([ratio(MAX_POINTS)], cart(big));
    expect(perLine.response.scores.map((s) => [s.line_order, s.score])).toEqual([[1, MAX_POINTS - (MAX_POINTS % 3)], [2, MAX_POINTS]]);
    expect(perLine.response.score).toBe(2 * MAX_POINTS - (MAX_POINTS % 3));
    expect(perLine.writes.points.map((p) => p.amount)).toEqual([MAX_POINTS - (MAX_POINTS % 3), MAX_POINTS]);
    const onCart = evaluate([points(1, { rule_effects: [{ type: 'ratio', value: MAX_POINTS, distribution: 'total_cart' }] })], cart(big));
    expect(onCart.response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, MAX_POINTS]]);
    const perUnit = evaluate([points(1, { rule_effects: [{ type: 'direct_value', value: MAX_POINTS }] })], cart([line(1, 10, 1e6, 1e6)]));
    expect(perUnit.response.scores.map((s) => s.score)).toEqual([MAX_POINTS - (MAX_POINTS % 1e6)]);
    for (const outcome of [perLine, onCart, perUnit]) expect(Number.isSafeInteger(outcome.response.score)).toBe(true);
  });

  it('a campaign stored before the bound (ratio or direct_value above MAX_POINTS) still compiles: each award is cut to MAX_POINTS', () => {
    const big = [line(1, 10, 0.01, 1), line(2, 11, 5, 2)];
    const stored = evaluate([ratio(1e12), { ...ratio(1e300), id: 2 }], cart(big));
    expect(stored.response.scores.map((s) => [s.line_order, s.score])).toEqual([[1, MAX_POINTS], [2, MAX_POINTS - (MAX_POINTS % 2)], [1, MAX_POINTS], [2, MAX_POINTS - (MAX_POINTS % 2)]]);
    const fixed = (distribution: string) => points(1, { rule_effects: [{ type: 'direct_value', value: 1e12, distribution }] });
    expect(evaluate([fixed('total')], cart(big)).response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, MAX_POINTS]]);
    expect(evaluate([fixed('individual_items')], cart(big)).response.scores.map((s) => [s.line_order, s.score])).toEqual([[1, MAX_POINTS], [2, MAX_POINTS - (MAX_POINTS % 2)]]);
  });

  it('on line totals after discounts', () => {
    const outcome = evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 50 }] }), { ...ratio(10), id: 2 }], cart([line(1, 10, 10)]));
    expect(outcome.response.score).toBe(50);
  });

  it('direct_value: fixed points per unit for individual_items, once for total_cart (line -1)', () => {
    const perUnit = evaluate([points(1, { rule_effects: [{ type: 'direct_value', value: 5 }] })], cart([line(1, 10, 6, 3), line(2, 11, 1)]));
    expect(perUnit.response.scores.map((s) => [s.line_order, s.score])).toEqual([[1, 15], [2, 5]]);
    const once = evaluate([points(1, { rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] })], cart([line(1, 10, 6, 3), line(2, 11, 1)]));
    expect(once.response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, 5]]);
  });

  it('ratio on total_cart earns on the whole cart even when rule_application selects none of its lines', () => {
    const outcome = evaluate(
      [
        points(1, { rule_application: productIn(99), rule_effects: [{ type: 'ratio', value: 1, distribution: 'total_cart' }] }),
        points(2, { rule_application: productIn(99), rule_effects: [{ type: 'ratio', value: 1, distribution: 'total' }] }),
      ],
      cart([line(1, 10, 2.5), line(2, 11, 3)]),
    );
    expect(outcome.response.scores.map((s) => [s.line_order, s.score, s.loyalty_score_id])).toEqual([[-1, 5, 1]]);
  });

  it('a campaign selecting no line still earns its total_cart ratio beside effects on the selected lines', () => {
    const outcome = evaluate(
      [
        points(1, {
          rule_application: productIn(99),
          rule_effects: [
            { type: 'direct_value', value: 7, distribution: 'total_cart' },
            { type: 'ratio', value: 2, distribution: 'total_cart' },
          ],
        }),
      ],
      cart([line(1, 10, 2.5), line(2, 11, 3)]),
    );
    // direct_value on total_cart needs a selected line; the ratio earns on the whole cart: 2 x 5.50 = 11.
    expect(outcome.response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, 11]]);
  });

  it('ratio on total: the applied lines together, floored once', () => {
    const outcome = evaluate(
      [points(1, { rule_application: productIn(10, 11), rule_effects: [{ type: 'ratio', value: 1, distribution: 'total' }] })],
      cart([line(1, 10, 0.6), line(2, 11, 0.6), line(3, 12, 5)]),
    );
    expect(outcome.response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, 1]]);
  });

  it('limits caps the units counted, per line and on total', () => {
    const perLine = evaluate([points(1, { rule_effects: [{ type: 'ratio', value: 1, limits: 3 }] })], cart([line(1, 10, 4, 2), line(2, 11, 10, 2)]));
    // Line 1: both units (4.00 -> 4); line 2: one unit of 5.00 (5, rounded to the quantity 2 -> 4).
    expect(perLine.response.scores.map((s) => [s.line_order, s.score])).toEqual([[1, 4], [2, 4]]);
    const total = evaluate([points(1, { rule_effects: [{ type: 'ratio', value: 1, distribution: 'total', limits: 3 }] })], cart([line(1, 10, 4, 2), line(2, 11, 10, 2)]));
    expect(total.response.scores.map((s) => [s.line_order, s.score])).toEqual([[-1, 9]]);
  });

  it('apply_points: false stops campaign points', () => {
    expect(evaluate([ratio(10)], cart([line(1, 10, 10)], { apply_points: false })).response.score).toBe(0);
  });

  it('effects carry value_as_money and the availability dates; writes carry the points entries', () => {
    const outcome = evaluate([ratio(10)], cart([line(1, 10, 2.99)]));
    expect(outcome.response.effects[0]).toEqual({
      rule_id: 1,
      rule_name: 'points 1',
      type: 'points',
      effect_type: 'ratio',
      distribution_type: 'individual_items',
      select_customers: 'all_customers',
      line: 1,
      value: 29,
      value_as_money: 0.29,
      available_from: '2026-11-20',
      available_to: null,
    });
    expect(outcome.writes.points).toEqual([
      { customer_id: 42, customer_code: null, campaign_id: 1, amount: 29, line_order: 1, available_from: '2026-11-20', available_to: null },
    ]);
    expect(outcome.response.score_as_money).toBe(0.29);
  });

  it('an anonymous cart shows points but writes none', () => {
    const outcome = evaluate([ratio(10)], cart([line(1, 10, 2.99)]), context(ANONYMOUS));
    expect(outcome.response.score).toBe(29);
    expect(outcome.writes.points).toEqual([]);
    expect(outcome.response.customer).toEqual([]);
  });
});

describe('points availability from the campaign settings', () => {
  const datesOf = (extra: Record<string, unknown>, created = '2026-11-20T18:30:00Z') => {
    const { scores } = evaluate([ratio(1, extra)], cart([line(1, 10, 10)], { creation_date: created })).response;
    return [scores[0].available_from, scores[0].available_to];
  };

  it('relative activation delay and relative duration: available through the anniversary (docs/decisions.md)', () => {
    expect(datesOf({ activation_period_type: 'relative', activation_delay: 15, activation_delay_unit: 'days', expiration_period_type: 'relative', availability_duration: 12, availability_duration_unit: 'months' })).toEqual(['2026-12-05', '2027-12-05']);
    expect(datesOf({ expiration_period_type: 'relative', availability_duration: 10, availability_duration_unit: 'days' })).toEqual(['2026-11-20', '2026-11-30']);
    expect(datesOf({ expiration_period_type: 'relative', availability_duration: 0, availability_duration_unit: 'days' })).toEqual(['2026-11-20', '2026-11-20']);
  });

  it('counts the dates of a cart back-dated to the years 0000..0099 in those years, not in 1900..1999', () => {
    const relative = { activation_period_type: 'relative', activation_delay: 15, activation_delay_unit: 'days', expiration_period_type: 'relative', availability_duration: 12, availability_duration_unit: 'months' };
    expect(datesOf(relative, '0050-03-01T12:00:00Z')).toEqual(['0050-03-16', '0051-03-16']);
    expect(datesOf(relative, '0000-02-14T12:00:00Z')).toEqual(['0000-02-29', '0001-02-28']);
  });

  it('a delay or duration reaching beyond 9999-12-31 ends there (campaigns stored before counts were bounded)', () => {
    expect(datesOf({ expiration_period_type: 'relative', availability_duration: 36500, availability_duration_unit: 'years' })).toEqual(['2026-11-20', '9999-12-31']);
    expect(datesOf({ expiration_period_type: 'relative', availability_duration: 4_000_000_000, availability_duration_unit: 'days', availability_duration_natural: true })).toEqual(['2026-11-20', '9999-12-31']);
    expect(datesOf({ activation_period_type: 'relative', activation_delay: 100_000_000, activation_delay_unit: 'days', expiration_period_type: 'relative', availability_duration: 1, availability_duration_unit: 'months' })).toEqual(['9999-12-31', '9999-12-31']);
  });

  it('natural durations end with their calendar month', () => {
    expect(datesOf({ expiration_period_type: 'relative', availability_duration: 1, availability_duration_unit: 'months', availability_duration_natural: true })).toEqual(['2026-11-20', '2026-12-31']);
  });

  it('fixed options: beginning of the next calendar month or year, end of the calendar month and year', () => {
    expect(datesOf({ activation_period_type: 'fixed', activation_fixed_option_selected: 'at_the_beginning_of_the_calendar_year' })).toEqual(['2027-01-01', null]);
    expect(datesOf({ activation_period_type: 'fixed', activation_fixed_option_selected: 'at_the_beginning_of_the_calendar_year', expiration_period_type: 'fixed', fixed_option_selected: 'at_the_end_of_the_calendar_year' })).toEqual(['2027-01-01', '2027-12-31']);
    expect(datesOf({ activation_period_type: 'fixed', activation_fixed_option_selected: 'at_the_beginning_of_the_calendar_month', expiration_period_type: 'fixed', fixed_option_selected: 'at_the_end_of_the_calendar_month' })).toEqual(['2026-12-01', '2026-12-31']);
    expect(datesOf({ expiration_period_type: 'fixed', fixed_option_selected: 'at_the_end_of_the_calendar_year' })).toEqual(['2026-11-20', '2026-12-31']);
    expect(datesOf({ activation_period_type: 'fixed', activation_date: '2027-01-10', expiration_period_type: 'fixed', expiration_date: '2027-06-30' })).toEqual(['2027-01-10', '2027-06-30']);
  });

  it('dates are local to the Company timezone', () => {
    // 23:30 UTC on the 30th is already the 1st of December in Madrid.
    expect(datesOf({}, '2026-11-30T23:30:00Z')).toEqual(['2026-12-01', null]);
  });

  it('a datetime activation_date or expiration_date names the Company\'s day it falls on', () => {
    // 23:30 UTC on 2026-12-31 is 2027-01-01 in Madrid; 21:00 UTC on 2027-06-30 is still the 30th there.
    const fixed = { activation_period_type: 'fixed', activation_date: '2026-12-31T23:30:00Z', expiration_period_type: 'fixed', expiration_date: '2027-06-30T21:00:00Z' };
    expect(datesOf(fixed)).toEqual(['2027-01-01', '2027-06-30']);
    expect(datesOf({ ...fixed, expiration_period_type: 'relative', expiration_date: undefined, availability_duration: 10, availability_duration_unit: 'days' })).toEqual(['2027-01-01', '2027-01-11']);
    expect(datesOf({ expiration_period_type: 'fixed', expiration_date: '2026-12-15T12:00:00-05:00' })).toEqual(['2026-11-20', '2026-12-15']);
  });

  it('points not yet available are left out of the customer\'s available score', () => {
    const outcome = evaluate([ratio(10, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' })], cart([line(1, 10, 10)]));
    expect(outcome.response.customer[0]).toMatchObject({ score: 1100, score_available: 1000 });
  });

  it('counts earned points in the customer\'s score as the ledger settles them on the evaluation\'s day, not the cart\'s', () => {
    // context.now is 2026-11-20: 30 days' delay and 6 months' availability.
    const dated = ratio(10, { activation_period_type: 'relative', activation_delay: 30, activation_delay_unit: 'days', expiration_period_type: 'relative', availability_duration: 6, availability_duration_unit: 'months' });
    const summary = (created: string) => evaluate([dated], cart([line(1, 10, 10)], { creation_date: created })).response.customer[0];
    // Back-dated a year: available from 2025-12-01 to 2026-06-01, expired today: the score is unchanged.
    expect(summary('2025-11-01T10:00:00Z')).toMatchObject({ score: 1000, score_available: 1000 });
    // Back-dated two months: available since 2026-10-31.
    expect(summary('2026-10-01T10:00:00Z')).toMatchObject({ score: 1100, score_available: 1100 });
    // Without a delay, a future-dated cart's points are pending until its day.
    const now = evaluate([ratio(10)], cart([line(1, 10, 10)], { creation_date: '2026-12-01T10:00:00Z' })).response.customer[0];
    expect(now).toMatchObject({ score: 1100, score_available: 1000 });
  });
});
