/**
 * A stored game campaign (contract part 2, Game campaign). `rule_params`
 * holds the rule objects parsed and names in the Company's default language;
 * ids are int64 decimal strings.
 */
import type { RuleParams } from '@tally/engine';

export type Translations = Record<string, string>;

export type GameOutcome = 'points' | 'discount' | 'no_prize';

export interface GamePrizeRecord {
  id: string;
  name: string;
  outcome: GameOutcome;
  /** JSON string, as the contract shows it. */
  display_options: string | null;
  /** Decimal string, fraction of 1. */
  weight: string;
  /** Units in total; -1 = unlimited. */
  stock: number;
  stock_management_strategy: 'decrement' | 'unlimited';
  /** Points credited when won (outcome points). */
  points: number | null;
  /** The discount campaign whose voucher is issued when won (outcome discount). */
  promotion_id: string | null;
}

export interface GameRecord {
  id: string;
  /** The id of this version (campaign_history_id), new on every write. */
  history_id: string;
  rule_params: RuleParams;
  /** Multi-language name and description, when they were sent as objects. */
  texts: Partial<Record<'name' | 'description', Translations>>;
  static_code: string | null;
  game: {
    id: string;
    type: string;
    /** JSON string. */
    config: string | null;
    template: string | null;
    prizes: GamePrizeRecord[];
  };
  created_at: string;
  updated_at: string;
}

/** One play of a targeted game delivered to a customer (its id is the loyalty_rule_history_id). */
export interface GameAssignment {
  id: string;
  game_id: string;
  customer_id: string;
  created_at: string;
  /** Set by the play that used it. */
  played_at: string | null;
}

/** What a play drew and gave, kept so any draw can be audited and replayed from its seed. */
export interface GamePlayRecord {
  id: string;
  game_id: string;
  customer_id: string;
  loyalty_rule_history_id: string | null;
  seed: string;
  drawn: number;
  status: 'won' | 'no_prize' | 'stock_exhausted';
  prize_id: string | null;
  /** The points transaction or voucher that delivered the prize. */
  delivery: { points_transaction_id?: string; voucher_id?: string; voucher_code?: string } | null;
  created_at: string;
}
