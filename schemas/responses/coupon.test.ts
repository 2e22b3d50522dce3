/**
 * One coupon shape (responses.cart#/$defs/coupon, the contract's
 * vouchers[].coupon) in the three answers that show it: a cart's voucher, a
 * voucher read and a reward read, each adding its own fields. Closed, as the
 * contract tests check answers: every contract field is required and a field
 * not described fails.
 */
import { describe, expect, it } from 'vitest';
import { SCHEMA_DOCUMENTS } from '../../server/src/http/validation.js';
import { closedResponseAjv } from '../../server/src/testing/closed-responses.js';

const ajv = closedResponseAjv(SCHEMA_DOCUMENTS.values());

const coupon = {
  id: 1, key: null, name: 'Gift', description: null, static_code: 'GIFT', max_redemptions: 1,
  min_money: null, max_money: null, min_units: null, max_units: null, discount: 10, discount_type: 'percentage', affectation: 'individual_items',
};

/** Where each answer has its coupon, and the fields it adds. */
const PLACES: Record<string, Record<string, unknown>> = {
  'responses.cart#/$defs/voucher/properties/coupon': {},
  'responses.voucher#/properties/coupon': { external_id: 'ext-1', deleted: false },
  'responses.reward#/properties/coupon': { features: [{ id: 2, taxonomy_slug: 'brand' }], product_ids: [] },
};

describe('the coupon of carts, vouchers and rewards', () => {
  for (const [place, own] of Object.entries(PLACES)) {
    it(`${place}: the contract's fields and its own`, () => {
      const valid = ajv.compile({ $ref: place });
      expect(valid({ ...coupon, ...own }), JSON.stringify(valid.errors)).toBe(true);
      const { discount: _, ...withoutDiscount } = coupon;
      expect(valid({ ...withoutDiscount, ...own })).toBe(false);
      expect(valid({ ...coupon, ...own, undescribed: 1 })).toBe(false);
    });
  }

  it('a voucher or reward may have no coupon; a cart voucher always has one', () => {
    expect(ajv.compile({ $ref: 'responses.voucher#/properties/coupon' })(null)).toBe(true);
    expect(ajv.compile({ $ref: 'responses.reward#/properties/coupon' })(null)).toBe(true);
    expect(ajv.compile({ $ref: 'responses.cart#/$defs/voucher/properties/coupon' })(null)).toBe(false);
  });

  it('a voucher read names its coupon by an id', () => {
    expect(ajv.compile({ $ref: 'responses.voucher#/properties/coupon' })({ ...coupon, id: null, external_id: null, deleted: false })).toBe(false);
  });
});
