/**
 * Cart responses on the wire. Ids held as canonical decimal strings (campaign
 * ids, the validated request's ids) are written as JSON numbers, exactly,
 * also above 2^53. The cart read object adds the stored cart's fields.
 */
import { parseJson } from '../http/json.js';
import type { CartRecord } from './types.js';

const ID_FIELDS = new Set([
  'id', 'location_id', 'customer_id', 'associate_id', 'rule_id', 'prize_rule_id', 'voucher_id', 'coupon_id', 'product_id',
  'supplier_id', 'loyalty_score_id', 'ticket_id', 'promotion_id', 'campaign_history_id', 'cancelled_by_cart_id', 'cancels_cart_id',
]);
const DIGITS = /^[1-9]\d{0,18}$/;
// Ids beyond 2^53 leave the replacer as a marked string and lose their quotes afterwards.
const BIG = '\u0000int:';
const BIG_IN_JSON = /"\\u0000int:(\d+)"/g;

function replacer(key: string, value: unknown): unknown {
  if (typeof value !== 'string' || !ID_FIELDS.has(key) || !DIGITS.test(value)) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BIG + value;
}

/** JSON text of a cart response or read object, ids as numbers. */
export function cartJson(value: unknown): string {
  const text = JSON.stringify(value, replacer);
  return text.includes('\\u0000int:') ? text.replace(BIG_IN_JSON, '$1') : text;
}

/** The same value with ids as numbers (bigint above 2^53), for records that keep it (points origin_info). */
export function withNumericIds<T>(value: T): T {
  return parseJson(cartJson(value)) as T;
}

/**
 * GET /carts/{id} and GET /carts items: the request's fields, the evaluation's
 * fields, `customer` as an object, and the stored cart's own fields.
 */
export function cartReadBody(cart: CartRecord): Record<string, unknown> {
  const { customer, ...response } = cart.response;
  return {
    ...cart.request,
    ...response,
    id: cart.id,
    code: cart.code,
    customer: customer[0] ?? null,
    customer_id: cart.customer_id,
    customer_code: cart.customer_code,
    associate_id: cart.associate_id,
    location_code: cart.location_code,
    barcode: null,
    staff_code: null,
    score_simulation: false,
    cashback_score_desired_unused: unusedCashbackScore(cart),
    rewards: [],
    cancelled_by_cart_id: cart.cancelled_by,
    cancels_cart_id: cart.cancels,
    ...(cart.deferred_errors.length > 0 ? { deferred_errors: cart.deferred_errors } : {}),
  };
}

/** Points asked for with cashback_score_desired and not spent (-1 asks for the maximum: nothing is left unused). */
function unusedCashbackScore(cart: CartRecord): number {
  const desired = cart.request.cashback_score_desired;
  if (typeof desired !== 'number' || desired < 0) return 0;
  return Math.max(0, desired - cart.response.score_used);
}
