/** The state of one evaluation, threaded through the steps (discounts, cashback, points, instant wins). */
import type { CartFacts } from '../conditions/index.js';
import type { Program } from '../compile/program.js';
import type { ZonedDate } from '../time/zonedDate.js';
import type { Effect, RejectedCampaign, ScoreEntry, VoucherApplied, Writes } from '../types.js';
import type { CartInput } from './cartInput.js';
import type { ContextInput } from './contextInput.js';
import type { CouponAccess } from './coupons.js';

export interface Run {
  program: Program;
  input: CartInput;
  context: ContextInput;
  facts: CartFacts;
  /** The cart's creation date in the Company timezone (targeting, points dates). */
  created: ZonedDate;
  /** context.now in the Company timezone (points availability). */
  now: ZonedDate;
  /** The instant counter periods are keyed at (`countedAtMs`: the sale, never later than now), in the Company timezone. */
  counted: ZonedDate;
  coupons: CouponAccess;
  effects: Effect[];
  rejected: RejectedCampaign[];
  vouchers: VoucherApplied[];
  scores: ScoreEntry[];
  cashbacks: { line_order: number; score: number; discount: number }[];
  discountPromotionCents: number;
  discountVoucherCents: number;
  scoreEarned: number;
  /** Earned points available on the evaluation's day (their available_from has come, their available_to has not passed). */
  scoreEarnedAvailable: number;
  /** Earned points whose available_to has already passed (a back-dated cart): recorded, and expired at once. */
  scoreEarnedExpired: number;
  scoreUsed: number;
  /** Points earned through campaigns applied with a coupon (total_scores_coupon_applied). */
  scoreCoupon: number;
  /** Points the cart's returns take back from the customer and give back (score_returned_from/to_customer). */
  scoreReturnedFrom: number;
  scoreReturnedTo: number;
  /** Units of each prize outcome (context.prize_units) won so far in this evaluation. */
  prizeUnitsWon: Map<string, number>;
  writes: Writes;
}

export function emptyWrites(): Writes {
  return { points: [], points_used: null, budgets: [], limits: [], stock: [], vouchers_used: [], draws: [], returns: [] };
}
