/**
 * The points ledger's records (spec part 2, Points transaction). Ids are
 * canonical decimal strings; dates are local dates of the Company.
 */

export const POINTS_TRANSACTION_TYPES = [
  'activity',
  'transfer',
  'reward',
  'expiration',
  'activation',
  'trigger',
  'subtract',
  'custom_entity',
  'challenge',
] as const;
export type PointsTransactionType = (typeof POINTS_TRANSACTION_TYPES)[number];

/** One element of a transaction's `scores`: the points of one campaign (loyalty score) and their dates. */
export interface ScoreLine {
  loyalty_score_name: string | null;
  loyalty_score_id: string | null;
  score: number;
  available_from: string;
  available_to: string | null;
}

/** A stored points transaction; `amount` moves score_available, `pending_amount` the pending points. */
export interface PointsTransaction {
  id: string;
  type: PointsTransactionType;
  created_at: string;
  amount: number;
  pending_amount: number;
  location_id: string | null;
  customer_id: string;
  customer_code: string | null;
  /** The contract's origin_info as JSON text (ids above 2^53 survive storage exactly); empty when `origin_cart` names it. */
  origin_info: string;
  /**
   * A realtime cart's transaction (or a cancellation's reversal): its origin_info is that cart's answer with the
   * customer id (`activityOrigin`), read from the cart record written in the same transaction rather than copied.
   */
  origin_cart?: OriginCart;
  scores: ScoreLine[];
  /** The points this transaction took, bucket by bucket (given back when it is reversed). */
  taken: ScoreLine[];
  /** The transaction this one reverses (cart cancellation). */
  reverses: string | null;
  /** Email of the person who made the request (transfers and triggers, common rule 9). */
  author?: string;
  /** The customer a merge moved this transaction from (the contract's associate). */
  associate_id?: string;
}

/** Balance of a customer at an instant: score = score_available + pending. */
export interface Balance {
  score: number;
  score_available: number;
  pending: number;
}

/** The Company's clock for the ledger: local dates decide activation and expiration. */
export interface LedgerClock {
  now: Date;
  timezone: string;
}

/** The cart whose answer is a points transaction's origin_info, and the customer it was answered for (none: an anonymous cart). */
export interface OriginCart {
  cart_id: string;
  customer_id: string | null;
  /** The comments of a redemption on the cart (POST /points/redeem_cart), beside the cart. */
  comments?: string;
}

/** The origin_info of a cart's points transaction, `{ activity: { ...response, customer_id } }`, as JSON text built from the answered cart (which has no customer_id, so it comes last). */
export function activityOrigin(responseJson: string, customerId: string | null, comments?: string): string {
  const remark = comments === undefined ? '' : `,"comments":${JSON.stringify(comments)}`;
  return `{"activity":${responseJson.slice(0, -1)},"customer_id":${customerId ?? 'null'}}${remark}}`;
}
