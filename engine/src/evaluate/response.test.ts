import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart } from '../index.js';
import { cart, context, discount, evaluate, line, points, SETTINGS } from '../../test-support/scenario.js';

const campaigns = [
  discount(1, { rule_effects: [{ type: 'percentage', value: 10 }] }),
  points(2, { rule_effects: [{ type: 'ratio', value: 1 }] }),
  { id: 3, type: 'instant_win' as const, rule_params: { name: 'Win' }, prizes: [{ id: 1, name: 'Mug', weight: 0.5, stock: 10 }] },
];

describe('the cart response', () => {
  it('carries every field of the contract', () => {
    const outcome = evaluate(campaigns, cart([line(1, 10, 10)], { id: 77, code: 'T-77', location_id: 5 }));
    expect(Object.keys(outcome.response).sort()).toEqual(
      [
        'id', 'code', 'creation_date', 'location_id', 'currency', 'total', 'original_total', 'score', 'score_as_money', 'score_used', 'score_used_as_money',
        'score_returned_from_customer', 'score_returned_from_customer_as_money', 'score_returned_to_customer', 'score_returned_to_customer_as_money',
        'total_scores_coupon_applied', 'total_scores_coupon_applied_as_money', 'total_discount_voucher_applied', 'total_discount_promotion_applied',
        'total_discount_applied', 'lines', 'customer', 'effects', 'rejected_campaigns', 'invalid_coupons', 'vouchers', 'cashbacks', 'cashback_returns',
        'scores', 'returns', 'promotions',
      ].sort(),
    );
    expect(outcome.response).toMatchObject({ id: 77, code: 'T-77', location_id: 5, currency: 'EUR', total: 9, original_total: 10, score: 9 });
  });

  it('total_discount_applied counts from original_total (discounts applied before the evaluation included)', () => {
    const outcome = evaluate(campaigns.slice(0, 1), cart([line(1, 10, 10)], { original_total: 12 }));
    expect(outcome.response.total).toBe(9);
    expect(outcome.response.total_discount_applied).toBe(3);
    expect(outcome.response.total_discount_promotion_applied).toBe(1);
  });

  it('the customer summary, as an array', () => {
    const outcome = evaluate(campaigns.slice(0, 2), cart([line(1, 10, 10)]), context({ customer: { id: 42, code: 'C42', points: 1500, points_available: 1000, fraudulent: false, attributes: { vip: true } } }));
    expect(outcome.response.customer).toEqual([
      {
        id: 42,
        code: 'C42',
        score: 1509,
        score_as_money: 15.09,
        score_available: 1009,
        score_available_as_money: 10.09,
        score_threshold_cashback: 0,
        score_threshold_cashback_as_money: 0,
        money_threshold_cashback: 0,
        score_to_reach_cashback: 0,
        money_to_spend_to_reach_cashback: 0,
        fraudulent: false,
        attributes: { vip: true },
      },
    ]);
  });

  it('international when the cart currency differs from the customer\'s registration currency, absent otherwise', () => {
    const foreign = context({ customer: { id: 42, registration_currency: 'GBP' } });
    const home = context({ customer: { id: 42, registration_currency: 'EUR' } });
    expect(evaluate([], cart([line(1, 10, 10)]), foreign).response.international).toBe(true);
    expect(evaluate([], cart([line(1, 10, 10)]), home).response).not.toHaveProperty('international');
  });

  it('echoes attributes, coupons_desired and additional_costs with original_<name> entries', () => {
    const outcome = evaluate([], cart([line(1, 10, 10)], { attributes: { source: 'app' }, coupons_desired: [], additional_costs: { shipping: 4.5 } }));
    expect(outcome.response).toMatchObject({ attributes: { source: 'app' }, coupons_desired: [], additional_costs: { shipping: 4.5, original_shipping: 4.5 } });
  });

  it("answers a line's additional_costs with original_<name> entries too", () => {
    const outcome = evaluate([], cart([line(1, 10, 10, 1, { additional_costs: { wrapping: 1.25 } })]));
    expect(outcome.response.lines[0].additional_costs).toEqual({ wrapping: 1.25, original_wrapping: 1.25 });
  });

  it('keeps an original_<name> the request sent, on the cart and on a line, as it keeps original_total', () => {
    const outcome = evaluate([], cart([line(1, 10, 10, 1, { additional_costs: { wrapping: 1, original_wrapping: 1.25 } })], { additional_costs: { shipping: 3, original_shipping: 4.5 } }));
    expect(outcome.response.additional_costs).toEqual({ shipping: 3, original_shipping: 4.5 });
    expect(outcome.response.lines[0].additional_costs).toEqual({ wrapping: 1, original_wrapping: 1.25 });
  });

  it('lines keep their request fields with the adjusted total and the original_total', () => {
    const outcome = evaluate(campaigns.slice(0, 1), cart([line(1, 10, 10, 2, { product_name: 'Tea', attributes: { a: 1 } })]));
    expect(outcome.response.lines).toEqual([{ order: 1, product_id: 10, quantity: 2, product_name: 'Tea', attributes: { a: 1 }, total: 9, original_total: 10 }]);
  });
});

describe('purity', () => {
  const program = compileCampaigns(campaigns, SETTINGS);
  const input = cart([line(1, '9223372036854775807' as never, 10, 2), line(2, 11, 5)], { id: '9223372036854775806', customer_id: '9223372036854775805', cashback_score_desired: 100 });
  const ctx = context({ customer: { id: '9223372036854775805', points_available: 500 } });

  it('same program, cart, context and seed: deeply equal outcomes', () => {
    expect(evaluateCart(program, input, ctx)).toEqual(evaluateCart(program, input, ctx));
  });

  it('never mutates its inputs', () => {
    const snapshot = JSON.stringify([input, ctx]);
    evaluateCart(program, input, ctx);
    expect(JSON.stringify([input, ctx])).toBe(snapshot);
  });

  it('int64 ids survive exactly', () => {
    const { response, writes } = evaluateCart(program, input, ctx);
    expect(response.id).toBe('9223372036854775806');
    expect(response.lines[0].product_id).toBe('9223372036854775807');
    expect(response.customer[0].id).toBe('9223372036854775805');
    expect(writes.points[0].customer_id).toBe('9223372036854775805');
  });
});
