import { describe, expect, it } from 'vitest';
import { couponDatesRefusal } from '../index.js';
import { cart, context, discount, evaluate, line, points } from '../../test-support/scenario.js';

const tenPercent = [{ type: 'percentage', value: 10 }];
const campaigns = [
  discount(1, { name: 'mass', rule_effects: tenPercent }),
  discount(2, { name: 'with voucher', coupon_required: true, rule_effects: tenPercent }, { coupon_params: { name: 'Voucher coupon', id: 77 } }),
  discount(3, { name: 'static', coupon_required: true, rule_effects: tenPercent }, { coupon_params: { static_code: 'WELCOME' } }),
  discount(4, { name: 'targeted', select_customers: 'targeted', rule_effects: tenPercent }),
];
const customer = {
  id: 42,
  points_available: 0,
  vouchers: [
    { code: 'V-2', campaign_id: 2, voucher_id: 502, selected: true },
    { code: 'V-4', campaign_id: 4, voucher_id: 504, selected: false },
  ],
};
const applied = (coupons_desired: unknown) =>
  evaluate(campaigns, cart([line(1, 10, 100)], { coupons_desired: coupons_desired as never }), context({ customer })).response.effects.map((e) => e.rule_id);

describe('coupons_desired', () => {
  it("'all': mass promotions plus every voucher the customer holds", () => {
    expect(applied('all')).toEqual([1, 2, 4]);
  });

  it("'selected': only the vouchers the customer selected", () => {
    expect(applied('selected')).toEqual([1, 2]);
  });

  it('a list of codes: the listed vouchers and static codes', () => {
    expect(applied(['WELCOME', 'V-4'])).toEqual([1, 3, 4]);
  });

  it('empty or omitted: only promotions without coupon', () => {
    expect(applied([])).toEqual([1]);
    expect(applied(undefined)).toEqual([1]);
  });

  it('a coupon the campaign does not require does not gate it: it applies without the code, and the listed code is not invalid', () => {
    const printable = [discount(6, { name: 'printable', rule_effects: tenPercent }, { coupon_params: { static_code: 'PRINTED' } })];
    for (const coupons_desired of [undefined, [], ['PRINTED']]) {
      const outcome = evaluate(printable, cart([line(1, 10, 100)], { coupons_desired: coupons_desired as never }), context({ customer }));
      expect(outcome.response.effects.map((e) => e.rule_id)).toEqual([6]);
      expect(outcome.response.invalid_coupons).toEqual([]);
      expect(outcome.writes.vouchers_used).toEqual([]);
    }
  });

  it('vouchers_desired (deprecated) is read when coupons_desired is absent', () => {
    const outcome = evaluate(campaigns, cart([line(1, 10, 100)], { vouchers_desired: ['WELCOME'] }), context({ customer }));
    expect(outcome.response.effects.map((e) => e.rule_id)).toEqual([1, 3]);
    expect(outcome.response.vouchers_desired).toEqual(['WELCOME']);
  });

  it('vouchers_desired beside coupons_desired must list the same codes (in any order): two different lists are refused, naming vouchers_desired', () => {
    const both = (vouchers_desired: string[], coupons_desired: unknown) =>
      () => evaluate(campaigns, cart([line(1, 10, 100)], { vouchers_desired, coupons_desired: coupons_desired as never }), context({ customer }));
    for (const coupons of [[], ['V-2'], 'all', ['WELCOME', 'V-2', 'V-4']]) {
      expect(both(['WELCOME', 'V-2'], coupons), JSON.stringify(coupons)).toThrow('vouchers_desired: is not coupons_desired (send one of them)');
    }
    const same = both(['WELCOME', 'V-2'], ['V-2', 'WELCOME'])();
    expect(same.response.effects.map((e) => e.rule_id)).toEqual([1, 2, 3]);
    expect([same.response.vouchers_desired, same.response.coupons_desired]).toEqual([['WELCOME', 'V-2'], ['V-2', 'WELCOME']]);
  });

  it('unknown codes go to invalid_coupons', () => {
    const outcome = evaluate(campaigns, cart([line(1, 10, 100)], { coupons_desired: ['NOPE', 'WELCOME'] }), context({ customer }));
    expect(outcome.response.invalid_coupons).toEqual(['NOPE']);
  });

  it("a listed voucher the customer holds but cannot use is a rejection with the caller's reason, not an unknown code", () => {
    const refused_vouchers = [
      { code: 'V-2-USED', campaign_id: 2, voucher_id: 512, error: 'voucher_redeemed: voucher V-2-USED: already redeemed' },
      { code: 'V-4-OLD', campaign_id: 4, voucher_id: 514, error: 'voucher_expired: voucher V-4-OLD: expired at 2026-01-01T00:00:00Z' },
      { code: 'V-1-OLD', campaign_id: 1, voucher_id: 511, error: 'voucher_expired: voucher V-1-OLD: expired at 2026-01-01T00:00:00Z' },
    ];
    const holder = { ...customer, refused_vouchers };
    const outcome = evaluate(campaigns, cart([line(1, 10, 100)], { coupons_desired: ['V-2-USED', 'V-4-OLD', 'V-1-OLD', 'NOPE'] }), context({ customer: holder }));
    expect(outcome.response.invalid_coupons).toEqual(['NOPE']);
    // The mass campaign needs no coupon: it applies, and its voucher's state is no refusal of it.
    expect(outcome.response.effects.map((e) => e.rule_id)).toEqual([1]);
    expect(outcome.response.rejected_campaigns).toEqual([
      { rule_id: 2, rule_name: 'with voucher', type: 'discount', error: 'voucher_redeemed: voucher V-2-USED: already redeemed', coupon_info: { voucher_id: 512, voucher_code: 'V-2-USED', coupon_id: 77, coupon_name: 'Voucher coupon', static_code: null } },
      { rule_id: 4, rule_name: 'targeted', type: 'discount', error: 'voucher_expired: voucher V-4-OLD: expired at 2026-01-01T00:00:00Z', coupon_info: { voucher_id: 514, voucher_code: 'V-4-OLD', coupon_id: null, coupon_name: null, static_code: null } },
    ]);
    expect(outcome.writes.vouchers_used).toEqual([]);
    // Not listed by code ('all', 'selected'), a voucher that cannot be used is simply not used.
    for (const coupons_desired of ['all', 'selected']) {
      const all = evaluate(campaigns, cart([line(1, 10, 100)], { coupons_desired: coupons_desired as never }), context({ customer: holder }));
      expect(all.response.rejected_campaigns).toEqual([]);
    }
  });

  it('a voucher discount is reported in vouchers, coupon_info and total_discount_voucher_applied, and written as used', () => {
    const outcome = evaluate(campaigns, cart([line(1, 10, 100)], { coupons_desired: ['V-2'] }), context({ customer }));
    const effect = outcome.response.effects.find((e) => e.rule_id === 2);
    expect(effect?.coupon_info).toEqual({ voucher_id: 502, voucher_code: 'V-2', coupon_id: 77, coupon_name: 'Voucher coupon', static_code: null });
    expect(outcome.response.vouchers).toEqual([
      { voucher_id: 502, voucher_code: 'V-2', discount: 9, line_order: 1, product_id: 10, rule_id: 2, coupon: {
        id: 77, key: null, name: 'Voucher coupon', description: null, static_code: null, max_redemptions: 1,
        min_money: null, max_money: null, min_units: null, max_units: null, discount: 10, discount_type: 'percentage', affectation: 'individual_items',
      } },
    ]);
    expect(outcome.response.total_discount_voucher_applied).toBe(9);
    expect(outcome.response.total_discount_promotion_applied).toBe(10);
    expect(outcome.writes.vouchers_used).toEqual([{ campaign_id: 2, voucher_code: 'V-2', voucher_id: 502, static_code: false }]);
  });

  it('points earned through a voucher name it in coupon_info, as a discount does, and count in total_scores_coupon_applied', () => {
    const pointsByVoucher = points(5, { select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] }, { coupon_params: { name: 'Bonus coupon', id: 78 } });
    const holder = { ...customer, vouchers: [{ code: 'P-5', campaign_id: 5, voucher_id: 505, selected: true }] };
    const outcome = evaluate([pointsByVoucher], cart([line(1, 10, 100)], { coupons_desired: ['P-5'] }), context({ customer: holder }));
    expect(outcome.response.effects).toEqual([expect.objectContaining({ rule_id: 5, type: 'points', value: 7, coupon_info: { voucher_id: 505, voucher_code: 'P-5', coupon_id: 78, coupon_name: 'Bonus coupon', static_code: null } })]);
    expect(outcome.response.total_scores_coupon_applied).toBe(7);
  });

  it('a listed coupon whose campaign does not apply is reported in rejected_campaigns', () => {
    const strict = [discount(3, { coupon_required: true, rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 500 }] } }, rule_effects: tenPercent }, { coupon_params: { static_code: 'WELCOME' } })];
    const outcome = evaluate(strict, cart([line(1, 10, 100)], { coupons_desired: ['WELCOME'] }), context({ customer }));
    expect(outcome.response.effects).toEqual([]);
    expect(outcome.response.rejected_campaigns).toEqual([
      { rule_id: 3, rule_name: 'discount 3', type: 'discount', error: 'the cart does not meet the rule conditions', coupon_info: { voucher_id: null, voucher_code: null, coupon_id: null, coupon_name: null, static_code: 'WELCOME' } },
    ]);
  });

  it('a voucher for a campaign that needs no coupon is not used up', () => {
    const holder = { id: 42, vouchers: [{ code: 'V-1', campaign_id: 1, voucher_id: 501 }] };
    const outcome = evaluate(campaigns.slice(0, 1), cart([line(1, 10, 100)], { coupons_desired: 'all' }), context({ customer: holder }));
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.response.effects[0]).not.toHaveProperty('coupon_info');
    expect(outcome.writes.vouchers_used).toEqual([]);
    expect(outcome.response.total_discount_promotion_applied).toBe(10);
  });

  it("a listed static code uses the customer's voucher of that coupon expiring first", () => {
    const byCode = [
      discount(6, { select_customers: 'targeted', rule_effects: tenPercent }, { coupon_params: { static_code: 'TGT5', id: 79 } }),
      discount(7, { coupon_required: true, rule_effects: tenPercent }, { coupon_params: { static_code: 'REQ' } }),
    ];
    const holder = {
      id: 42,
      vouchers: [
        { code: 'T-LATE', campaign_id: 6, voucher_id: 601, available_to: '2026-12-31T00:00:00Z' },
        { code: 'T-NEVER', campaign_id: 6, voucher_id: 602 },
        { code: 'T-EARLY', campaign_id: 6, voucher_id: 603, available_to: '2026-11-30T00:00:00Z' },
        { code: 'R-1', campaign_id: 7, voucher_id: 701, available_to: null },
      ],
    };
    const outcome = evaluate(byCode, cart([line(1, 10, 100)], { coupons_desired: ['TGT5', 'REQ'] }), context({ customer: holder }));
    expect(outcome.response.rejected_campaigns).toEqual([]);
    expect(outcome.response.effects.map((e) => [e.rule_id, e.coupon_info])).toEqual([
      [6, { voucher_id: 603, voucher_code: 'T-EARLY', coupon_id: 79, coupon_name: null, static_code: 'TGT5' }],
      [7, { voucher_id: 701, voucher_code: 'R-1', coupon_id: null, coupon_name: null, static_code: 'REQ' }],
    ]);
    expect(outcome.response.vouchers.map((v) => v.voucher_code)).toEqual(['T-EARLY', 'R-1']);
    expect(outcome.writes.vouchers_used).toEqual([
      { campaign_id: 6, voucher_code: 'T-EARLY', voucher_id: 603, static_code: false },
      { campaign_id: 7, voucher_code: 'R-1', voucher_id: 701, static_code: false },
    ]);
  });

  it("a static code works only within its coupon's dates, a date being a whole day of the Company", () => {
    const dated = (coupon: Record<string, unknown>) => [discount(3, { coupon_required: true, rule_effects: tenPercent }, { coupon_params: { static_code: 'WELCOME', ...coupon } })];
    const use = (coupon: Record<string, unknown>, creation_date = '2026-11-20T18:30:00Z') =>
      evaluate(dated(coupon), cart([line(1, 10, 100)], { coupons_desired: ['WELCOME'], creation_date }), context({ customer }));
    expect(use({ available_from: '2026-11-20', available_to: '2026-11-20' }).response.effects).toHaveLength(1);
    // 23:30 UTC is already the 21st in Madrid.
    const late = use({ available_to: '2026-11-20' }, '2026-11-20T23:30:00Z');
    expect(late.response.effects).toEqual([]);
    expect(late.response.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: 3, error: 'voucher_expired: the coupon has expired at the cart date', coupon_info: { voucher_id: null, voucher_code: null, coupon_id: null, coupon_name: null, static_code: 'WELCOME' } })]);
    expect(late.writes.vouchers_used).toEqual([]);
    const early = use({ available_from: '2026-11-20T19:00:00Z' });
    expect(early.response.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: 3, error: 'voucher_out_date: the coupon is not available yet at the cart date' })]);
    expect(early.response.invalid_coupons).toEqual([]);
    // A voucher carries its own dates (the caller passes only usable ones): the coupon's do not apply to it.
    const holder = { id: 42, vouchers: [{ code: 'W-1', campaign_id: 3, voucher_id: 301 }] };
    const withVoucher = evaluate(dated({ available_to: '2026-11-01' }), cart([line(1, 10, 100)], { coupons_desired: ['W-1'] }), context({ customer: holder }));
    expect(withVoucher.response.effects).toHaveLength(1);
  });

  it('couponDatesRefusal answers as carts decide, in the Company timezone', () => {
    expect(couponDatesRefusal({ available_to: '2026-11-20' }, '2026-11-20T22:59:00Z', 'Europe/Madrid')).toBeNull();
    expect(couponDatesRefusal({ available_to: '2026-11-20' }, '2026-11-20T23:00:00Z', 'Europe/Madrid')).toBe('voucher_expired');
    expect(couponDatesRefusal({ available_from: '2026-11-21' }, '2026-11-20T22:59:00Z', 'Europe/Madrid')).toBe('voucher_out_date');
    expect(couponDatesRefusal({}, '2026-11-20T22:59:00Z', 'Europe/Madrid')).toBeNull();
  });
});
