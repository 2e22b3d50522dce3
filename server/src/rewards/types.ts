/**
 * Rewards of the catalogue and their redemptions (contract part 2, Reward and
 * Redemption). Ids are int64 decimal strings; texts are a string or an object
 * keyed by language (Accept-Language picks one).
 */

export type Text = string | Record<string, string>;

export const REWARD_TYPES = ['physical', 'code', 'donation', 'digital', 'downloadable', 'coupon', 'free_delivery', 'voucher', 'wallet'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

/** A tier level a customer must hold to redeem: that level or a higher one of the program. */
export interface RewardTier {
  program_id: string;
  level: number;
}

export interface RewardRecord {
  id: string;
  name: Text;
  description: Text | null;
  points: number;
  flexible_score_allowed: boolean;
  status: 'active' | 'inactive';
  /** Local dates of the Company, inclusive; null = unbounded. */
  available_from: string | null;
  available_to: string | null;
  type: RewardType;
  image_file_name: string | null;
  image_url: string | null;
  /** Money the customer pays on top of the points, decimal string. */
  extra_money: string | null;
  currency: string | null;
  /** ISO 3166-1 alpha-2; empty = every country. */
  countries: string[];
  categories: Array<{ id: string; name: string; taxonomy_slug: string | null; image_url: string | null }>;
  partner: Record<string, unknown> | null;
  /** The discount campaign whose coupon a redemption with process_actions issues as a voucher. */
  coupon_campaign_id: string | null;
  /** null = unlimited. */
  total_stock: number | null;
  /** Period of redeem_times (num_day, num_month, num_year, always). */
  redeem_chances: string;
  /** Redemptions per customer per redeem_chances period; null = unlimited. */
  redeem_times: number | null;
  validity_duration_number: number | null;
  validity_duration_unit_option: string | null;
  validity_duration_date: string | null;
  validity_duration_type: 'relative' | 'fixed' | null;
  redemption_type: 'manual' | 'loyalty_rule';
  /** Tier levels that may redeem (any one of them); empty = everyone. */
  tiers: RewardTier[];
  /** Stores where the reward is offered (the `store` filter); empty = every store of its countries. */
  location_ids: string[];
  created_at: string;
  updated_at: string;
}

export const REDEMPTION_STATUSES = ['available', 'reverted'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

export interface RedemptionRecord {
  id: string;
  /** `YYYY-MM-DD hh:mm:ss` (UTC), the contract's form. */
  created_at: string;
  customer_id: string;
  customer_code: string | null;
  location_id: string | null;
  location_code: string | null;
  reward_id: string;
  score_expense: number;
  /** The redemption code handed to the customer. */
  code: string;
  status: RedemptionStatus;
  status_detail: string | null;
  source: string;
  origin_type: string | null;
  origin_id: string | null;
  loyalty_rule_id: string | null;
  /** The points transaction that debited score_expense (reversed on rollback). */
  points_transaction_id: string;
  /** The voucher issued by process_actions (deleted on rollback). */
  voucher_id: string | null;
  /** The redeem_chances period key the redemption counts in. */
  period_key: string;
}
