import { describe, expect, it } from 'vitest';
import type { ReturnedPoints } from '../types.js';
import { ANONYMOUS, cart, context, errorOf, evaluate, line, points } from '../../test-support/scenario.js';

const tenPerUnit = points(1, { rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] });
const returnCart = (extra: Record<string, unknown> = {}) =>
  cart([line(1, 10, 20), line(2, 11, -5.98, -2)], { returns: [{ ticket_id: 7, line_order: 2, from_line_order: 3, quantity: -2 }], ...extra });
const moved = (extra: Partial<ReturnedPoints> = {}): ReturnedPoints => ({ ticket_id: 7, line_order: 3, quantity: 2, score_from_customer: 59, score_to_customer: 0, ...extra });

describe('returns move the points the caller worked out from the ticket', () => {
  it('score_returned_from/to_customer, returns[].score, the customer summary and the writes', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ returns: [moved({ score_to_customer: 30 })] }));
    const { response, writes } = outcome;
    expect(response.score).toBe(200);
    expect(response.score_returned_from_customer).toBe(59);
    expect(response.score_returned_from_customer_as_money).toBe(0.59);
    expect(response.score_returned_to_customer).toBe(30);
    expect(response.score_returned_to_customer_as_money).toBe(0.3);
    expect(response.returns).toEqual([{ ticket_id: 7, line_order: 2, from_line_order: 3, quantity: -2, score: 59 }]);
    // 1000 available + 200 earned - 59 taken back + 30 given back.
    expect(response.customer[0]).toMatchObject({ score: 1171, score_available: 1171 });
    expect(writes.returns).toEqual([moved({ score_to_customer: 30 })]);
  });

  it('points spent on the ticket with redeem_cart that a return gives back count in score_returned_to_customer', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ returns: [moved({ score_to_customer: 30, redeemed_to_customer: 500 })] }));
    expect(outcome.response).toMatchObject({ score_returned_to_customer: 530, score_returned_to_customer_as_money: 5.3 });
    // 1000 available + 200 earned - 59 taken back + 530 given back.
    expect(outcome.response.customer[0]).toMatchObject({ score: 1671, score_available: 1671 });
    expect(outcome.writes.returns).toEqual([moved({ score_to_customer: 30, redeemed_to_customer: 500 })]);
  });

  it('the negative return line earns nothing', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ returns: [moved()] }));
    expect(outcome.response.scores.map((s) => s.line_order)).toEqual([1]);
  });

  it('a return the caller found nothing for (null) moves nothing', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ returns: [null] }));
    expect(outcome.response.score_returned_from_customer).toBe(0);
    expect(outcome.response.returns[0].score).toBe(0);
    expect(outcome.writes.returns).toEqual([]);
  });

  it('an anonymous cart moves nothing', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ ...ANONYMOUS, returns: [moved()] }));
    expect(outcome.response.score_returned_from_customer).toBe(0);
    expect(outcome.response.returns[0].score).toBe(0);
    expect(outcome.writes.returns).toEqual([]);
  });

  it('a simulation shows what would move and writes nothing', () => {
    const outcome = evaluate([tenPerUnit], returnCart(), context({ mode: 'simulate', returns: [moved()] }));
    expect(outcome.response.score_returned_from_customer).toBe(59);
    expect(outcome.writes.returns).toEqual([]);
  });

  it('a bad context.returns is refused naming the field', () => {
    expect(errorOf(() => evaluate([tenPerUnit], returnCart(), context({ returns: [moved(), moved()] })))).toMatchObject({ code: 'invalid_request', field: 'context.returns' });
    expect(errorOf(() => evaluate([tenPerUnit], returnCart(), context({ returns: [moved({ score_from_customer: -1 })] })))).toMatchObject({
      field: 'context.returns[0].score_from_customer',
    });
    expect(errorOf(() => evaluate([tenPerUnit], returnCart(), context({ returns: [moved({ quantity: -1 })] })))).toMatchObject({ field: 'context.returns[0].quantity' });
    expect(errorOf(() => evaluate([tenPerUnit], returnCart(), context({ returns: [moved({ redeemed_to_customer: 1.5 })] })))).toMatchObject({
      field: 'context.returns[0].redeemed_to_customer',
    });
  });
});
