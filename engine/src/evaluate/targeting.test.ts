import { describe, expect, it } from 'vitest';
import { ANONYMOUS, cart, context, discount, evaluate, line } from '../../test-support/scenario.js';

const applies = (params: Record<string, unknown>, cartExtra: Record<string, unknown> = {}, ctx = context()) =>
  evaluate([discount(1, { rule_effects: [{ type: 'percentage', value: 10 }], ...params })], cart([line(1, 10, 10)], cartExtra), ctx).response.effects.length === 1;

// CREATED is Friday 2026-11-20 19:30 in Madrid.
describe('targeting at the cart creation date in the Company timezone', () => {
  it('active', () => {
    expect(applies({ active: false })).toBe(false);
    expect(applies({ active: true })).toBe(true);
  });

  it('available_from / available_to as instants and as whole local days', () => {
    expect(applies({ available_from: '2026-11-20T18:00:00Z', available_to: '2026-11-20T19:00:00Z' })).toBe(true);
    expect(applies({ available_from: '2026-11-20T18:31:00Z' })).toBe(false);
    expect(applies({ available_to: '2026-11-20T18:29:59Z' })).toBe(false);
    expect(applies({ available_from: '2026-11-20', available_to: '2026-11-20' })).toBe(true);
    // 23:30 UTC on the 20th is the 21st in Madrid: outside a campaign ending on the 20th.
    expect(applies({ available_to: '2026-11-20' }, { creation_date: '2026-11-20T23:30:00Z' })).toBe(false);
  });

  it('weekly and monthly recurrence', () => {
    expect(applies({ recurrence_type: 'weekly', recurrence_days: [5] })).toBe(true);
    expect(applies({ recurrence_type: 'weekly', recurrence_days: [1, 2, 3] })).toBe(false);
    expect(applies({ recurrence_type: 'monthly', recurrence_days: [20] })).toBe(true);
    expect(applies({ recurrence_type: 'monthly', recurrence_days: [21] })).toBe(false);
    expect(applies({ recurrence_type: 'daily' })).toBe(true);
  });

  it('select_customers: loyalty needs an identified customer', () => {
    expect(applies({ select_customers: 'loyalty' })).toBe(true);
    expect(applies({ select_customers: 'loyalty' }, {}, context(ANONYMOUS))).toBe(false);
    expect(applies({ select_customers: 'all_customers' }, {}, context(ANONYMOUS))).toBe(true);
  });

  it('select_customers: targeted needs the campaign\'s voucher, sent through coupons_desired', () => {
    const holder = context({ customer: { id: 42, vouchers: [{ code: 'T1', campaign_id: 1 }] } });
    expect(applies({ select_customers: 'targeted' }, { coupons_desired: 'all' }, holder)).toBe(true);
    expect(applies({ select_customers: 'targeted' }, { coupons_desired: ['T1'] }, holder)).toBe(true);
    expect(applies({ select_customers: 'targeted' }, {}, holder)).toBe(false);
    expect(applies({ select_customers: 'targeted' }, { coupons_desired: 'all' })).toBe(false);
  });

  it('customer_registration_countries', () => {
    const french = context({ customer: { id: 42, registration_country: 'FR', country: 'ES' } });
    expect(applies({ customer_registration_countries: ['FR'] }, {}, french)).toBe(true);
    expect(applies({ customer_registration_countries: ['ES'] }, {}, french)).toBe(false);
    expect(applies({ customer_registration_countries: ['ES'] }, {}, context(ANONYMOUS))).toBe(false);
  });

  it('a campaign in another currency does not apply', () => {
    expect(applies({ currency: 'USD' })).toBe(false);
    expect(applies({ currency: 'USD' }, { currency: 'USD' })).toBe(true);
  });

  it('rule_conditions, also as a JSON string', () => {
    const conditions = { conditions: { and: [{ field: 'total', operator: 'gte', value: 10 }] } };
    expect(applies({ rule_conditions: conditions })).toBe(true);
    expect(applies({ rule_conditions: JSON.stringify(conditions) })).toBe(true);
    expect(applies({ rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 10.01 }] } } })).toBe(false);
  });
});
