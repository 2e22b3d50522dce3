/* Generated from schemas/ by `npm run schemas` (scripts/wire-types.mjs). Do not edit: edit the schemas. */

export type ChallengesCreate = ChallengesParamsChallenge;
/**
 * @maxItems 100
 */
export type CompanyDataFeatureRefs = {
  taxonomy_slug: string;
  id: string;
}[];
export type RewardsCreate = RewardsParamsReward;
export type CampaignResponse = CommonCampaignReadFields & ResponsesCampaign;
/**
 * Tally extension, single reads of discount, points, instant-win and game campaigns: null when the campaign compiles, else the engine's error naming the rule (code and message, as a write of the campaign would answer). A campaign is checked when written, but one stored before a stricter rule (a size cap, a setting's check) or restored from another version may no longer compile: carts leave it out and the Company's other campaigns apply; a game's plays answer its error (docs/campaigns.md, docs/games.md).
 */
export type CommonCompileError = {
  code: string;
  message: string;
} | null;
export type CartResponse = CartEvaluation & {
  customer?: CartCustomerSummary[];
};
export type CartReadResponse = CartEvaluation & {
  customer?: CartCustomerSummary | null;
  barcode?: string | null;
  associate_id?: number | null;
  customer_id?: number | null;
  customer_code?: string | null;
  location_code?: string | null;
  staff_code?: string | null;
  score_simulation?: boolean;
  cashback_score_desired_unused?: number | null;
  rewards?: {
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id?: number;
    discount?: number | null;
    line_order?: number | null;
    product_id?: number | null;
  }[];
  business_name?: string | null;
  total_net?: number | null;
  total_tax?: number | null;
  tpv_id?: string | null;
  staff_name?: string | null;
  order_id?: string | null;
  payments?:
    | {
        amount?: number | null;
        type?: string | null;
        change?: number | null;
      }[]
    | null;
  shipment?: {
    status?: string | null;
    tracking_code?: string | null;
    delivery_address?: string | null;
    company?: string | null;
    tracking_url?: string | null;
    status_histories?: {
      status?: string | null;
      created_at?: string | null;
    }[];
  } | null;
  checkout_date?: string | null;
  payment_cost?: number | null;
  shipping_cost?: number | null;
  channel?: string | null;
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom1?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom2?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom3?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom4?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom5?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom6?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom7?: string | {};
  /**
   * Deprecated (contract part 2, Cart): a text or an object, as sent.
   */
  custom8?: string | {};
  apply_discounts?: boolean;
  apply_points?: boolean;
  cashback_score_desired?: number | null;
  /**
   * The mirror cart of POST /carts/cancellation that cancelled this one.
   */
  cancelled_by_cart_id?: number | null;
  /**
   * On a mirror cart: the cart it cancels.
   */
  cancels_cart_id?: number | null;
  /**
   * Tally's: later POST /carts with this cart's id or code, answered 200 and recorded here, the first 10 (docs/carts.md). Present only when there is one.
   */
  deferred_errors?: {
    code: string;
    message: string;
    /**
     * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
     */
    received_at: string;
  }[];
  /**
   * Tally's: how many deferred errors came after the 10 of deferred_errors, counted and not kept (docs/carts.md). Present only when there is one.
   */
  deferred_errors_omitted?: number;
};
export type GameCampaignResponse = CommonCampaignReadFields & CommonSingleReadRules & ResponsesGameCampaign;
export type InstantWinCampaignResponse = CommonCampaignReadFields & CommonSingleReadRules & ResponsesInstantWinCampaign;

/**
 * Every body type by schema $id.
 */
export interface WireBodies {
  requests: RequestBodies;
  responses: ResponseBodies;
}
/**
 * Request bodies after validate() (canonical values), by schema $id.
 */
export interface RequestBodies {
  'associations.create': AssociationsCreate;
  'associations.update': AssociationsUpdate;
  'campaigns.create': CampaignsCreate;
  'campaigns.update': CampaignsUpdate;
  'carts.cancellation': CartsCancellation;
  'carts.cart': CartsCart;
  'challenges.create': ChallengesCreate;
  'challenges.enroll': ChallengesEnroll;
  'challenges.update': ChallengesUpdate;
  'company.update': CompanyUpdate;
  'coupons.create': CouponsCreate;
  'coupons.update': CouponsUpdate;
  'custom_event_definitions.create': CustomEventDefinitionsCreate;
  'custom_events.create': CustomEventsCreate;
  'customers.cards': CustomersCards;
  'customers.create': CustomersCreate;
  'customers.search': CustomersSearch;
  'customers.update': CustomersUpdate;
  'discounts.redeem': DiscountsRedeem;
  'discounts.trigger': DiscountsTrigger;
  'feature.create': FeatureCreate;
  'feature.update': FeatureUpdate;
  'games.assign': GamesAssign;
  'games.create': GamesCreate;
  'games.play': GamesPlay;
  'games.update': GamesUpdate;
  'instant_wins.create': InstantWinsCreate;
  'instant_wins.update': InstantWinsUpdate;
  'location.create': LocationCreate;
  'location.update': LocationUpdate;
  'merges.transfer': MergesTransfer;
  'messages.print': MessagesPrint;
  'points.redeem': PointsRedeem;
  'points.redeem_cart': PointsRedeemCart;
  'points.transfer': PointsTransfer;
  'product.create': ProductCreate;
  'product.update': ProductUpdate;
  'promotion.create': PromotionCreate;
  'promotion.update': PromotionUpdate;
  'rewards.create': RewardsCreate;
  'rewards.redeem': RewardsRedeem;
  'rewards.rollback': RewardsRollback;
  'rewards.update': RewardsUpdate;
  'taxonomy.create': TaxonomyCreate;
  'taxonomy.update': TaxonomyUpdate;
  'tier_programs.create': TierProgramsCreate;
  'tier_programs.update': TierProgramsUpdate;
  'triggers.trigger': TriggersTrigger;
  'vouchers.many': VouchersMany;
  'vouchers.one': VouchersOne;
  'vouchers.redeem': VouchersRedeem;
  'webhooks.create': WebhooksCreate;
  'webhooks.update': WebhooksUpdate;
}
export interface AssociationsCreate {
  customer_id: string;
  associate_customer_id: string;
  relationship_type?: null | string;
  active: boolean;
  main: boolean;
}
export interface AssociationsUpdate {
  customer_id: string;
  associate_customer_id: string;
  relationship_type: null | string;
  main?: boolean;
}
export interface CampaignsCreate {
  rule_params: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
}
export interface CampaignsParamsRuleParams {
  name?:
    | string
    | {
        /**
         * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
         */
        [k: string]: string | undefined;
      };
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  when?: string | null;
  loyalty_rule_category_id?: string | null;
  available_from?: string | null;
  available_to?: string | null;
  active?: boolean | null;
  currency?: string | null;
  recurrence_type?: ('daily' | 'weekly' | 'monthly') | null;
  recurrence_days?: number[] | null;
  select_customers?: ('loyalty' | 'all_customers' | 'targeted') | null;
  coupon_required?: boolean | null;
  partner_id?: string | null;
  customer_registration_countries?: string[] | null;
  once?: string | null;
  once_limit?: number | null;
  chance_to_accrue_limit?: number | null;
  chance_to_accrue_period?: string | null;
  budget_period?: string | null;
  budget_value?: (number | string) | null;
  maximum_budget_transaction?: (number | string) | null;
  rule_conditions?: {} | unknown[] | string | null;
  rule_application?: {} | unknown[] | string | null;
  rule_effects?: {} | unknown[] | string | null;
  stackability_properties?: string | null;
  priority?: number | null;
  custom_entity_definition_id?: string | null;
  activation_period_type?: ('relative' | 'fixed') | null;
  activation_fixed_option_selected?: string | null;
  activation_date?: string | null;
  expiration_date?: string | null;
  activation_delay?: number | null;
  activation_delay_unit?: string | null;
  expiration_period_type?: string | null;
  fixed_option_selected?: string | null;
  availability_duration?: number | null;
  availability_duration_unit?: string | null;
  availability_duration_natural?: boolean | null;
  transferable?: boolean | null;
}
export interface CampaignsParamsCouponParams {
  static_code?: string | null;
  key?: string | null;
  name?:
    | (
        | string
        | {
            /**
             * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
             */
            [k: string]: string | undefined;
          }
      )
    | null;
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  active?: boolean | null;
  max_redemptions?: number | null;
  available_days?: number | null;
  available_delay_days?: number | null;
  print_days?: number | null;
  print_delay_days?: number | null;
  printable?: boolean | null;
  priority?: number | null;
  external_id?: string | null;
  auto_select?: boolean | null;
  available_from?: string | null;
  available_to?: string | null;
  print_from?: string | null;
  print_to?: string | null;
}
export interface CampaignsUpdate {
  rule_params?: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
}
export interface CartsCancellation {
  cart_to_cancel_id?: string;
  cart_to_cancel_code?: string;
  new_cart_id?: string;
  new_cart_code?: string;
}
export interface CartsCart {
  id?: string;
  code?: string;
  location_id?: string;
  location_code?: string;
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  creation_date: string;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  original_total?: number;
  currency?: string;
  /**
   * Points the customer wants to spend, -1 for all available; at most 2147483647, the largest points amount.
   */
  cashback_score_desired?: number;
  /**
   * @deprecated
   * Deprecated name of coupons_desired as a list of codes: the same codes are accepted.
   *
   * @maxItems 1000
   */
  vouchers_desired?: string[];
  coupons_desired?: ('all' | 'selected') | string[];
  /**
   * @minItems 1
   * @maxItems 1000
   */
  lines: CartsCartLine[];
  /**
   * @maxItems 1000
   */
  cashbacks?: {
    /**
     * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
     */
    line_order: number;
    score: number;
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    discount?: number;
  }[];
  /**
   * @maxItems 1000
   */
  returns?: {
    ticket_id?: string;
    ticket_code?: string;
    /**
     * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
     */
    line_order: number;
    /**
     * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
     */
    from_line_order?: number;
    quantity: number;
    /**
     * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
     */
    line_order_change?: number;
  }[];
  /**
   * @maxItems 1000
   */
  promotions?: {
    promotion_id?: string;
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    discount?: number;
    /**
     * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
     */
    line_order?: number;
    product_id?: string;
  }[];
  /**
   * @deprecated
   */
  custom1?: string | {};
  /**
   * @deprecated
   */
  custom2?: string | {};
  /**
   * @deprecated
   */
  custom3?: string | {};
  /**
   * @deprecated
   */
  custom4?: string | {};
  /**
   * @deprecated
   */
  custom5?: string | {};
  /**
   * @deprecated
   */
  custom6?: string | {};
  /**
   * @deprecated
   */
  custom7?: string | {};
  /**
   * @deprecated
   */
  custom8?: string | {};
  business_name?: string;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total_net?: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total_tax?: number;
  tpv_id?: string;
  staff_name?: string;
  order_id?: string;
  /**
   * @maxItems 1000
   */
  payments?: {
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    amount?: number;
    type?: string;
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    change?: number;
  }[];
  shipment?: {
    status?: string;
    tracking_code?: string;
    delivery_address?: string;
    company?: string;
    tracking_url?: string;
  };
  checkout_date?: string;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  payment_cost?: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  shipping_cost?: number;
  channel?: string;
  attributes?: {
    [k: string]: string | number | bigint | boolean | null | undefined;
  };
  additional_costs?: {
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    [k: string]: number | undefined;
  };
  apply_discounts?: boolean;
  apply_points?: boolean;
}
export interface CartsCartLine {
  /**
   * A line order, 1..2147483647 (-1, the line of effects on the whole cart, is only answered, never sent).
   */
  order?: number;
  product_id?: string;
  product_code?: string;
  product_ean?: string;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  original_total?: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total_cost?: number;
  quantity?: number;
  measurement_unit?: string;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total_net?: number;
  /**
   * An amount, -90071992547409..90071992547409 (its cents stay exact).
   */
  total_tax?: number;
  product_name?: string;
  product_tax?: number;
  custom1?: string;
  custom2?: string;
  custom3?: string;
  custom4?: string;
  custom5?: string;
  custom6?: string;
  custom7?: string;
  supplier_id?: string;
  attributes?: {
    [k: string]: string | number | bigint | boolean | null | undefined;
  };
  additional_costs?: {
    /**
     * An amount, -90071992547409..90071992547409 (its cents stay exact).
     */
    [k: string]: number | undefined;
  };
}
export interface ChallengesParamsChallenge {
  name?:
    | string
    | {
        /**
         * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
         */
        [k: string]: string | undefined;
      };
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  status?: 'active' | 'inactive';
  attribute?: string;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  available_from?: string | null;
  available_to?: string | null;
  display_from?: string | null;
  display_to?: string | null;
  challenge_type?: string | null;
  image_file_name?: string | null;
  open_to_all?: boolean;
  max_enrollments?: number | null;
  partner?: {} | null;
  attribute_data_period_type?:
    'challenge_dates' | 'current_week' | 'current_month' | 'current_year' | 'relative_months' | 'fixed';
  attribute_period_from?: string | null;
  attribute_period_to?: string | null;
  attribute_relative_value?: number | null;
  /**
   * @minItems 1
   * @maxItems 100
   */
  structure?: ChallengesParamsLevel[];
}
export interface ChallengesParamsLevel {
  level: number;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  threshold: number;
  points: number;
}
export interface ChallengesEnroll {
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
}
export interface ChallengesUpdate {
  name?:
    | string
    | {
        /**
         * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
         */
        [k: string]: string | undefined;
      };
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  status?: 'active' | 'inactive';
  attribute?: string;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  available_from?: string | null;
  available_to?: string | null;
  display_from?: string | null;
  display_to?: string | null;
  challenge_type?: string | null;
  image_file_name?: string | null;
  open_to_all?: boolean;
  max_enrollments?: number | null;
  partner?: {} | null;
  attribute_data_period_type?:
    'challenge_dates' | 'current_week' | 'current_month' | 'current_year' | 'relative_months' | 'fixed';
  attribute_period_from?: string | null;
  attribute_period_to?: string | null;
  attribute_relative_value?: number | null;
  /**
   * @minItems 1
   * @maxItems 100
   */
  structure?: ChallengesParamsLevel[];
}
export interface CompanyUpdate {
  currency?: string;
  /**
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country?: string;
  timezone?: string;
  /**
   * An ISO 639-1 code in lower case that a language holds (as ICU names them: the assigned codes and their deprecated aliases).
   */
  default_language?: string;
  /**
   * @minItems 1
   *
   * Items: An ISO 639-1 code in lower case that a language holds (as ICU names them: the assigned codes and their deprecated aliases).
   */
  languages?: string[];
  point_value?: string;
  /**
   * The most points one cart spends as cashback (cashback_score_desired, cashbacks), on top of each line's share of its original_total; null: no cap, 0: no cashback.
   */
  cashback_cap?: number | null;
  /**
   * Points a customer must have available before a cart spends any as cashback (score_threshold_cashback).
   */
  cashback_threshold?: number;
  trigger_engine_version?: 1 | 2;
  customer_attribute_schema?: {
    [k: string]: unknown | undefined;
  };
  audiences?: {
    id: string;
    /**
     * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
     */
    name: string;
    rule: {};
  }[];
  rate_limits?: CommonRateLimits;
  /**
   * At most 31536000 (one year; Tally's bound, the contract states none).
   */
  cart_cancellation_wait_seconds?: number;
}
export interface CommonRateLimits {
  tier_1?: number;
  tier_2?: number;
  tier_3?: number;
  discounts_trigger?: number;
}
export interface CouponsCreate {
  loyalty_rule_id: string;
  coupon_params: CampaignsParamsCouponParams;
}
export interface CouponsUpdate {
  coupon_params: CampaignsParamsCouponParams;
}
export interface CustomEventDefinitionsCreate {
  slug: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  description?: string;
  schema: {
    [k: string]: unknown | undefined;
  };
}
export interface CustomEventsCreate {
  id?: string;
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  slug: string;
  data: {
    [k: string]: unknown | undefined;
  };
  created_at?: string;
}
export interface CustomersCards {
  id: string;
  main?: boolean;
  motive?: string;
  relationship_type?: string;
}
export interface CustomersCreate {
  code?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  surname_1?: string;
  surname_2?: string;
  email?: string;
  phone?: string;
  phone_prefix?: string;
  address?: string;
  address_extra?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  birth?: string;
  gender?: string;
  document_type?: string;
  dni?: string;
  /**
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country?: string;
  authentication_token?: string;
  registration_location_id?: string;
  registration_location_code?: string;
  usual_location_id?: string;
  status?: 'active' | 'inactive';
  creation_date?: string;
  sms_unsubscribe?: boolean;
  email_unsubscribe?: boolean;
  push_unsubscribe?: boolean;
  paper_free?: boolean;
  collective_id?: string;
  collective_slug?: string;
  communications?: boolean;
  terms?: boolean;
  profiling?: boolean;
  terms_accepted_at?: string;
  profiling_accepted_at?: string;
  app?: boolean;
  push_token?: string;
  kind?: string;
  /**
   * An ISO 639-1 code in lower case that a language holds (as ICU names them: the assigned codes and their deprecated aliases).
   */
  preferred_language?: string;
  fraudulent?: boolean;
  attributes?: {
    [k: string]: unknown | undefined;
  };
  /**
   * @deprecated
   */
  custom1?: string;
  /**
   * @deprecated
   */
  custom2?: string;
  /**
   * @deprecated
   */
  custom3?: string;
  /**
   * @deprecated
   */
  custom4?: string;
  /**
   * @deprecated
   */
  custom5?: string;
  /**
   * @deprecated
   */
  custom6?: string;
  /**
   * @deprecated
   */
  custom7?: string;
  /**
   * @deprecated
   */
  custom8?: string;
  /**
   * @deprecated
   */
  custom9?: string;
  /**
   * @deprecated
   */
  custom10?: string;
  /**
   * @deprecated
   */
  custom11?: string;
  /**
   * @deprecated
   */
  custom1f?: number;
  /**
   * @deprecated
   */
  custom2f?: number;
  /**
   * @deprecated
   */
  custom3f?: number;
  /**
   * @deprecated
   */
  custom4f?: number;
  /**
   * @deprecated
   */
  custom5f?: number;
  /**
   * @deprecated
   */
  custom6f?: number;
  /**
   * @deprecated
   */
  custom7f?: number;
  /**
   * @deprecated
   */
  custom8f?: number;
  id?: string;
  card_id?: string;
  password?: string;
  password_confirmation?: string;
  referred_by?: string;
  third_party_consent?: boolean;
}
export interface CustomersSearch {
  id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  code?: string;
  dni?: string;
  associate_id?: string;
  email?: string;
}
export interface CustomersUpdate {
  code?: null | string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  surname_1?: null | string;
  surname_2?: null | string;
  email?: null | string;
  phone?: null | string;
  phone_prefix?: null | string;
  address?: null | string;
  address_extra?: null | string;
  city?: null | string;
  state?: null | string;
  postal_code?: null | string;
  birth?: null | string;
  gender?: null | string;
  document_type?: null | string;
  dni?: null | string;
  country?: null | string;
  authentication_token?: null | string;
  registration_location_id?: null | string;
  registration_location_code?: null | string;
  usual_location_id?: null | string;
  status?: 'active' | 'inactive';
  creation_date?: string;
  sms_unsubscribe?: null | boolean;
  email_unsubscribe?: null | boolean;
  push_unsubscribe?: null | boolean;
  paper_free?: null | boolean;
  collective_id?: null | string;
  collective_slug?: null | string;
  communications?: null | boolean;
  terms?: null | boolean;
  profiling?: null | boolean;
  terms_accepted_at?: null | string;
  profiling_accepted_at?: null | string;
  app?: null | boolean;
  push_token?: null | string;
  kind?: null | string;
  preferred_language?: null | string;
  fraudulent?: null | boolean;
  attributes?: {
    [k: string]: unknown | undefined;
  };
  /**
   * @deprecated
   */
  custom1?: null | string;
  /**
   * @deprecated
   */
  custom2?: null | string;
  /**
   * @deprecated
   */
  custom3?: null | string;
  /**
   * @deprecated
   */
  custom4?: null | string;
  /**
   * @deprecated
   */
  custom5?: null | string;
  /**
   * @deprecated
   */
  custom6?: null | string;
  /**
   * @deprecated
   */
  custom7?: null | string;
  /**
   * @deprecated
   */
  custom8?: null | string;
  /**
   * @deprecated
   */
  custom9?: null | string;
  /**
   * @deprecated
   */
  custom10?: null | string;
  /**
   * @deprecated
   */
  custom11?: null | string;
  /**
   * @deprecated
   */
  custom1f?: null | number;
  /**
   * @deprecated
   */
  custom2f?: null | number;
  /**
   * @deprecated
   */
  custom3f?: null | number;
  /**
   * @deprecated
   */
  custom4f?: null | number;
  /**
   * @deprecated
   */
  custom5f?: null | number;
  /**
   * @deprecated
   */
  custom6f?: null | number;
  /**
   * @deprecated
   */
  custom7f?: null | number;
  /**
   * @deprecated
   */
  custom8f?: null | number;
  /**
   * @deprecated
   */
  updated_at?: {
    [k: string]: unknown | undefined;
  };
}
export interface DiscountsRedeem {
  voucher_code?: string;
  static_code?: string;
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  cart_id?: string;
  cart_code?: string;
  discount: number;
}
export interface DiscountsTrigger {
  customer_id: string;
  coupon_id?: string;
  loyalty_rule_id?: string;
  external_voucher_code?: string;
  priority_allocation?: boolean;
}
export interface FeatureCreate {
  id: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  description?: string | null;
}
export interface FeatureUpdate {
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  description?: string | null;
}
export interface GamesAssign {
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
}
export interface GamesCreate {
  rule_params: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
  game: GamesParamsGame;
}
export interface GamesParamsGame {
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  type?: string;
  /**
   * An object, or its JSON text (a text that is not the JSON of an object is refused); read back as a JSON string.
   */
  config?: string | {};
  template?: string;
  /**
   * @maxItems 100
   */
  game_prizes?: GamesParamsPrize[];
}
export interface GamesParamsPrize {
  id?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  outcome: 'points' | 'discount' | 'no_prize';
  /**
   * An object, or its JSON text (a text that is not the JSON of an object is refused); read back as a JSON string.
   */
  display_options?: string | {};
  weight: number | string;
  stock: number;
  stock_management_strategy?: 'decrement' | 'unlimited';
  points?: number;
  promotion_id?: string;
}
export interface GamesPlay {
  customer_id?: string;
  /**
   * 1 to 255 characters (contract part 2); a code longer than any customer's (36) names none: 404 customer_not_found.
   */
  customer_code?: string;
  loyalty_rule_history_id?: string;
}
export interface GamesUpdate {
  rule_params?: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
  game?: GamesParamsGame;
}
export interface InstantWinsCreate {
  rule_params: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
  instant_win: InstantWinsParamsInstantWin;
}
export interface InstantWinsParamsInstantWin {
  /**
   * @maxItems 100
   */
  instant_win_prizes?: InstantWinsParamsPrize[];
}
export interface InstantWinsParamsPrize {
  id?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  description?: string;
  outcome?: {
    promotion_type?: 'points' | 'reward' | 'game' | '';
    promotion_id?: string;
  };
  weight: number | string;
  stock: number;
  stock_management_strategy?: 'remove_prize';
}
export interface InstantWinsUpdate {
  rule_params?: CampaignsParamsRuleParams;
  coupon_params?: CampaignsParamsCouponParams;
  instant_win?: InstantWinsParamsInstantWin;
}
export interface LocationCreate {
  id: string;
  code?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  /**
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country: string;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  active: boolean;
  features?: CompanyDataFeatureRefs;
}
export interface LocationUpdate {
  code?: string | null;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  /**
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country?: string;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  active?: boolean;
  features?: CompanyDataFeatureRefs;
}
export interface MergesTransfer {
  old_customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  old_customer_code?: string;
  new_customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  new_customer_code?: string;
  relationship_type?: string;
  motive?: string;
}
export interface MessagesPrint {
  customer_id?: string;
  location_id?: string;
  width: number;
  /**
   * @minItems 1
   * @maxItems 50
   */
  messages: {
    text: string;
    copies: number;
  }[];
}
export interface PointsRedeem {
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  amount: string;
  comments: string;
}
export interface PointsRedeemCart {
  activity_id?: string;
  activity_code?: string;
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  location_id?: string;
  location_code?: string;
  amount: string;
  comments?: string;
}
export interface PointsTransfer {
  score: string;
  from_customer_id: string;
  to_customer_id: string;
  /**
   * @deprecated
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country?: string;
  comments?: string;
  allow_partial?: boolean;
}
export interface ProductCreate {
  id: string;
  code?: string;
  ean?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  description?: string | null;
  active: boolean;
  features?: CompanyDataFeatureRefs;
}
export interface ProductUpdate {
  code?: string | null;
  ean?: string | null;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  description?: string | null;
  active?: boolean;
  features?: CompanyDataFeatureRefs;
}
export interface PromotionCreate {
  id: string;
  code?: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  description?: string | null;
  active: boolean;
  available_from?: string | null;
  available_to?: string | null;
}
export interface PromotionUpdate {
  code?: string | null;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  description?: string | null;
  active?: boolean;
  available_from?: string | null;
  available_to?: string | null;
}
export interface RewardsParamsReward {
  name?:
    | string
    | {
        /**
         * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
         */
        [k: string]: string | undefined;
      };
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  points?: number;
  flexible_score_allowed?: boolean;
  status?: 'active' | 'inactive';
  available_from?: string | null;
  available_to?: string | null;
  type?:
    'physical' | 'code' | 'donation' | 'digital' | 'downloadable' | 'coupon' | 'free_delivery' | 'voucher' | 'wallet';
  image_file_name?: string | null;
  image_url?: string | null;
  extra_money?: number | null;
  currency?: string | null;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  /**
   * @maxItems 100
   */
  categories?: {
    id: string;
    /**
     * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
     */
    name: string;
    taxonomy_slug?: string | null;
    image_url?: string | null;
  }[];
  partner?: {} | null;
  coupon_id?: string | null;
  total_stock?: number | null;
  redeem_chances?: 'num_day' | 'num_month' | 'num_year' | 'always';
  redeem_times?: number | null;
  validity_duration_number?: number | null;
  validity_duration_unit_option?: 'days' | 'weeks' | 'months' | 'years' | null;
  validity_duration_date?: string | null;
  validity_duration_type?: 'relative' | 'fixed' | null;
  redemption_type?: 'manual' | 'loyalty_rule';
  /**
   * @maxItems 100
   */
  tiers?: {
    program_id: string;
    level: number;
  }[];
  /**
   * @maxItems 10000
   */
  location_ids?: string[];
}
export interface RewardsRedeem {
  location_id?: string;
  location_code?: string;
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  associate_id?: string;
  score_overwrite?: string;
  process_actions?: boolean;
  source?: string;
}
export interface RewardsRollback {
  status_detail: string;
}
export interface RewardsUpdate {
  name?:
    | string
    | {
        /**
         * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
         */
        [k: string]: string | undefined;
      };
  description?:
    | (
        | string
        | {
            [k: string]: string | undefined;
          }
      )
    | null;
  points?: number;
  flexible_score_allowed?: boolean;
  status?: 'active' | 'inactive';
  available_from?: string | null;
  available_to?: string | null;
  type?:
    'physical' | 'code' | 'donation' | 'digital' | 'downloadable' | 'coupon' | 'free_delivery' | 'voucher' | 'wallet';
  image_file_name?: string | null;
  image_url?: string | null;
  extra_money?: number | null;
  currency?: string | null;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  /**
   * @maxItems 100
   */
  categories?: {
    id: string;
    /**
     * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
     */
    name: string;
    taxonomy_slug?: string | null;
    image_url?: string | null;
  }[];
  partner?: {} | null;
  coupon_id?: string | null;
  total_stock?: number | null;
  redeem_chances?: 'num_day' | 'num_month' | 'num_year' | 'always';
  redeem_times?: number | null;
  validity_duration_number?: number | null;
  validity_duration_unit_option?: 'days' | 'weeks' | 'months' | 'years' | null;
  validity_duration_date?: string | null;
  validity_duration_type?: 'relative' | 'fixed' | null;
  redemption_type?: 'manual' | 'loyalty_rule';
  /**
   * @maxItems 100
   */
  tiers?: {
    program_id: string;
    level: number;
  }[];
  /**
   * @maxItems 10000
   */
  location_ids?: string[];
}
export interface TaxonomyCreate {
  slug: string;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  description?: string | null;
}
export interface TaxonomyUpdate {
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  description?: string | null;
}
export interface TierProgramsCreate {
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  active?: boolean;
  attribute: string;
  /**
   * @minItems 1
   * @maxItems 100
   */
  structure: TierProgramsParamsLevel[];
  validity_days?: number | null;
  period_months?: number | null;
}
export interface TierProgramsParamsLevel {
  level: number;
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name: string;
  threshold: number;
}
export interface TierProgramsUpdate {
  /**
   * 1 to 255 characters, none a control character (U+0000-U+001F, U+007F).
   */
  name?: string;
  /**
   * @maxItems 250
   *
   * Items: An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  countries?: string[];
  active?: boolean;
  attribute?: string;
  /**
   * @minItems 1
   * @maxItems 100
   */
  structure?: TierProgramsParamsLevel[];
  validity_days?: number | null;
  period_months?: number | null;
}
export interface TriggersTrigger {
  trigger: string;
  customer_id: string;
  loyalty_rule_id?: string;
  /**
   * @deprecated
   */
  loyalty_score_id?: string;
  location_id?: string;
  location_code?: string;
  score_overwrite?: number;
  comments?: string;
  /**
   * An ISO 3166-1 alpha-2 code in capitals that a country holds (every officially assigned code, and XK for Kosovo).
   */
  country?: string;
}
export interface VouchersMany {
  /**
   * @minItems 1
   * @maxItems 100
   */
  codes: string[];
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
}
export interface VouchersOne {
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
}
export interface VouchersRedeem {
  /**
   * @minItems 1
   * @maxItems 100
   */
  codes: string[];
  customer_id?: string;
  /**
   * A customer's code, as it names a customer in a request: at most 36 characters (contract part 1).
   */
  customer_code?: string;
  location_id?: string;
  location_code?: string;
}
export interface WebhooksCreate {
  /**
   * Where a webhook's events are POSTed: an http or https URL.
   */
  url: string;
  /**
   * The event types a webhook subscribes to (docs/webhooks.md), at least one.
   *
   * @minItems 1
   */
  events: (
    | 'cart.created'
    | 'cart.cancelled'
    | 'points_transaction.created'
    | 'customer.created'
    | 'customer.updated'
    | 'customer.deleted'
    | 'customer.merged'
    | 'customer.unmerged'
    | 'reward_redemption.created'
    | 'reward_redemption.reverted'
    | 'voucher.issued'
    | 'voucher.redeemed'
    | 'custom_event.created'
    | 'game.played'
    | 'instant_win.won'
  )[];
  active?: boolean;
  description?: string | null;
}
export interface WebhooksUpdate {
  /**
   * Where a webhook's events are POSTed: an http or https URL.
   */
  url?: string;
  /**
   * The event types a webhook subscribes to (docs/webhooks.md), at least one.
   *
   * @minItems 1
   */
  events?: (
    | 'cart.created'
    | 'cart.cancelled'
    | 'points_transaction.created'
    | 'customer.created'
    | 'customer.updated'
    | 'customer.deleted'
    | 'customer.merged'
    | 'customer.unmerged'
    | 'reward_redemption.created'
    | 'reward_redemption.reverted'
    | 'voucher.issued'
    | 'voucher.redeemed'
    | 'custom_event.created'
    | 'game.played'
    | 'instant_win.won'
  )[];
  active?: boolean;
  description?: string | null;
}
/**
 * Response bodies, by schema $id.
 */
export interface ResponseBodies {
  'responses.association': AssociationResponse;
  'responses.audience': AudienceEntry;
  'responses.audience_validation': AudienceValidationResponse;
  'responses.audit_entry': AuditEntryResponse;
  'responses.campaign': CampaignResponse;
  'responses.cart': CartResponse;
  'responses.cart_read': CartReadResponse;
  'responses.cashback': CashbackResponse;
  'responses.cashback_threshold': CashbackThresholdEntry;
  'responses.challenge': ChallengeResponse;
  'responses.check': CheckResponse;
  'responses.company': CompanyResponse;
  'responses.custom_event': CustomEventResponse;
  'responses.custom_event_definition': CustomEventDefinitionResponse;
  'responses.customer': CustomerResponse;
  'responses.customer_attribute': CustomerAttributeEntry;
  'responses.customer_export': CustomerExportResponse;
  'responses.discount_transaction': DiscountTransaction;
  'responses.effect': Effect;
  'responses.error': ErrorBody;
  'responses.excluded_products': ExcludedProductsResponse;
  'responses.forbidden': ForbiddenBody;
  'responses.game_campaign': GameCampaignResponse;
  'responses.game_play': GamePlayResponse;
  'responses.instant_win_campaign': InstantWinCampaignResponse;
  'responses.location': LocationResponse;
  'responses.messages_print': MessagesPrintResponse;
  'responses.points_balance': PointsBalanceResponse;
  'responses.points_expiring': PointsExpiringEntry;
  'responses.points_redemption': PointsRedemptionResponse;
  'responses.points_transaction': PointsTransaction;
  'responses.points_transfer': PointsTransferResponse;
  'responses.product': ProductResponse;
  'responses.program_tier': ProgramTierEntry;
  'responses.redemption': RedemptionResponse;
  'responses.redemption_rollback': RedemptionRollbackResponse;
  'responses.reward': RewardResponse;
  'responses.reward_redemption': RewardRedemptionResponse;
  'responses.success': SuccessBody;
  'responses.trigger': TriggerResponse;
  'responses.voucher': VoucherResponse;
  'responses.voucher_action': VoucherActionResponse;
  'responses.voucher_actions': VoucherActionsResponse;
  'responses.webhook': WebhookResponse;
  'responses.webhook_delivery': WebhookDeliveryResponse;
}
export interface AssociationResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  customer_id: number;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  associate_customer_id: number;
  relationship_type?: string | null;
  active: boolean;
  main: boolean;
  merge_id?: number | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at?: string;
}
export interface AudienceEntry {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  segment_id: number;
}
export interface AudienceValidationResponse {
  result: boolean;
}
export interface AuditEntryResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  at: string;
  company_id: string;
  environment: 'sandbox' | 'production';
  /**
   * The API key (its public id, never the secret) and the X-Author-Email header, or the CLI.
   */
  actor:
    | {
        api_key: string;
        author: string | null;
      }
    | {
        cli: true;
      };
  /**
   * The operation id (docs/openapi.json operationId, without .legacy), or cli.<command> for the CLI.
   */
  operation: string;
  method: string | null;
  /**
   * The path as requested (an alias when a legacy path was used); null for the CLI.
   */
  path: string | null;
  /**
   * The record changed, as kind:id (customer:42), when known.
   */
  target: string | null;
  /**
   * The request body (the CLI: its options) as canonical JSON, values of password, secret and token fields replaced by "[redacted]"; null once redacted (see redacted).
   */
  body: string | null;
  /**
   * The body was longer than 16384 characters and is cut there.
   */
  body_truncated: boolean;
  /**
   * Null, or why and when the entry lost what it recorded of a person (docs/audit-log.md, Erasure): its body is null, and path values naming that person other than by id read "[redacted]". Who did what, when, to which record is kept.
   */
  redacted: null | {
    /**
     * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
     */
    at: string;
    /**
     * customer_deleted: a DELETE /customers/{value} (soft or hard) of the customer the entry names.
     */
    reason: 'customer_deleted';
  };
  status: 'committed';
}
/**
 * Fields every campaign read carries (discounts, points, games, instant wins); for games and instant wins the cart-only ones are empty.
 */
export interface CommonCampaignReadFields {
  currency?: string | null;
  coupon_required?: boolean;
  tiers?: {
    /**
     * A tier level's name, the customer.tier value the conditions compare with (docs/decisions.md: a level has no id of its own).
     */
    id?: string | null;
    name?: string | null;
    threshold?: number | null;
  }[];
  achievement_definitions?: {
    id?: number | null;
    level?: number | null;
    name?: string | null;
    tier_id?: number | null;
    tier_name?: string | null;
  }[];
  chances_to_accrue?: string | null;
  chances_to_accrue_period?: string | null;
  chances_to_accrue_limit?: number | null;
  budget_value?: number | null;
  budget_period?: string | null;
  maximum_discount_transaction?: number | null;
  partner?: {
    id?: number | null;
    name?: string | null;
    description?: string | null;
    image_url?: string | null;
    image_file_name?: string | null;
  } | null;
  custom_entity_definition_id?: number | null;
  /**
   * Items: int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  product_ids_rule_conditions?: number[];
  /**
   * Items: int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  product_ids_rule_application?: number[];
  /**
   * Items: int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  locations_ids?: number[];
  location_codes?: string[];
}
export interface ResponsesCampaign {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  campaign_history_id?: number | null;
  name: string | null;
  description?: string | null;
  /**
   * true when created without it (the value carts apply).
   */
  active?: boolean;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_from?: string | null;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_to?: string | null;
  recurrence_type?: string | null;
  recurrence_days?: number[] | null;
  /**
   * all_customers when created without it (the value carts apply).
   */
  select_customers?: 'loyalty' | 'all_customers' | 'targeted';
  customer_registration_countries?: string[] | null;
  once?: string | null;
  once_limit?: number | null;
  when?: string | null;
  priority?: number;
  stackability_properties?: 'stackable' | 'exclusive';
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_conditions?: string | null;
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_application?: string | null;
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_effects?: string | null;
  partner_id?: number | null;
  /**
   * Tally extension: the money the campaign's budget spent in its current period (budget_period at the request's instant, in the Company's timezone, as carts count it): discounts given by carts and POST /discounts/redeem, points' money value given by carts, triggers and custom events, less what cancellations gave back. Null without budget_value (docs/campaigns.md).
   */
  budget_spent?: number | null;
  /**
   * Tally extension: budget_value less budget_spent, never below 0 (POST /discounts/redeem may spend beyond the budget). Null without budget_value.
   */
  budget_available?: number | null;
  type?: 'discount' | 'points';
  category?: {
    id?: number | null;
    name?: string | null;
    priority?: number | null;
  } | null;
  /**
   * Points campaigns; true when created without it.
   */
  transferable?: boolean;
  activation_period_type?: 'relative' | 'fixed' | null;
  activation_fixed_option_selected?: string | null;
  activation_date?: string | null;
  activation_delay?: number | null;
  activation_delay_unit?: string | null;
  expiration_period_type?: string | null;
  fixed_option_selected?: string | null;
  expiration_date?: string | null;
  availability_duration?: number | null;
  availability_duration_unit?: string | null;
  /**
   * Points campaigns.
   */
  availability_duration_natural?: boolean;
  coupon_info?: {
    coupon_id?: number | null;
    static_code?: string | null;
    coupon_name?: string | null;
    external_id?: string | null;
    key?: string | null;
    voucher_info?: {
      voucher_id?: number | null;
      voucher_code?: string | null;
      available_redemptions?: number | null;
      max_redemptions?: number | null;
      selected?: boolean | null;
      status?: string | null;
      available_from?: string | null;
      available_to?: string | null;
      print_from?: string | null;
      print_to?: string | null;
      priority?: number | null;
      printable?: boolean | null;
    } | null;
  } | null;
  compile_error?: CommonCompileError;
  /**
   * Single reads (Tally): the coupon's parameters as POST/PATCH take them, to edit and send back; an unset field reads the value Tally applies (active true, max_redemptions 1, priority 0, printable and auto_select false) or null; a name or description sent per language reads as that object. Null without a coupon (docs/campaigns.md).
   */
  coupon_params?: {
    static_code?: string | null;
    key?: string | null;
    /**
     * A text, or a text per language as it was sent.
     */
    name?:
      | (string | null)
      | {
          [k: string]: string | undefined;
        };
    /**
     * A text, or a text per language as it was sent.
     */
    description?:
      | (string | null)
      | {
          [k: string]: string | undefined;
        };
    active?: boolean;
    max_redemptions?: number;
    available_days?: number | null;
    available_delay_days?: number | null;
    print_days?: number | null;
    print_delay_days?: number | null;
    printable?: boolean;
    priority?: number;
    external_id?: string | null;
    auto_select?: boolean;
    /**
     * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
     */
    available_from?: string | null;
    /**
     * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
     */
    available_to?: string | null;
    /**
     * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
     */
    print_from?: string | null;
    /**
     * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
     */
    print_to?: string | null;
  } | null;
}
/**
 * The fields every cart response has (evaluation and read).
 */
export interface CartEvaluation {
  id?: number | null;
  code?: string | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  creation_date: string;
  location_id?: number | null;
  currency?: string | null;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total: number;
  original_total?: number | null;
  /**
   * Whole points.
   */
  score: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_as_money?: number;
  /**
   * Whole points.
   */
  score_used: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_used_as_money?: number;
  /**
   * Whole points.
   */
  score_returned_from_customer?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_returned_from_customer_as_money?: number;
  /**
   * Whole points.
   */
  score_returned_to_customer?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_returned_to_customer_as_money?: number;
  /**
   * Whole points.
   */
  total_scores_coupon_applied?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total_scores_coupon_applied_as_money?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total_discount_voucher_applied?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total_discount_promotion_applied?: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total_discount_applied: number;
  /**
   * @minItems 1
   */
  lines: CartLine[];
  effects: Effect[];
  rejected_campaigns?: CartRejectedCampaign[];
  invalid_coupons?: unknown[];
  vouchers?: CartVoucher[];
  cashbacks?: CartCashback[];
  cashback_returns?: CartCashbackReturn[];
  scores?: CartScoreEntry[];
  returns?: CartReturn[];
  promotions?: CartPromotion[];
  /**
   * Echoed: all, selected, or a list of codes.
   */
  vouchers_desired?: ('all' | 'selected') | string[] | null;
  /**
   * Echoed: all, selected, or a list of codes.
   */
  coupons_desired?: ('all' | 'selected') | string[] | null;
  attributes?: {} | null;
  /**
   * Cost name to amount; responses add original_<name>.
   */
  additional_costs?: {
    [k: string]: number | undefined;
  } | null;
  /**
   * Present (true) only when the cart currency differs from the currency of the customer registration country (cart rule 6).
   */
  international?: true;
}
export interface CartLine {
  order?: number | null;
  product_id?: number | null;
  product_code?: string | null;
  product_ean?: string | null;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  total: number;
  original_total?: number | null;
  total_cost?: number | null;
  quantity?: number | null;
  measurement_unit?: string | null;
  total_net?: number | null;
  total_tax?: number | null;
  product_name?: string | null;
  product_tax?: number | null;
  price?: number | null;
  custom1?: string | null;
  custom2?: string | null;
  custom3?: string | null;
  custom4?: string | null;
  custom5?: string | null;
  custom6?: string | null;
  custom7?: string | null;
  supplier_id?: number | null;
  attributes?: {} | null;
  /**
   * Cost name to amount; responses add original_<name>.
   */
  additional_costs?: {
    [k: string]: number | undefined;
  } | null;
}
export interface Effect {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  rule_id: number;
  rule_name: string | null;
  type: 'discount' | 'points' | 'instant_win' | 'gaming';
  /**
   * Empty for instant_win.
   */
  effect_type?: 'percentage' | 'direct_value' | 'combo_price' | 'ratio' | 'rollback' | 'external_redeem' | '' | null;
  /**
   * Empty for instant_win.
   */
  distribution_type?: 'individual_items' | 'individual_items_pro_rata' | 'total' | 'total_cart' | '' | null;
  select_customers?: 'loyalty' | 'all_customers' | 'targeted' | null;
  /**
   * Line order; -1 for an effect on the whole cart.
   */
  line?: number;
  /**
   * Cents for discounts, points for points effects (negative for rollbacks), 0 for instant wins.
   */
  value: number;
  value_as_money?: number | null;
  available_from?: string | null;
  available_to?: string | null;
  coupon_info?: EffectCouponInfo | null;
  campaign_history_id?: number | null;
  prize_name?: string | null;
  prize_description?: string | null;
  prize_rule_id?: number | null;
  /**
   * Internal, kept for compatibility: never decide a win by it alone.
   */
  winned_prize_index?: number | null;
}
export interface EffectCouponInfo {
  voucher_id?: number | null;
  voucher_code?: string | null;
  coupon_id?: number | null;
  coupon_name?: string | null;
  static_code?: string | null;
}
export interface CartRejectedCampaign {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  rule_id: number;
  rule_name?: string | null;
  type?: string | null;
  error?: string | null;
  coupon_info?: EffectCouponInfo | null;
}
export interface CartVoucher {
  voucher_id?: number | null;
  voucher_code: string;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  discount?: number;
  line_order?: number | null;
  product_id?: number | null;
  rule_id?: number | null;
  /**
   * The contract's coupon; discount, discount_type and affectation are the value (a percentage, a points ratio or points, or currency units), type and distribution of its campaign's first effect. Tally's coupons have no money or unit limits of their own: min_money, max_money, min_units, max_units are null.
   */
  coupon?: CartCoupon;
}
export interface CartCoupon {
  id: number | null;
  key: string | null;
  name: string | null;
  description: string | null;
  max_redemptions: number | null;
  min_money: number | null;
  max_money: number | null;
  min_units: number | null;
  max_units: number | null;
  discount: number | null;
  discount_type: string | null;
  affectation: string | null;
  static_code?: string | null;
}
export interface CartCashback {
  line_order: number;
  /**
   * Whole points.
   */
  score: number;
  discount?: number | null;
}
export interface CartCashbackReturn {
  line_order: number;
  /**
   * Whole points.
   */
  score: number;
}
export interface CartScoreEntry {
  line_order?: number | null;
  /**
   * Whole points.
   */
  score: number;
  loyalty_score_id?: number | null;
  available_from?: string | null;
  available_to?: string | null;
}
export interface CartReturn {
  ticket_id?: number | null;
  ticket_code?: string | null;
  line_order?: number | null;
  from_line_order?: number | null;
  quantity?: number | null;
  line_order_change?: number | null;
  /**
   * Points this return took back from the customer: the original ticket line's points, pro rata to the units returned (docs/carts.md, Returns).
   */
  score?: number | null;
}
export interface CartPromotion {
  promotion_id?: number | null;
  discount?: number | null;
  discount_int?: number | null;
  line_order?: number | null;
  product_id?: number | null;
}
export interface CartCustomerSummary {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code?: string | null;
  /**
   * Whole points.
   */
  score: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_as_money?: number;
  /**
   * Whole points.
   */
  score_available: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_available_as_money?: number;
  score_threshold_cashback?: number | null;
  score_threshold_cashback_as_money?: number | null;
  money_threshold_cashback?: number | null;
  score_to_reach_cashback?: number | null;
  money_to_spend_to_reach_cashback?: number | null;
  fraudulent?: boolean | null;
  attributes?: {} | null;
}
export interface CashbackResponse {
  cashback: number;
  currency: string | null;
}
export interface CashbackThresholdEntry {
  /**
   * Whole points.
   */
  score: number;
  country?: string | null;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  money_representation?: number;
  currency: string | null;
}
export interface ChallengeResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  name: string;
  description?: string | null;
  status: string;
  customer_attribute_id?: number | null;
  countries?: string[];
  available_from?: string | null;
  available_to?: string | null;
  display_from?: string | null;
  display_to?: string | null;
  challenge_type?: string | null;
  image_file_name?: string | null;
  open_to_all?: boolean;
  max_enrollments?: number | null;
  current_enrollments?: number | null;
  partner?: {} | null;
  attribute_data_period_type?: string | null;
  attribute_period_from?: string | null;
  attribute_period_to?: string | null;
  attribute_relative_value?: number | null;
  structure: {
    level: number;
    name: string;
    threshold: number;
    /**
     * Points granted on reaching the level (Tally).
     */
    points?: number;
  }[];
  attribute_value?: number | null;
  attribute_id?: number | null;
  last_execution_time?: string | null;
  expires_at?: string | null;
  enrolled?: boolean;
  /**
   * What is measured (Tally): total_spent, carts, points_earned or a numeric custom attribute.
   */
  attribute?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at?: string;
  current_level?: number;
  current_level_name?: string | null;
}
export interface CheckResponse {
  status: 'ok';
  environment?: 'sandbox' | 'production';
}
export interface CompanyResponse {
  id: string;
  name?: string | null;
  environment: 'sandbox' | 'production';
  version?: number;
  currency: string;
  country: string;
  timezone?: string;
  default_language?: string;
  languages?: string[];
  /**
   * Money value of one point, a decimal string.
   */
  point_value?: string;
  /**
   * The most points one cart spends as cashback; null: no cap.
   */
  cashback_cap?: number | null;
  cashback_threshold?: number;
  trigger_engine_version?: 1 | 2;
  customer_attribute_schema?: {};
  audiences?: {
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id: number;
    name: string;
    rule: {};
  }[];
  rate_limits?: CommonRateLimits;
  cart_cancellation_wait_seconds?: number;
}
export interface CustomEventResponse {
  /**
   * Unique; a string.
   */
  id: string;
  customer_id?: number | null;
  customer_code?: string | null;
  slug: string;
  data: {};
  created_at?: string | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  ingested_at: string;
  /**
   * Whole points.
   */
  score?: number;
  /**
   * Whole points.
   */
  score_available?: number;
  scores?: {
    /**
     * Whole points.
     */
    score: number;
    loyalty_score_id?: number | null;
    available_from?: string | null;
    available_to?: string | null;
  }[];
  customer?: CommonCustomerPoints;
  effects?: Effect[];
}
/**
 * The customer part of points operations: {id, code, score, score_available}.
 */
export interface CommonCustomerPoints {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code?: string | null;
  /**
   * Whole points.
   */
  score: number;
  /**
   * Whole points.
   */
  score_available: number;
}
export interface CustomEventDefinitionResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  slug: string;
  name?: string | null;
  description?: string | null;
  schema: {};
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
}
export interface CustomerResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code?: string | null;
  dni?: string | null;
  /**
   * The dni accepted with allow_duplicate_dni although another customer has it (part 1, Duplicates); absent otherwise.
   */
  duplicated_dni?: string | null;
  name?: string | null;
  surname_1?: string | null;
  surname_2?: string | null;
  email?: string | null;
  /**
   * The email accepted with allow_duplicate_email although another customer has it (part 1, Duplicates); absent otherwise.
   */
  duplicated_email?: string | null;
  birth?: string | null;
  phone_prefix?: string | null;
  phone?: string | null;
  status: 'active' | 'inactive' | 'merging' | 'merged';
  address?: string | null;
  address_extra?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  trimestral_expend?: number | null;
  score?: number | null;
  score_available?: number | null;
  paper_free?: boolean | null;
  merged?: boolean;
  merged_to?: number | null;
  kind?: string | null;
  preferred_language?: string | null;
  communications?: boolean | null;
  app?: boolean | null;
  registration_location_id?: number | null;
  registration_location_code?: string | null;
  fraudulent?: boolean | null;
  collective_id?: number | null;
  third_party_consent?: boolean | null;
  gender?: string | null;
  document_type?: string | null;
  usual_location_id?: number | null;
  collective_slug?: string | null;
  sms_unsubscribe?: boolean | null;
  email_unsubscribe?: boolean | null;
  push_unsubscribe?: boolean | null;
  terms?: boolean | null;
  profiling?: boolean | null;
  terms_accepted_at?: string | null;
  profiling_accepted_at?: string | null;
  custom1?: string | null;
  custom2?: string | null;
  custom3?: string | null;
  custom4?: string | null;
  custom5?: string | null;
  custom6?: string | null;
  custom7?: string | null;
  custom8?: string | null;
  custom9?: string | null;
  custom10?: string | null;
  custom11?: string | null;
  custom1f?: number | null;
  custom2f?: number | null;
  custom3f?: number | null;
  custom4f?: number | null;
  custom5f?: number | null;
  custom6f?: number | null;
  custom7f?: number | null;
  custom8f?: number | null;
  /**
   * Flat object of the Company-defined attributes.
   */
  attributes?: {};
  creation_date?: string | null;
  updated_at?: string | null;
  /**
   * When the customer was soft-deleted; present only then, so only in GET /customers/{value}/export (every other read answers 404 for it).
   */
  deleted_at?: string;
}
export interface CustomerAttributeEntry {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id?: number;
  name: string;
  /**
   * The value written as text.
   */
  value: string | null;
  data_type?: string | null;
  attribute_type?: string | null;
  slug?: string | null;
  system?: boolean;
  created_at?: string | null;
}
export interface CustomerExportResponse {
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  exported_at: string;
  customer: CustomerResponse;
  carts: {
    data: CartReadResponse[];
    next_token_starts_after?: string;
  };
  points: PointsBalanceResponse;
  points_transactions: {
    data: PointsTransaction[];
    next_token_starts_after?: string;
  };
  vouchers: {
    data: VoucherResponse[];
    next_token_starts_after?: string;
  };
  discount_transactions: {
    data: DiscountTransaction[];
    next_token_starts_after?: string;
  };
  reward_redemptions: {
    data: RedemptionResponse[];
    next_token_starts_after?: string;
  };
  challenges: ChallengeResponse[];
  tiers: ProgramTierEntry[];
  associations: AssociationResponse[];
  cards: CustomerExportCard[];
  custom_events: {
    data: CustomEventResponse[];
    next_token_starts_after?: string;
  };
  game_deliveries: CustomerExportGameDelivery[];
  audit_log: {
    data: AuditEntryResponse[];
    next_token_starts_after?: string;
  };
  audit_log_mentions: {
    data: AuditEntryResponse[];
    next_token_starts_after?: string;
  };
}
export interface PointsBalanceResponse {
  /**
   * Whole points.
   */
  score: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_as_money: number;
  /**
   * Whole points.
   */
  score_available: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_available_as_money: number;
  score_to_reach_cashback: number | null;
  money_to_spend_to_reach_cashback: number | null;
  score_threshold_cashback: number | null;
  money_threshold_cashback: number | null;
  score_threshold_cashback_as_money: number | null;
  currency: string | null;
  fraudulent: boolean | null;
}
export interface PointsTransaction {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  type:
    | 'activity'
    | 'transfer'
    | 'reward'
    | 'expiration'
    | 'activation'
    | 'trigger'
    | 'subtract'
    | 'custom_entity'
    | 'challenge';
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
  /**
   * Positive earned, negative spent.
   */
  amount: number;
  pending_amount?: number | null;
  location_id?: number | null;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  customer_id?: number;
  customer_code?: string | null;
  /**
   * The customer a merge moved this transaction from (docs/decisions.md, associate_id); absent otherwise.
   */
  associate_id?: number;
  /**
   * The X-Author-Email of the request (common rule 9: transfers and triggers); absent when none was sent.
   */
  author?: string;
  origin_info?: {} | null;
  scores?: {
    loyalty_score_name?: string | null;
    loyalty_score_id?: number | null;
    /**
     * Whole points.
     */
    score?: number;
    available_from?: string | null;
    available_to?: string | null;
  }[];
}
export interface VoucherResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code: string;
  status: 'active' | 'pending' | 'expired' | 'redeemed' | 'inactive' | 'frozen' | 'deleted';
  selected: boolean;
  priority?: number | null;
  max_redemptions?: number | null;
  redemptions?: number | null;
  available_redemptions?: number | null;
  available_from?: string | null;
  available_to?: string | null;
  print_from?: string | null;
  print_to?: string | null;
  printable?: boolean | null;
  prints?: number | null;
  printed_at?: string | null;
  customer_id?: number | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  loyalty_rule_id?: number | null;
  /**
   * Tally extension: the campaign's version the voucher was issued at (null for a voucher issued before it was recorded); a targeted instant win's effect echoes it as campaign_history_id (docs/evaluation.md, Preview offline).
   */
  campaign_history_id?: number | null;
  campaign_type?: 'discount' | 'points' | null;
  campaign_name?: string | null;
  /**
   * The coupon as carts show it (the contract's vouchers[].coupon, engine voucherCoupon), with name and description in the request's language, external_id and deleted.
   */
  coupon?:
    | (CartCoupon & {
        /**
         * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
         */
        id?: number;
        external_id?: string | null;
        deleted?: boolean;
      })
    | null;
}
export interface DiscountTransaction {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  amount: number;
  customer_id?: number | null;
  activity_id?: number | null;
}
export interface RedemptionResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  created_at: string;
  customer_id?: number | null;
  customer_code?: string | null;
  location_id?: number | null;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  reward_id: number;
  /**
   * Whole points.
   */
  score_expense?: number;
  code?: string | null;
  status: string;
  status_detail?: string | null;
  source?: string | null;
  origin_type?: string | null;
  origin_id?: number | null;
  loyalty_rule_id?: number | null;
}
export interface ProgramTierEntry {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  name: string;
  countries?: string[];
  current_level_name?: string | null;
  current_level: number;
  attribute_value?: number | null;
  won_at?: string | null;
  expires_at?: string | null;
  to_reach_next_level_value?: number;
  to_reach_next_level_name?: string;
  structure: {
    level: number;
    name: string;
    threshold: number;
  }[];
}
export interface CustomerExportCard {
  id: string;
  customer_id: string;
  main: boolean;
  motive?: string;
  relationship_type?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
}
export interface CustomerExportGameDelivery {
  id: string;
  game_id: string;
  customer_id: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
  played_at: string | null;
}
export interface ErrorBody {
  /**
   * Human-readable message; Tally starts it with the field it names (`field: reason`).
   */
  error: string;
  /**
   * Machine-readable code: invalid_request, <resource>_not_found, voucher_*, ...
   */
  code: string;
}
export interface ExcludedProductsResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  loyalty_rule_id: number;
  /**
   * Items: int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  product_ids: number[];
  product_codes: string[];
  product_eans: string[];
  categories: {
    taxonomy_slug: string;
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id: number;
  }[];
}
export interface ForbiddenBody {
  message: 'Forbidden';
}
/**
 * What a single read of a game or an instant win adds: the rules, their order and their event (the contract's Game campaign single read; for an instant win a Tally extension, so that an app previews carts offline: docs/evaluation.md).
 */
export interface CommonSingleReadRules {
  when?: string | null;
  priority?: number | null;
  stackability_properties?: string | null;
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_conditions?: string | null;
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_application?: string | null;
  /**
   * A JSON document written as a string (contract: rule objects are returned as JSON strings).
   */
  rule_effects?: string | null;
}
export interface ResponsesGameCampaign {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  campaign_history_id?: number | null;
  name: string | null;
  description?: string | null;
  active?: boolean | null;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_from?: string | null;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_to?: string | null;
  recurrence_type?: string | null;
  recurrence_days?: number[] | null;
  select_customers?: 'loyalty' | 'all_customers' | 'targeted' | null;
  customer_registration_countries?: string[] | null;
  once?: string | null;
  once_limit?: number | null;
  partner_id?: number | null;
  rule_type: 'gaming';
  loyalty_rule_history_id?: number | null;
  coupon_info?: {
    coupon_id?: number | null;
    static_code?: string | null;
    coupon_name?: string | null;
    external_id?: string | null;
    key?: string | null;
    voucher_info?: {
      voucher_id?: number | null;
      voucher_code?: string | null;
      available_redemptions?: number | null;
      max_redemptions?: number | null;
      selected?: boolean | null;
      status?: string | null;
      available_from?: string | null;
      available_to?: string | null;
      print_from?: string | null;
      print_to?: string | null;
      priority?: number | null;
      printable?: boolean | null;
    } | null;
  } | null;
  category?: {
    id?: number | null;
    name?: string | null;
    priority?: number | null;
  } | null;
  loyalty_rule_category?: {
    id?: number | null;
    name?: string | null;
    priority?: number | null;
    category_type?: string | null;
  } | null;
  compile_error?: CommonCompileError;
  game: {
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id: number;
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    loyalty_rule_id?: number;
    type: string;
    /**
     * A JSON document written as a string (contract: rule objects are returned as JSON strings).
     */
    config?: string | null;
    template?: string | null;
    game_prizes: {
      /**
       * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
       */
      id: number;
      game_id?: number | null;
      name: string | null;
      /**
       * discount, points, no_prize seen.
       */
      outcome: string;
      /**
       * A JSON document written as a string (contract: rule objects are returned as JSON strings).
       */
      display_options?: string | null;
      /**
       * A fraction of 1.
       */
      weight?: number;
      /**
       * -1 is unlimited.
       */
      stock?: number;
      stock_management_strategy?: string | null;
      /**
       * Stock left; -1 is unlimited.
       */
      available_stock?: number;
      /**
       * Outcome points: the points credited when won.
       */
      points?: number | null;
      /**
       * Outcome discount: the discount campaign whose voucher is issued when won.
       */
      promotion_id?: number | null;
    }[];
  };
}
export interface GamePlayResponse {
  code: 'success';
  effects: {
    game_info: {
      /**
       * A JSON document written as a string (contract: rule objects are returned as JSON strings).
       */
      config?: string | null;
      /**
       * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
       */
      game_id?: number;
      game_type?: string;
      /**
       * A JSON document written as a string (contract: rule objects are returned as JSON strings).
       */
      outcome?: string | null;
      prize_id?: number | null;
      status: 'won' | 'no_prize' | 'stock_exhausted';
      status_message?: string | null;
      template?: {
        String?: string;
        Valid?: boolean;
      };
      won_prize?: {
        name?: string | null;
        points?: number | null;
        type?: string | null;
      } | null;
    };
    line?: number;
    order_apply?: number;
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    rule_id: number;
    rule_name?: string | null;
    rule_unique_id?: string;
    select_customers?: 'loyalty' | 'all_customers' | 'targeted' | null;
    type: 'gaming';
  }[];
}
export interface ResponsesInstantWinCampaign {
  /**
   * Equals rule_id of the instant_win effect.
   */
  id: number;
  campaign_history_id?: number | null;
  name: string;
  description?: string | null;
  active?: boolean | null;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_from?: string | null;
  /**
   * A campaign's bound as it was sent: a UTC datetime, or a date (YYYY-MM-DD: the whole day in the Company's timezone, docs/decisions.md).
   */
  available_to?: string | null;
  recurrence_type?: string | null;
  recurrence_days?: number[] | null;
  select_customers?: 'loyalty' | 'targeted';
  loyalty_rule_history_id?: number | null;
  once?: string | null;
  once_limit?: number | null;
  /**
   * Only when a customer is identified.
   */
  remaining_participations?: number;
  customer_registration_countries?: string[];
  instant_win: {
    instant_win_prizes: {
      /**
       * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
       */
      id: number;
      name: string;
      description?: string | null;
      outcome?: {
        /**
         * Empty for no prize.
         */
        promotion_type?: 'points' | 'reward' | 'game' | '';
        promotion_id?: number | null;
      };
      weight: number;
      stock: number;
      stock_management_strategy?: string | null;
      /**
       * Stock left; -1 is unlimited.
       */
      available_stock?: number;
    }[];
  };
  /**
   * Targeted campaigns: the coupon whose voucher lets the customer take part.
   */
  coupon_info?: {} | null;
  compile_error?: CommonCompileError;
}
export interface LocationResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code?: string | null;
  name: string;
  country: string;
  currency?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  active?: boolean;
  features?: {
    taxonomy_slug?: string;
    taxonomy_name?: string | null;
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id?: number;
    name?: string | null;
  }[];
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at?: string;
}
export interface MessagesPrintResponse {
  status: 'success';
  width: number;
  lines: string[];
}
export interface PointsExpiringEntry {
  /**
   * Whole points.
   */
  score_available: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_available_as_money?: number;
  currency?: string | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  expiration_date: string;
}
export interface PointsRedemptionResponse {
  customer: CommonCustomerPoints;
  /**
   * Whole points.
   */
  score_used: number;
  /**
   * Whole points.
   */
  score: number;
  /**
   * Whole points.
   */
  score_available: number;
}
export interface PointsTransferResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  from_customer_id: number;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  to_customer_id: number;
  /**
   * Points transferred.
   */
  score: number;
  comments?: string | null;
  /**
   * The score the request asked, as sent (an int64: exact above 2^53).
   */
  requested_scores: number;
}
export interface ProductResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  code?: string | null;
  ean?: string | null;
  name: string;
  description?: string | null;
  active?: boolean;
  features?: {
    taxonomy_slug?: string;
    taxonomy_name?: string | null;
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    id?: number;
    name?: string | null;
  }[];
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at?: string;
}
export interface RedemptionRollbackResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  redemption_id: number;
  status: 'reverted';
  status_detail: string;
}
export interface RewardResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  name: string | null;
  description?: string | null;
  /**
   * Whole points.
   */
  points: number;
  flexible_score_allowed?: boolean | null;
  is_coupon?: boolean | null;
  status?: string | null;
  available_from?: string | null;
  available_to?: string | null;
  type:
    'physical' | 'code' | 'donation' | 'digital' | 'downloadable' | 'coupon' | 'free_delivery' | 'voucher' | 'wallet';
  image_file_name?: string | null;
  image_url?: string | null;
  extra_money?: number | null;
  currency?: string | null;
  countries?: string[];
  categories?: {
    id?: number | null;
    name?: string | null;
    taxonomy_slug?: string | null;
    image_url?: string | null;
  }[];
  partner?: {} | null;
  coupon?:
    | (CartCoupon & {
        features?: {
          id?: number | null;
          taxonomy_slug?: string | null;
        }[];
        product_ids?: unknown[] | null;
      })
    | null;
  total_stock?: number | null;
  available_stock?: number | null;
  can_redeem?: boolean;
  missing_redeem_conditions?: string[][];
  redeem_chances?: string | null;
  redeem_times?: number | null;
  validity_duration_number?: number | null;
  validity_duration_unit_option?: string | null;
  validity_duration_date?: string | null;
  validity_duration_type?: 'relative' | 'fixed' | null;
  redemptions_quantity?: number | null;
  redemption_type?: 'manual' | 'loyalty_rule';
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at?: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at?: string;
  /**
   * Tier levels the customer must hold (one of them, or higher).
   */
  tiers?: {
    /**
     * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
     */
    program_id: number;
    level: number;
  }[];
  /**
   * The coupon the reward issues (as written); null without one, or once DELETE /coupons took it.
   */
  coupon_id?: number | null;
  /**
   * The stores offering the reward; empty: every store of its countries.
   *
   * Items: int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  location_ids?: number[];
}
export interface RewardRedemptionResponse {
  customer: CommonCustomerPoints;
  /**
   * Whole points.
   */
  score_used: number;
  /**
   * Whole points.
   */
  score: number;
  /**
   * Whole points.
   */
  score_available: number;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  redemption_id: number;
  code?: string | null;
}
export interface SuccessBody {
  status: 'success';
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id?: number;
  slug?: string;
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  voucher_id?: number;
  voucher_code?: string;
  /**
   * DELETE /customers/{value}: hard (removed) or soft (emptied; a customer with critical relations).
   */
  deleted?: 'hard' | 'soft';
}
export interface TriggerResponse {
  customer_code?: string | null;
  loyalty_score_id?: number | null;
  /**
   * Whole points.
   */
  score: number;
  /**
   * An amount in the currency's units (a decimal number, e.g. 26.91).
   */
  score_as_money?: number;
  customer: CommonCustomerPoints;
  scores: {
    /**
     * Whole points.
     */
    score: number;
    loyalty_score_id?: number | null;
    available_from?: string | null;
    available_to?: string | null;
  }[];
  effects: Effect[];
}
export interface VoucherActionResponse {
  status: 'success';
  voucher: VoucherResponse;
}
export interface VoucherActionsResponse {
  status: 'success';
  vouchers: VoucherResponse[];
}
export interface WebhookResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
  /**
   * whsec_ and 64 hex digits: the HMAC-SHA256 key of the Tally-Signature header.
   */
  secret: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  updated_at: string;
}
export interface WebhookDeliveryResponse {
  /**
   * int64 id, 1..9223372036854775807: always a JSON number, exact above 2^53 (part 1 allows a numeric string; Tally answers numbers, docs/decisions.md). A client above 2^53 parses it as a big integer.
   */
  id: number;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  /**
   * UTC, YYYY-MM-DDThh:mm:ssZ (whole seconds, common rule 3).
   */
  created_at: string;
}
