import { describe, expect, it } from 'vitest';
import { voucherCoupon } from '../index.js';

const coupon = { id: '9223372036854775807', key: 'K', name: 'Gift', description: 'A gift', static_code: 'GIFT', max_redemptions: 3, printable: true };

describe('voucherCoupon: the coupon as the Cart response shows it', () => {
  it('has every field of the contract, the discount of the first effect, and none of the other coupon_params', () => {
    const read = voucherCoupon(coupon, { type: 'discount', rule_params: { rule_effects: [{ type: 'combo_price', value: 12.5, distribution: 'total' }] } });
    expect(read).toEqual({
      id: '9223372036854775807', key: 'K', name: 'Gift', description: 'A gift', static_code: 'GIFT', max_redemptions: 3,
      min_money: null, max_money: null, min_units: null, max_units: null, discount: 12.5, discount_type: 'combo_price', affectation: 'total',
    });
  });

  it('a percentage is the percentage; a points campaign gives its ratio or its points', () => {
    const percent = voucherCoupon({}, { type: 'discount', rule_params: { rule_effects: [{ type: 'percentage', value: 12.5 }] } });
    expect(percent).toMatchObject({ discount: 12.5, discount_type: 'percentage', affectation: 'individual_items' });
    const ratio = voucherCoupon({}, { type: 'points', rule_params: { rule_effects: [{ type: 'ratio', value: 10 }] } });
    expect(ratio).toMatchObject({ discount: 10, discount_type: 'ratio' });
    const points = voucherCoupon({}, { type: 'points', rule_params: { rule_effects: [{ type: 'direct_value', value: 150, distribution: 'total' }] } });
    expect(points).toMatchObject({ discount: 150, discount_type: 'direct_value', affectation: 'total' });
  });

  it('has no discount without its campaign (a deleted coupon of a campaign that no longer exists)', () => {
    expect(voucherCoupon({ name: 'Gift' })).toMatchObject({ name: 'Gift', max_redemptions: 1, discount: null, discount_type: null, affectation: null });
  });
});
