/**
 * The public shapes of the evaluator: what compileCampaigns and evaluateCart
 * take and return. Field names are the contract's (spec part 2).
 */

/** An int64 id as the caller holds it; the engine compares them as decimal strings. */
export type Id = string | number | bigint;
/** A money amount in currency units, as a JSON number or a decimal string. */
export type Money = number | string;

export type CampaignType = 'discount' | 'points' | 'instant_win';

export interface Campaign {
  id: Id;
  type: CampaignType;
  /** The body accepted by POST /discounts and POST /points. */
  rule_params: RuleParams;
  coupon_params?: CouponParams;
  /** Instant-win prizes (type 'instant_win' only). */
  prizes?: Prize[];
}

export interface RuleParams {
  name?: string;
  description?: string;
  active?: boolean;
  available_from?: string;
  available_to?: string;
  currency?: string;
  recurrence_type?: string;
  recurrence_days?: number[];
  select_customers?: string;
  coupon_required?: boolean;
  customer_registration_countries?: string[];
  once?: string;
  once_limit?: number;
  /** The same per-customer limit as once/once_limit, by the contract's other names (compileCampaign). */
  chance_to_accrue_period?: string;
  chance_to_accrue_limit?: number;
  budget_period?: string;
  budget_value?: Money;
  maximum_budget_transaction?: Money;
  rule_conditions?: unknown;
  rule_application?: unknown;
  rule_effects?: unknown;
  stackability_properties?: string;
  priority?: number;
  activation_period_type?: string;
  activation_fixed_option_selected?: string;
  activation_date?: string;
  activation_delay?: number;
  activation_delay_unit?: string;
  expiration_period_type?: string;
  fixed_option_selected?: string;
  expiration_date?: string;
  availability_duration?: number;
  availability_duration_unit?: string;
  availability_duration_natural?: boolean;
  [other: string]: unknown;
}

export interface CouponParams {
  static_code?: string;
  key?: string;
  name?: string;
  description?: string;
  active?: boolean;
  max_redemptions?: number;
  /** The coupon's own dates: its static code works only between them (a date is a whole local day). */
  available_from?: string | null;
  available_to?: string | null;
  [other: string]: unknown;
}

export interface Prize {
  id: Id;
  name: string;
  description?: string;
  /**
   * What the prize delivers (the caller delivers it). An outcome with an empty
   * promotion_type is the contract's "no prize": drawing it is not a win.
   * Without an outcome the prize is won and its delivery is the caller's concern.
   */
  outcome?: { promotion_type?: string; promotion_id?: Id };
  /** Fraction of 1; the weights of all prizes sum to at most 1 (the rest is "no prize"). */
  weight: Money;
  /** -1 = unlimited. */
  stock: number;
  stock_management_strategy?: string;
}

export interface Settings {
  /** ISO 4217, the Company currency. */
  currency: string;
  /** IANA timezone of the Company, e.g. 'Europe/Madrid'. */
  timezone: string;
  /** Money value of one point (default 0.01). */
  point_value?: Money;
  /** Cap of cashback on a line, as a share of its original_total (default 0.5). */
  cashback_line_share?: Money;
  /** The most points a cart spends as cashback, 0..2147483647 (the Company's `cashback_cap`); null or absent: no cap. */
  cashback_cap?: number | null;
  /** Minimum available points before cashback can be used (default 0). */
  score_threshold_cashback?: number;
}

export interface CartLine {
  order?: number;
  product_id?: Id;
  product_code?: string;
  product_ean?: string;
  total: Money;
  original_total?: Money;
  quantity?: number;
  supplier_id?: Id;
  attributes?: Record<string, unknown>;
  [other: string]: unknown;
}

export interface Cashback {
  line_order: number;
  score: number;
  discount?: Money;
}

export interface CartReturn {
  ticket_id?: Id;
  ticket_code?: string;
  line_order: number;
  from_line_order?: number;
  quantity: number;
  [other: string]: unknown;
}

/** The body of POST /carts/simulate and POST /carts/realtime. */
export interface Cart {
  id?: Id;
  code?: string;
  location_id?: Id;
  location_code?: string;
  customer_id?: Id;
  customer_code?: string;
  creation_date: string;
  total: Money;
  original_total?: Money;
  currency?: string;
  cashback_score_desired?: number;
  vouchers_desired?: unknown;
  coupons_desired?: 'all' | 'selected' | string[];
  lines: CartLine[];
  cashbacks?: Cashback[];
  returns?: CartReturn[];
  channel?: string;
  attributes?: Record<string, unknown>;
  additional_costs?: Record<string, number>;
  apply_discounts?: boolean;
  apply_points?: boolean;
  [other: string]: unknown;
}

/** A voucher the customer holds. */
export interface HeldVoucher {
  code: string;
  campaign_id: Id;
  voucher_id?: Id;
  selected?: boolean;
  /** The delivery of a targeted campaign to the customer (echoed in its instant-win effect). */
  campaign_history_id?: Id;
  /** ISO instant the voucher expires at; absent or null, never. A listed static code uses the one expiring first. */
  available_to?: string | null;
}

/** A voucher the customer holds but cannot use now, with the caller's reason (a listed code is then a rejection, not an unknown code). */
export interface RefusedVoucher {
  code: string;
  campaign_id: Id;
  voucher_id?: Id;
  /** `<voucher_* code>: <message>`, e.g. `voucher_expired: voucher V1: expired at 2026-01-01T00:00:00Z`. */
  error: string;
}

export interface CustomerState {
  id?: Id;
  code?: string;
  /** Total points (available and pending); defaults to points_available. */
  points?: number;
  points_available?: number;
  country?: string;
  /** Country of the customer's registration location (for customer_registration_countries). */
  registration_country?: string;
  /** Currency of that country (for the response field `international`). */
  registration_currency?: string;
  gender?: string;
  kind?: string;
  tier?: string;
  fraudulent?: boolean;
  attributes?: Record<string, unknown>;
  vouchers?: HeldVoucher[];
  /** Only those the cart lists by code need be passed. */
  refused_vouchers?: RefusedVoucher[];
}

/** Usage of one campaign, read by the caller for the periods named in `writes`. */
export interface CampaignCounters {
  /** Uses by this customer in the current `once` period. */
  uses?: number;
  /** Budget spent in the current budget period, integer cents. */
  budget_spent_cents?: number;
  /** Stock left per prize id (absent = the prize's configured stock). */
  prize_stock?: Record<string, number>;
}

export interface Context {
  /** ISO datetime of the evaluation; period keys of limits and budgets are taken at this instant. */
  now: string;
  mode: 'simulate' | 'realtime';
  /** Seed of the instant-win draws; same seed, same draw. */
  seed: string;
  /** Absent for an anonymous cart. */
  customer?: CustomerState;
  counters?: Record<string, CampaignCounters>;
  /** Product features (`<taxonomy_slug>:<feature_id>`) by product id, from the catalogue, for line conditions. */
  product_features?: Record<string, string[]>;
  /**
   * The catalogue's code and EAN by product id, for lines that carry the id without them: `product_code` and
   * `product_ean` conditions read a line's own value first, then these.
   */
  product_codes?: Record<string, { code?: string; ean?: string }>;
  /** Features (`<taxonomy_slug>:<feature_id>`) of the cart's location, from company data, for `location_feature` conditions. */
  location_features?: string[];
  /**
   * The points each of the cart's returns moves, aligned with `cart.returns`: computed by the caller from the
   * original ticket (null: a return that moves none, e.g. of a ticket not stored or of another customer).
   */
  returns?: (ReturnedPoints | null)[];
  /**
   * Units each prize outcome can still hand over to this customer, by `<promotion_type>:<promotion_id>`
   * (`reward:12`); absent = no cap. A drawn prize whose outcome has none left is a prize without stock; prizes
   * sharing an outcome share its units within one evaluation.
   */
  prize_units?: Record<string, number>;
}

/** What one return moves: the original ticket line's points taken back, its points spent (cashback) given back. */
export interface ReturnedPoints {
  ticket_id: Id;
  /** The line of the original ticket. */
  line_order: number;
  /** Units of that line this return adds to the units returned before. */
  quantity: number;
  /** Points the ticket line earned that this return takes back from the customer. */
  score_from_customer: number;
  /** Points the customer spent on the ticket line that this return gives back. */
  score_to_customer: number;
  /**
   * Points the customer spent on the whole ticket with POST /points/redeem_cart that this return gives back (the
   * line's share of them; absent: none). Reported in `score_returned_to_customer` with `score_to_customer`.
   */
  redeemed_to_customer?: number;
}

/** The contract's five fields, each null when it does not apply (a static code has no voucher, a voucher no static code). */
export interface CouponInfo {
  voucher_id: Id | null;
  voucher_code: string | null;
  coupon_id: Id | null;
  coupon_name: string | null;
  static_code: string | null;
}

export interface Effect {
  rule_id: Id;
  rule_name: string;
  type: 'discount' | 'points' | 'instant_win';
  effect_type: string;
  distribution_type: string;
  select_customers: string;
  line: number;
  value: number;
  value_as_money?: number;
  available_from?: string | null;
  available_to?: string | null;
  coupon_info?: CouponInfo;
  /** Targeted instant wins: the delivery of the campaign to the customer. */
  campaign_history_id?: Id;
  prize_name?: string;
  /** With prize_name, on a win: null when the prize has no description. */
  prize_description?: string | null;
  prize_rule_id?: Id;
  winned_prize_index?: number;
}

export interface RejectedCampaign {
  rule_id: Id;
  rule_name: string;
  type: CampaignType;
  error: string;
  coupon_info: CouponInfo | null;
}

export interface ScoreEntry {
  line_order: number;
  score: number;
  loyalty_score_id: Id;
  available_from: string;
  available_to: string | null;
}

export interface VoucherApplied {
  voucher_id: Id | null;
  voucher_code: string;
  discount: number;
  line_order: number;
  product_id: Id | null;
  rule_id: Id;
  coupon: VoucherCoupon;
}

/**
 * A coupon as the contract's Cart response shows it (vouchers[].coupon).
 * `discount`/`discount_type`/`affectation` are the value, type and
 * distribution of its campaign's first effect (a percentage, a points ratio
 * or points, or an amount in currency units).
 */
export interface VoucherCoupon {
  id: Id | null;
  key: string | null;
  name: string | null;
  description: string | null;
  static_code: string | null;
  max_redemptions: number | null;
  min_money: number | null;
  max_money: number | null;
  min_units: number | null;
  max_units: number | null;
  discount: number | null;
  discount_type: string | null;
  affectation: string | null;
}

export interface CustomerSummary {
  id: Id | null;
  code: string | null;
  score: number;
  score_as_money: number;
  score_available: number;
  score_available_as_money: number;
  score_threshold_cashback: number;
  score_threshold_cashback_as_money: number;
  money_threshold_cashback: number;
  score_to_reach_cashback: number;
  money_to_spend_to_reach_cashback: number | null;
  fraudulent: boolean;
  attributes: Record<string, unknown>;
}

export interface CartResponse {
  id?: Id;
  code?: string;
  creation_date: string;
  location_id?: Id;
  currency: string;
  total: number;
  original_total: number;
  score: number;
  score_as_money: number;
  score_used: number;
  score_used_as_money: number;
  score_returned_from_customer: number;
  score_returned_from_customer_as_money: number;
  score_returned_to_customer: number;
  score_returned_to_customer_as_money: number;
  total_scores_coupon_applied: number;
  total_scores_coupon_applied_as_money: number;
  total_discount_voucher_applied: number;
  total_discount_promotion_applied: number;
  total_discount_applied: number;
  lines: CartLine[];
  customer: CustomerSummary[];
  effects: Effect[];
  rejected_campaigns: RejectedCampaign[];
  invalid_coupons: string[];
  vouchers: VoucherApplied[];
  cashbacks: { line_order: number; score: number; discount: number }[];
  cashback_returns: { line_order: number; score: number }[];
  scores: ScoreEntry[];
  /** The request's returns, each with the points it took back from the customer (`score`). */
  returns: (CartReturn & { score: number })[];
  promotions: unknown[];
  vouchers_desired?: unknown;
  coupons_desired?: unknown;
  attributes?: Record<string, unknown>;
  additional_costs?: Record<string, number>;
  international?: true;
}

/** A counter the caller increments, with the period it belongs to (e.g. 'num_month' / '2026-11'). */
export interface PeriodRef {
  period: string;
  period_key: string;
}

export interface PointsWrite {
  customer_id: Id | null;
  customer_code: string | null;
  campaign_id: Id;
  amount: number;
  line_order: number;
  available_from: string;
  available_to: string | null;
}

export interface BudgetWrite extends PeriodRef {
  campaign_id: Id;
  amount_cents: number;
  /** The campaign's budget, for the re-check inside the caller's transaction. */
  budget_cents: number;
}

export interface LimitWrite extends PeriodRef {
  campaign_id: Id;
  customer_id: Id | null;
  customer_code: string | null;
  increment: 1;
  limit: number;
}

export interface StockWrite {
  campaign_id: Id;
  prize_id: Id;
  amount: 1;
  /** Stock the draw saw; the caller re-checks it is still above zero. */
  stock_seen: number;
}

export interface VoucherWrite {
  campaign_id: Id;
  voucher_code: string;
  voucher_id: Id | null;
  static_code: boolean;
}

export interface DrawWrite {
  campaign_id: Id;
  /** The seed of this campaign's draw, and the drawn number in [0, 1e9): enough to replay it. */
  seed: string;
  drawn: number;
  prize_id: Id | null;
}

export interface Writes {
  points: PointsWrite[];
  /** Points spent on cashback. */
  points_used: { customer_id: Id | null; customer_code: string | null; amount: number } | null;
  budgets: BudgetWrite[];
  limits: LimitWrite[];
  stock: StockWrite[];
  vouchers_used: VoucherWrite[];
  draws: DrawWrite[];
  /** Points the cart's returns moved (identified customers only), to count against their ticket lines. */
  returns: ReturnedPoints[];
}

export interface Outcome {
  response: CartResponse;
  writes: Writes;
}

/** A game prize (game campaign, spec part 2). */
export interface GamePrize {
  id: Id;
  name: string;
  /**
   * What the prize is (contract: discount, points, no_prize). `no_prize` is a slot of the game that wins
   * nothing: drawing it is a play without a win, whatever its stock. Any other value, or none, is a prize
   * the caller delivers.
   */
  outcome?: string;
  /** Fraction of 1; the weights of all prizes sum to at most 1 (the rest is "no prize"). */
  weight: Money;
  /** -1 = unlimited. */
  stock: number;
  /** 'decrement' (default: each win takes one from stock) or 'unlimited' (stock ignored). */
  stock_management_strategy?: string;
}

/** A game campaign: targeting, limits and customer conditions in rule_params, prizes drawn by weight. */
export interface Game {
  id: Id;
  rule_params: RuleParams;
  prizes: GamePrize[];
}

export interface GameContext {
  /** ISO datetime of the play: targeting and the `once` period are taken at this instant. */
  now: string;
  /** Seed of the draw; same seed, same draw. */
  seed: string;
  customer: CustomerState;
  /** Plays by this customer in the current `once` period. */
  uses?: number;
  /** Stock left per prize id (absent = the prize's configured stock). */
  prize_stock?: Record<string, number>;
}

export type GameStatus = 'won' | 'no_prize' | 'stock_exhausted';

export type GamePlay =
  | { eligible: false; reason: string }
  | {
      eligible: true;
      status: GameStatus;
      /** The drawn prize (also when its stock is exhausted, or a `no_prize` slot); null when the draw fell outside every prize. */
      prize_id: Id | null;
      prize_index: number | null;
      draw: { seed: string; drawn: number };
      /** The `once` counter to increment (re-checked by the caller), null without a limit. */
      limit: (PeriodRef & { limit: number }) | null;
      /** The stock to take when won with a counted stock (re-checked by the caller). */
      stock: StockWrite | null;
    };
