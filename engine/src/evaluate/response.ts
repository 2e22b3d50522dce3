/** The contract's Cart response, from the finished evaluation. */
import { cashbackDistance } from '../cashbackThreshold.js';
import { pointsToCents, toMoney } from '../money.js';
import type { CartLine, CartResponse, CustomerSummary } from '../types.js';
import { isIdentified } from './contextInput.js';
import type { Run } from './run.js';
import { returnedScore } from '../effects/returns.js';

export function buildResponse(run: Run): CartResponse {
  const { input, context } = run;
  const { cart } = input;
  const money = (points: number) => toMoney(pointsToCents(points, run.program.settings.pointValue, run.program.settings.pointValueCents));
  const cashbackCents = input.lines.reduce((total, line) => total + line.cashback, 0);
  const totalCents = input.totalCents - run.discountPromotionCents - run.discountVoucherCents - cashbackCents;
  const lines: CartLine[] = input.lines.map((line) => {
    const answered: CartLine = { ...line.raw, total: toMoney(line.current), original_total: toMoney(line.originalCents) };
    // A line's additional_costs are "as cart additional_costs": answered with their original_<name> entries.
    if (line.raw.additional_costs !== undefined) answered.additional_costs = withOriginals(line.raw.additional_costs as Record<string, number>);
    return answered;
  });
  const response: CartResponse = {
    id: cart.id,
    code: cart.code,
    creation_date: cart.creation_date,
    location_id: cart.location_id,
    currency: input.currency,
    total: toMoney(totalCents),
    original_total: toMoney(input.originalCents),
    score: run.scoreEarned,
    score_as_money: money(run.scoreEarned),
    score_used: run.scoreUsed,
    score_used_as_money: money(run.scoreUsed),
    score_returned_from_customer: run.scoreReturnedFrom,
    score_returned_from_customer_as_money: money(run.scoreReturnedFrom),
    score_returned_to_customer: run.scoreReturnedTo,
    score_returned_to_customer_as_money: money(run.scoreReturnedTo),
    total_scores_coupon_applied: run.scoreCoupon,
    total_scores_coupon_applied_as_money: money(run.scoreCoupon),
    total_discount_voucher_applied: toMoney(run.discountVoucherCents),
    total_discount_promotion_applied: toMoney(run.discountPromotionCents),
    total_discount_applied: toMoney(input.originalCents - totalCents),
    lines,
    customer: isIdentified(context) ? [summaryOfRun(run, money)] : [],
    effects: run.effects,
    rejected_campaigns: run.rejected,
    invalid_coupons: run.coupons.invalid,
    vouchers: run.vouchers,
    cashbacks: run.cashbacks,
    cashback_returns: [],
    scores: run.scores,
    returns: cart.returns ? cart.returns.map((ret, i) => ({ ...ret, score: returnedScore(run, i) })) : [],
    promotions: Array.isArray(cart.promotions) ? cart.promotions : [],
  };
  // Echo only what the request carried.
  if (cart.id === undefined) delete response.id;
  if (cart.code === undefined) delete response.code;
  if (cart.location_id === undefined) delete response.location_id;
  if (cart.vouchers_desired !== undefined) response.vouchers_desired = cart.vouchers_desired;
  if (cart.coupons_desired !== undefined) response.coupons_desired = cart.coupons_desired;
  if (cart.attributes !== undefined) response.attributes = cart.attributes;
  if (cart.additional_costs !== undefined) response.additional_costs = withOriginals(cart.additional_costs);
  const home = context.customer?.registration_currency;
  if (home !== undefined && home !== input.currency) response.international = true;
  return response;
}

function summaryOfRun(run: Run, money: (points: number) => number): CustomerSummary {
  const customer = run.context.customer;
  const returned = run.scoreReturnedTo - run.scoreReturnedFrom;
  const available = run.context.pointsAvailable + run.scoreEarnedAvailable - run.scoreUsed + returned;
  const score = (customer?.points ?? run.context.pointsAvailable) + run.scoreEarned - run.scoreEarnedExpired - run.scoreUsed + returned;
  const identity = { id: customer?.id ?? null, code: customer?.code ?? null, fraudulent: customer?.fraudulent ?? false, attributes: customer?.attributes ?? {} };
  return customerSummary(identity, { score, score_available: available }, run.program.settings.scoreThresholdCashback, money);
}

/**
 * The customer summary of a cart response: the customer's points and their money value, and how far they are
 * from the cashback threshold. The server answers it too where the balance moved after the evaluation
 * (prizes and levels a realtime cart won, a cancellation).
 */
export function customerSummary(
  customer: Pick<CustomerSummary, 'id' | 'code' | 'fraudulent' | 'attributes'>,
  balance: { score: number; score_available: number },
  threshold: number,
  money: (points: number) => number,
): CustomerSummary {
  return {
    id: customer.id,
    code: customer.code,
    score: balance.score,
    score_as_money: money(balance.score),
    score_available: balance.score_available,
    score_available_as_money: money(balance.score_available),
    score_threshold_cashback: threshold,
    score_threshold_cashback_as_money: money(threshold),
    money_threshold_cashback: money(threshold),
    ...cashbackDistance(threshold, balance.score_available),
    fraudulent: customer.fraudulent,
    attributes: customer.attributes,
  };
}

/**
 * additional_costs in responses add original_<name> entries; one the request sent is kept, as original_total is
 * (a till sending an evaluated cart again keeps the amounts from before its own discounts).
 */
function withOriginals(costs: Record<string, number>): Record<string, number> {
  const result: Record<string, number> = { ...costs };
  for (const [name, value] of Object.entries(costs)) {
    if (!name.startsWith('original_') && result[`original_${name}`] === undefined) result[`original_${name}`] = value;
  }
  return result;
}
