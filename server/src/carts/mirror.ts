/**
 * The negative mirror of a cart (POST /carts/cancellation): every quantity
 * and money value negated, the effects turned into rollbacks, the points
 * earned taken back and the points spent returned (cashback_returns).
 */
import type { CartResponse, Effect } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import type { Reversal } from '../points/ledger.js';

const MONEY_FIELDS = ['total', 'original_total', 'total_net', 'total_tax', 'payment_cost', 'shipping_cost'] as const;
const LINE_FIELDS = ['total', 'original_total', 'total_cost', 'quantity', 'total_net', 'total_tax'] as const;

function negate(value: unknown): unknown {
  return typeof value === 'number' && value !== 0 ? -value : value;
}

function negateFields<T extends Record<string, unknown>>(record: T, fields: readonly string[]): T {
  const copy: Record<string, unknown> = { ...record };
  for (const field of fields) if (field in copy) copy[field] = negate(copy[field]);
  return copy as T;
}

function negateCosts(costs: unknown): unknown {
  if (costs === null || typeof costs !== 'object') return costs;
  return Object.fromEntries(Object.entries(costs as Record<string, unknown>).map(([name, value]) => [name, negate(value)]));
}

/** The money and quantity fields of the cart's lists of sub-objects, negated in the mirror like the cart's own. */
const LIST_FIELDS = { payments: ['amount', 'change'], promotions: ['discount'], cashbacks: ['discount'], returns: ['quantity', 'score'] } as const;

function negateLists<T extends object>(cart: T, lists: readonly (keyof typeof LIST_FIELDS)[]): T {
  const copy = { ...cart } as Record<string, unknown>;
  for (const list of lists) {
    if (!Array.isArray(copy[list])) continue;
    copy[list] = (copy[list] as unknown[]).map((item) => (item !== null && typeof item === 'object' ? negateFields(item as Record<string, unknown>, LIST_FIELDS[list]) : item));
  }
  return copy as T;
}

function negateLine<T extends Record<string, unknown>>(line: T): T {
  const copy = negateFields(line, LINE_FIELDS);
  return 'additional_costs' in copy ? { ...copy, additional_costs: negateCosts(copy.additional_costs) } : copy;
}

/**
 * The request of the mirror cart: the original's, with new identifiers and negative amounts, and without
 * `cashback_score_desired`: the mirror spends nothing (its `cashbacks` are empty, the points spent come back as
 * `cashback_returns`), and a negated desire would read as -1, "the maximum", or leave a spend unused in reads.
 */
export function mirrorRequest(request: Record<string, unknown>, id: string, code: string | null): Record<string, unknown> {
  const { cashback_score_desired: _desired, ...kept } = request;
  const mirror: Record<string, unknown> = negateFields({ ...kept, id, ...(code === null ? {} : { code }) }, MONEY_FIELDS);
  if (code === null) delete mirror.code;
  if (Array.isArray(mirror.lines)) mirror.lines = (mirror.lines as Record<string, unknown>[]).map(negateLine);
  if ('additional_costs' in mirror) mirror.additional_costs = negateCosts(mirror.additional_costs);
  return negateLists(mirror, ['payments', 'promotions', 'cashbacks', 'returns']);
}

function rollback(effect: Effect): Effect {
  return {
    ...effect,
    effect_type: 'rollback',
    value: -effect.value,
    ...(effect.value_as_money === undefined ? {} : { value_as_money: -effect.value_as_money }),
  };
}

/**
 * The response of the mirror cart, from the original's evaluation and what the ledger's reversal moves
 * (the points the original earned or was given back by its returns, less what expired and what later
 * returns of it took back; the points it spent or its returns took back, less what later returns gave back).
 */
export function mirrorResponse(original: CartResponse, id: string, code: string | null, reversal: Reversal, money: (points: number) => number): CartResponse {
  const { code: _originalCode, ...rest } = original;
  return {
    ...negateLists(rest, ['promotions', 'returns']),
    id: wireInt(id),
    ...(code === null ? {} : { code }),
    total: -original.total,
    original_total: -original.original_total,
    score: -original.score,
    score_as_money: -original.score_as_money,
    score_used: 0,
    score_used_as_money: 0,
    score_returned_from_customer: reversal.take_back,
    score_returned_from_customer_as_money: money(reversal.take_back),
    score_returned_to_customer: reversal.give_back,
    score_returned_to_customer_as_money: money(reversal.give_back),
    total_scores_coupon_applied: -original.total_scores_coupon_applied,
    total_scores_coupon_applied_as_money: -original.total_scores_coupon_applied_as_money,
    total_discount_voucher_applied: -original.total_discount_voucher_applied,
    total_discount_promotion_applied: -original.total_discount_promotion_applied,
    total_discount_applied: -original.total_discount_applied,
    lines: original.lines.map((line) => negateLine(line as Record<string, unknown>)) as CartResponse['lines'],
    effects: original.effects.map(rollback),
    vouchers: original.vouchers.map((voucher) => ({ ...voucher, discount: -voucher.discount })),
    cashbacks: [],
    cashback_returns: returnedCashbacks(original.cashbacks, reversal.give_back),
    scores: original.scores.map((score) => ({ ...score, score: -score.score })),
    ...(original.additional_costs ? { additional_costs: negateCosts(original.additional_costs) as Record<string, number> } : {}),
  };
}

/**
 * The original's cashbacks as far as the cancellation gives their points back (`give_back`, less what its returns
 * gave back already), line by line in the original's order: they add up to `score_returned_to_customer`. A ticket
 * whose returns gave every point back lists none (it listed them all, answering 0 points returned).
 */
function returnedCashbacks(cashbacks: CartResponse['cashbacks'], giveBack: number): CartResponse['cashback_returns'] {
  let left = giveBack;
  return cashbacks.flatMap(({ line_order, score }) => {
    const returned = Math.min(score, left);
    left -= returned;
    return returned > 0 ? [{ line_order, score: returned }] : [];
  });
}
