import { describe, expect, it } from 'vitest';
import { compileCampaigns } from '../compile/compileCampaigns.js';
import { cart, context, discount, errorOf, evaluate, line, SETTINGS } from '../../test-support/scenario.js';
import { evaluateCart } from './evaluateCart.js';

const campaigns = [discount(1, { rule_effects: [{ type: 'percentage', value: 10 }] })];

describe('invalid carts are rejected with invalid_request naming the field', () => {
  it('a cart without lines', () => {
    const without = (lines: unknown) => errorOf(() => evaluate(campaigns, { creation_date: '2026-11-20T18:30:00Z', total: 10, lines } as never));
    // Worded as the cart schema words them for the server (lines: minItems 1).
    expect(without([])).toMatchObject({ code: 'invalid_request', field: 'lines', message: 'lines: must not be empty' });
    expect(without(undefined)).toMatchObject({ code: 'invalid_request', field: 'lines', message: 'lines: is required' });
    expect(without({})).toMatchObject({ code: 'invalid_request', field: 'lines', message: 'lines: must be an array' });
  });

  it('a line total not divisible by its quantity at two decimals', () => {
    const error = errorOf(() => evaluate(campaigns, cart([line(1, 1, 10, 3)])));
    expect(error).toMatchObject({ code: 'invalid_request', field: 'lines[0].total' });
    expect(error.message).toContain('lines[0].total');
  });

  it('accepts a total divisible by a fractional quantity (weighed goods)', () => {
    expect(evaluate(campaigns, cart([line(1, 1, 3, 0.5)])).response.lines[0].total).toBe(2.7);
  });

  it('an amount with more than two decimals', () => {
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 1.005)])))).toMatchObject({ field: 'lines[0].total' });
  });

  it('an amount too large for exact cents, its range stated (whatever its decimals, as a number or a decimal string)', () => {
    for (const total of [1e16, -1e300, 90071992547409.5, '90071992547410', '-90071992547409.01']) {
      const error = errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { total })));
      expect(error).toMatchObject({ code: 'invalid_request', field: 'total', message: 'total: must be a number between -90071992547409 and 90071992547409' });
    }
  });

  it('cashback_score_desired together with cashbacks', () => {
    const c = cart([line(1, 1, 10)], { cashback_score_desired: 10, cashbacks: [{ line_order: 1, score: 10 }] });
    expect(errorOf(() => evaluate(campaigns, c))).toMatchObject({ code: 'invalid_request', field: 'cashbacks', message: 'cashbacks: cannot be sent with cashback_score_desired' });
  });

  it('a cashback score outside the cart schema\'s range, 1..2147483647, the points a request may move', () => {
    for (const score of [0, -1, 2147483648, 1.5]) {
      const c = cart([line(1, 1, 10)], { cashbacks: [{ line_order: 1, score }] });
      expect(errorOf(() => evaluate(campaigns, c))).toMatchObject({ code: 'invalid_request', field: 'cashbacks[0].score', message: 'cashbacks[0].score: must be an integer between 1 and 2147483647' });
    }
  });

  it('a returned quantity larger than the line it refers to', () => {
    const c = cart([line(1, 1, -20, -2)], { returns: [{ ticket_id: 7, line_order: 1, from_line_order: 3, quantity: 3 }] });
    expect(errorOf(() => evaluate(campaigns, c))).toMatchObject({ code: 'invalid_request', field: 'returns[0].quantity' });
  });

  it("a return's quantity that is no number, 0 or beyond ±(2^53 - 1): in a line quantity's words", () => {
    const quantity = (value: unknown) => errorOf(() => evaluate(campaigns, cart([line(1, 1, -20, -2)], { returns: [{ ticket_id: 7, line_order: 1, quantity: value as number }] })));
    for (const value of ['2', true]) {
      expect(quantity(value)).toMatchObject({ code: 'invalid_request', field: 'returns[0].quantity', message: 'returns[0].quantity: must be a number' });
    }
    for (const value of [0, -0, 1e300, -9007199254740992, NaN, Infinity]) {
      expect(quantity(value)).toMatchObject({
        code: 'invalid_request',
        field: 'returns[0].quantity',
        message: 'returns[0].quantity: must be a number between -9007199254740991 and 9007199254740991 other than 0',
      });
    }
  });

  it('accepts a return of at most the line quantity', () => {
    const c = cart([line(1, 1, -20, -2)], { returns: [{ ticket_id: 7, line_order: 1, quantity: 2 }] });
    expect(evaluate(campaigns, c).response.returns).toEqual([{ ticket_id: 7, line_order: 1, quantity: 2, score: 0 }]);
  });

  it('a return naming no line of the cart', () => {
    const c = cart([line(1, 1, 10)], { returns: [{ line_order: 9, quantity: 1 }] });
    expect(errorOf(() => evaluate(campaigns, c))).toMatchObject({ field: 'returns[0].line_order' });
  });

  it('duplicate line orders, a zero quantity, a bad currency, a bad creation_date, bad coupons_desired', () => {
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10), line(1, 2, 10)])))).toMatchObject({ field: 'lines[1].order' });
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10, 0)])))).toMatchObject({ field: 'lines[0].quantity' });
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { currency: 'eur' })))).toMatchObject({ field: 'currency' });
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { creation_date: '20/11/2026' })))).toMatchObject({ field: 'creation_date' });
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { coupons_desired: 'some' as never })))).toMatchObject({
      field: 'coupons_desired',
      message: 'coupons_desired: must be all, selected or a list of codes',
    });
  });

  it('a line quantity that is no number, 0 or beyond ±(2^53 - 1): in the cart schema\'s words (its type, its whole range)', () => {
    const quantity = (value: unknown) => errorOf(() => evaluate(campaigns, cart([{ ...line(1, 1, 10), quantity: value as number }])));
    for (const value of ['2', true]) {
      expect(quantity(value)).toMatchObject({ code: 'invalid_request', field: 'lines[0].quantity', message: 'lines[0].quantity: must be a number' });
    }
    for (const value of [0, -0, 1e300, -9007199254740992, NaN, Infinity]) {
      expect(quantity(value)).toMatchObject({
        code: 'invalid_request',
        field: 'lines[0].quantity',
        message: 'lines[0].quantity: must be a number between -9007199254740991 and 9007199254740991 other than 0',
      });
    }
  });

  it('a line order below 1 (-1 is the whole cart in effects)', () => {
    for (const order of [0, -1]) {
      expect(errorOf(() => evaluate(campaigns, cart([line(order, 1, 10)])))).toMatchObject({ code: 'invalid_request', field: 'lines[0].order' });
    }
  });

  it('a cart currency that is no ISO 4217 currency (the Company currency applies when the cart sends none)', () => {
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { currency: 'XYZ' })))).toMatchObject({ code: 'invalid_request', field: 'currency' });
    expect(evaluate(campaigns, cart([line(1, 1, 10)], { currency: 'JPY' })).response.currency).toBe('JPY');
  });

  it('cashback_score_desired outside -1..2147483647', () => {
    const message = 'cashback_score_desired: must be an integer between -1 and 2147483647';
    for (const desired of [-2, 2147483648, 2.5]) {
      expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)], { cashback_score_desired: desired })))).toMatchObject({ field: 'cashback_score_desired', message });
    }
  });

  it('an invalid context', () => {
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)]), context({ mode: 'live' as never })))).toMatchObject({ field: 'context.mode' });
    expect(errorOf(() => evaluate(campaigns, cart([line(1, 1, 10)]), context({ now: 'yesterday' })))).toMatchObject({ field: 'context.now' });
  });

  it('a context an app built wrong is an invalid_request naming the field, never a TypeError', () => {
    const c = cart([line(1, 1, 10)], { coupons_desired: 'all' });
    expect(errorOf(() => evaluate(campaigns, c, context({ customer: 'C1' as never })))).toMatchObject({ code: 'invalid_request', message: 'context.customer: must be an object' });
    expect(errorOf(() => evaluate(campaigns, c, context({ customer: { id: 1, vouchers: {} as never } })))).toMatchObject({ code: 'invalid_request', message: 'context.customer.vouchers: must be an array' });
    expect(errorOf(() => evaluate(campaigns, c, context({ customer: { id: 1, vouchers: [null as never] } })))).toMatchObject({ code: 'invalid_request', message: 'context.customer.vouchers[0]: must be an object' });
    expect(errorOf(() => evaluate(campaigns, c, context({ customer: { id: 1, vouchers: [{ campaign_id: 1 } as never] } })))).toMatchObject({ code: 'invalid_request', message: 'context.customer.vouchers[0].code: must be a string' });
    expect(errorOf(() => evaluate(campaigns, c, context({ location_features: 'kind:1' as never })))).toMatchObject({ code: 'invalid_request', message: 'context.location_features: must be an array' });
    expect(errorOf(() => evaluate(campaigns, c, context({ location_features: ['kind:1', 5 as never] })))).toMatchObject({ code: 'invalid_request', message: 'context.location_features[1]: must be a string' });
  });

  it('a program that compileCampaigns did not return (its JSON export, a copy) is an invalid_request', () => {
    const program = compileCampaigns(campaigns, SETTINGS);
    for (const copy of [JSON.parse(JSON.stringify(program)), { ...program }, null]) {
      expect(errorOf(() => evaluateCart(copy, cart([line(1, 1, 10)]), context()))).toMatchObject({ code: 'invalid_request', message: 'program: must be the result of compileCampaigns' });
    }
  });

  it('accepts a UTC offset form such as -0500 for creation_date', () => {
    const outcome = evaluate(campaigns, cart([line(1, 1, 10)], { creation_date: '2026-11-20T13:30:00-0500' }));
    expect(outcome.response.creation_date).toBe('2026-11-20T13:30:00-0500');
  });
});
