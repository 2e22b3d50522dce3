/**
 * A stored instant-win campaign (contract part 2, Instant win campaign).
 * `rule_params` holds the rule objects parsed and names in the Company's
 * default language; ids are int64 decimal strings.
 */
import type { RuleParams } from '@tally/engine';
import type { Translations } from '../games/types.js';

export type PrizeType = 'points' | 'reward' | 'game';

export interface InstantWinPrizeRecord {
  id: string;
  name: string;
  description: string | null;
  /** null = a prize without delivery ("empty for no prize"). */
  outcome: { promotion_type: PrizeType; promotion_id: string } | null;
  /** Decimal string, fraction of 1. */
  weight: string;
  /** Units in total; -1 = unlimited. */
  stock: number;
  /** The contract's example and the engine's behaviour: a prize out of stock gives its chance to "no prize". */
  stock_management_strategy: 'remove_prize';
}

export interface InstantWinRecord {
  id: string;
  history_id: string;
  rule_params: RuleParams;
  texts: Partial<Record<'name' | 'description', Translations>>;
  static_code: string | null;
  prizes: InstantWinPrizeRecord[];
  created_at: string;
  updated_at: string;
}

/** A won prize delivered to a customer (the audit of deliverPrize). */
export interface PrizeDeliveryRecord {
  id: string;
  campaign_id: string;
  prize_id: string;
  customer_id: string;
  type: PrizeType;
  promotion_id: string;
  /** The points transaction that credited a points prize. */
  points_transaction_id: string | null;
  /** The delivery of a game prize: the customer plays it with this loyalty_rule_history_id. */
  loyalty_rule_history_id: string | null;
  /** The redemption of a reward prize. */
  redemption_id: string | null;
  /**
   * `pending`: not deliverable when won (a points campaign changed since the draw; a reward that cannot be
   * handed over is not won, rewards/prize.ts);
   * `reverted`: taken back by the cancellation of the cart that won it (takeBackPrizes).
   */
  status: 'delivered' | 'pending' | 'reverted';
  created_at: string;
}
