import { describe, expect, it } from 'vitest';
import { ANONYMOUS, cart, context, discount, evaluate, line, points } from '../../test-support/scenario.js';
import { countedAt, periodKey } from '../index.js';

const limited = discount(1, { once: 'num_month', once_limit: 2, rule_effects: [{ type: 'percentage', value: 10 }] });
const budgeted = discount(2, { budget_period: 'num_day', budget_value: 5, rule_effects: [{ type: 'percentage', value: 10 }] });

describe('once limits', () => {
  it('below the limit: applies and writes the increment with its period key', () => {
    const outcome = evaluate([limited], cart([line(1, 10, 10)]), context({ counters: { '1': { uses: 1 } } }));
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.writes.limits).toEqual([{ campaign_id: 1, customer_id: 42, customer_code: null, period: 'num_month', period_key: '2026-11', increment: 1, limit: 2 }]);
  });

  it('reached: rejected with a reason, nothing written', () => {
    const outcome = evaluate([limited], cart([line(1, 10, 10)]), context({ counters: { '1': { uses: 2 } } }));
    expect(outcome.response.effects).toEqual([]);
    expect(outcome.response.rejected_campaigns).toEqual([{ rule_id: 1, rule_name: 'discount 1', type: 'discount', error: 'once_limit: reached (2 of 2)', coupon_info: null }]);
    expect(outcome.writes.limits).toEqual([]);
  });

  it('a campaign limited per customer does not apply to an anonymous cart', () => {
    const outcome = evaluate([limited], cart([line(1, 10, 10)]), context(ANONYMOUS));
    expect(outcome.response.effects).toEqual([]);
    expect(outcome.response.rejected_campaigns[0].error).toMatch(/^once_limit/);
  });

  it('the period key is taken at the cart\'s creation_date in the Company timezone: a back-dated sale counts in its own period', () => {
    const backDated = cart([line(1, 10, 10)], { creation_date: '2026-11-30T22:30:00Z' });
    const outcome = evaluate([limited], backDated, context({ now: '2026-12-02T09:00:00Z' }));
    expect(outcome.writes.limits[0].period_key).toBe('2026-11');
    expect(evaluate([limited], cart([line(1, 10, 10)], { creation_date: '2026-11-30T23:30:00Z' }), context({ now: '2026-12-02T09:00:00Z' })).writes.limits[0].period_key).toBe('2026-12');
    expect(periodKey('num_month', '2026-11-30T23:30:00Z', 'Europe/Madrid')).toBe('2026-12');
    expect(periodKey('num_day', '2026-11-30T22:30:00Z', 'Europe/Madrid')).toBe('2026-11-30');
    expect(periodKey('num_year', '2026-11-30T22:30:00Z', 'Europe/Madrid')).toBe('2026');
    expect(periodKey('always', '2026-11-30T22:30:00Z', 'Europe/Madrid')).toBe('always');
  });

  it('a creation_date ahead of context.now counts at context.now: a till clock ahead never consumes a period still to come', () => {
    const ahead = cart([line(1, 10, 10)], { creation_date: '2026-12-01T10:00:00Z' });
    const outcome = evaluate([limited, budgeted], ahead, context({ now: '2026-11-30T12:00:00Z' }));
    expect(outcome.writes.limits[0].period_key).toBe('2026-11');
    expect(outcome.writes.budgets[0].period_key).toBe('2026-11-30');
    expect(countedAt('2026-12-01T10:00:00Z', '2026-11-30T12:00:00Z')).toBe('2026-11-30T12:00:00Z');
    expect(countedAt('2026-11-28T10:00:00Z', '2026-11-30T12:00:00Z')).toBe('2026-11-28T10:00:00Z');
  });
});

describe('budgets', () => {
  it('the discount is capped at the budget left, and the consumption written in cents with its period', () => {
    const outcome = evaluate([budgeted], cart([line(1, 10, 100)]), context({ counters: { '2': { budget_spent_cents: 300 } } }));
    expect(outcome.response.effects[0].value).toBe(200);
    expect(outcome.writes.budgets).toEqual([{ campaign_id: 2, period: 'num_day', period_key: '2026-11-20', amount_cents: 200, budget_cents: 500 }]);
  });

  it('exhausted: rejected with a reason', () => {
    const outcome = evaluate([budgeted], cart([line(1, 10, 100)]), context({ counters: { '2': { budget_spent_cents: 500 } } }));
    expect(outcome.response.effects).toEqual([]);
    expect(outcome.response.rejected_campaigns).toMatchObject([{ rule_id: 2, error: 'budget: exhausted for the current period' }]);
  });

  it('a points campaign spends its budget in the money value of its points', () => {
    const campaign = points(3, { budget_value: 1, rule_effects: [{ type: 'ratio', value: 10 }] });
    const outcome = evaluate([campaign], cart([line(1, 10, 100)]), context({ counters: { '3': { budget_spent_cents: 40 } } }));
    // 1000 points wanted, 0.60 of budget left = 60 points.
    expect(outcome.response.score).toBe(60);
    expect(outcome.writes.budgets).toMatchObject([{ campaign_id: 3, amount_cents: 60 }]);
  });

  it('maximum_budget_transaction caps the money value of a points campaign in one cart', () => {
    const campaign = points(4, { maximum_budget_transaction: 0.25, rule_effects: [{ type: 'ratio', value: 10 }] });
    expect(evaluate([campaign], cart([line(1, 10, 100)])).response.score).toBe(25);
  });
});

describe('simulate persists nothing', () => {
  it('writes are empty in simulate mode', () => {
    const outcome = evaluate([limited, budgeted], cart([line(1, 10, 10)]), context({ mode: 'simulate' }));
    expect(outcome.response.effects).toHaveLength(2);
    expect(outcome.writes).toEqual({ points: [], points_used: null, budgets: [], limits: [], stock: [], vouchers_used: [], draws: [], returns: [] });
  });
});
