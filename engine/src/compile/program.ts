/** The compiled, frozen form of a Company's campaigns: built once, evaluated many times. */
import type { Decimal } from 'decimal.js';
import type { CompiledRule } from '../conditions/index.js';
import type { PointsAvailability } from '../time/pointsAvailability.js';
import type { DateWindow } from '../time/dateWindow.js';
import type { Period } from '../time/periodKey.js';
import type { CampaignType, Id, VoucherCoupon } from '../types.js';

export const DISTRIBUTIONS = ['individual_items', 'individual_items_pro_rata', 'total', 'total_cart'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

export const STACKABILITY = ['stackable', 'exclusive'] as const;
export type Stackability = (typeof STACKABILITY)[number];

export const SELECT_CUSTOMERS = ['all_customers', 'loyalty', 'targeted'] as const;
export type SelectCustomers = (typeof SELECT_CUSTOMERS)[number];

export interface CompiledEffect {
  type: 'percentage' | 'direct_value' | 'combo_price' | 'ratio';
  distribution: Distribution;
  /** The amount per 100 cents: the percentage, or the points ratio (points per currency unit). */
  rate: Decimal;
  /** The rate when it is an integer (fast path: exact integer arithmetic), else null. */
  rateInt: number | null;
  /** direct_value and combo_price of discounts, in cents; direct_value of points, in points. */
  amount: number;
  /** Cap on the units discounted or awarded, null when absent. */
  limits: number | null;
}

export interface CompiledTargeting {
  active: boolean;
  /** The campaign's available_from / available_to. */
  dates: DateWindow;
  recurrence: { type: 'daily' | 'weekly' | 'monthly'; days: ReadonlySet<number> } | null;
  selectCustomers: SelectCustomers;
  countries: ReadonlySet<string> | null;
  currency: string | null;
}

export interface CompiledPrize {
  id: string;
  rawId: Id;
  name: string;
  description: string | null;
  ruleId: Id | null;
  /** `<promotion_type>:<promotion_id>` of a prize that wins and names what it hands over (context.prize_units), else null. */
  outcomeKey: string | null;
  /** false for the contract's "no prize" (an outcome with an empty promotion_type): drawing it is taking part without winning. */
  wins: boolean;
  /** Upper end (exclusive) of the prize's slice of [0, DRAW_SCALE). */
  upTo: number;
  stock: number;
}

export interface CompiledCampaign {
  id: string;
  rawId: Id;
  type: CampaignType;
  name: string;
  priority: number;
  conditions: CompiledRule;
  application: CompiledRule;
  effects: readonly CompiledEffect[];
  targeting: CompiledTargeting;
  couponRequired: boolean;
  staticCode: string | null;
  /** The coupon as carts report it (vouchers[].coupon, coupon_info). */
  coupon: VoucherCoupon | null;
  /** The coupon's own available_from / available_to: its static code works only between them. */
  couponDates: DateWindow | null;
  once: { period: Period; limit: number } | null;
  budget: { period: Period; cents: number } | null;
  maxTransactionCents: number | null;
  stackability: Stackability;
  availability: PointsAvailability | null;
  prizes: readonly CompiledPrize[];
}

export interface CompiledSettings {
  currency: string;
  timezone: string;
  formatter: Intl.DateTimeFormat;
  pointValue: Decimal;
  /** The point value in whole cents when it is one (fast path), else null. */
  pointValueCents: number | null;
  /**
   * The point value as whole cents for whole points, in lowest terms (0.01: 1 cent a point; 0.005: 1 cent for 2),
   * or null when either is beyond 2^53: the blocks of points whose money is exact.
   */
  pointValueFraction: readonly [cents: number, points: number] | null;
  /** The most of a line's original_total cashback takes, a share of 1. */
  cashbackLineShare: Decimal;
  /** The most points a cart spends as cashback (the Company's `cashback_cap`), or null: no cap. */
  cashbackCap: number | null;
  scoreThresholdCashback: number;
}

/** json-rules-engine rules: the exportable program and the reference semantics. */
export interface ProgramJSON {
  settings: { currency: string; timezone: string; point_value: string; cashback_line_share: string; cashback_cap: number | null; score_threshold_cashback: number };
  rules: {
    name: string;
    priority: number;
    conditions: Record<string, unknown>;
    event: { type: CampaignType; params: { campaign_id: string; rule_application: Record<string, unknown> } };
  }[];
}

export interface Program {
  readonly settings: CompiledSettings;
  /** Each list in evaluation order: ascending priority, then id. */
  readonly discounts: readonly CompiledCampaign[];
  readonly points: readonly CompiledCampaign[];
  readonly instantWins: readonly CompiledCampaign[];
  readonly byId: ReadonlyMap<string, CompiledCampaign>;
  /** Campaigns by coupon static code. */
  readonly byStaticCode: ReadonlyMap<string, CompiledCampaign>;
  toJSON(): ProgramJSON;
}
