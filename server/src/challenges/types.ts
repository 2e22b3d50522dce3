/**
 * Challenges (contract part 2, Challenge) and a customer's part in them. Ids
 * are int64 decimal strings; dates are local dates of the Company.
 */
import type { Text } from '../rewards/types.js';

/**
 * What a challenge measures: a cart metric summed over the challenge's period
 * (recorded by realtime carts), or a numeric custom attribute of the customer
 * (its current value).
 */
export const CART_METRICS = ['total_spent', 'carts', 'points_earned'] as const;
export type CartMetric = (typeof CART_METRICS)[number];

export const PERIOD_TYPES = ['challenge_dates', 'current_week', 'current_month', 'current_year', 'relative_months', 'fixed'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

export interface ChallengeLevel {
  level: number;
  name: string;
  threshold: number;
  /** Points granted (a `challenge` points transaction) when the level is reached; 0 = none. */
  points: number;
}

export interface ChallengeRecord {
  id: string;
  name: Text;
  description: Text | null;
  status: 'active' | 'inactive';
  /** A cart metric or a custom attribute name. */
  attribute: string;
  countries: string[];
  available_from: string | null;
  available_to: string | null;
  display_from: string | null;
  display_to: string | null;
  challenge_type: string | null;
  image_file_name: string | null;
  open_to_all: boolean;
  /** null = unlimited. */
  max_enrollments: number | null;
  partner: Record<string, unknown> | null;
  attribute_data_period_type: PeriodType;
  attribute_period_from: string | null;
  attribute_period_to: string | null;
  /** Months of a relative_months period. */
  attribute_relative_value: number | null;
  structure: ChallengeLevel[];
  created_at: string;
  updated_at: string;
}

/** A customer's part in a challenge: enrolment and the highest level already rewarded. */
export interface ChallengeProgress {
  enrolled_at: string | null;
  level_rewarded: number;
  last_execution_time: string | null;
}

/** One customer's cart metrics of one local day. */
export interface DailyMetrics {
  total_spent_cents: number;
  carts: number;
  points_earned: number;
}

/** What a write added to a customer's cart metrics (negative when it took a cart out), on the local day it counted on. */
export interface AddedMetrics {
  day: string;
  metrics: DailyMetrics;
}
