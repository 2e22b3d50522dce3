/**
 * The campaigns (and a cart location's features) an app reads over HTTP → the engine's input, so that a cart
 * previewed offline (compileCampaigns + evaluateCart) is answered as
 * POST /carts/simulate answers it. Reads rename some rule_params fields,
 * write every absent field as null and the rule objects as JSON strings;
 * the server compiles the stored campaign, so the mapping undoes exactly that.
 */
import { invalidRequest, mustBe, mustBeIn } from '../errors.js';
import { idString } from '../ids.js';
import type { Campaign, CampaignCounters, CouponParams, Prize, RuleParams } from '../types.js';
import { compileOnce } from './campaign.js';

/** The event that runs a cart campaign (`when` absent, empty or this one). */
export const CART_EVENT = 'after_create_activity';

/**
 * Whether a campaign acts on carts: one bound to a trigger (`when` names its
 * slug) or to a custom event (`custom_entity_definition_id`) runs on that
 * event only, never on a cart.
 */
export function isCartCampaign(params: RuleParams): boolean {
  if (params.custom_entity_definition_id !== undefined && params.custom_entity_definition_id !== null) return false;
  return params.when === undefined || params.when === null || params.when === '' || params.when === CART_EVENT;
}

/** A campaign that needs a coupon to apply: targeted, or coupon_required. */
export function needsCoupon(params: RuleParams): boolean {
  return params.select_customers === 'targeted' || params.coupon_required === true;
}

/**
 * An inactive coupon is no coupon: its static code and vouchers stop
 * working, and a campaign that needs one stops applying (it is given to the
 * evaluator inactive). Other campaigns are returned as they are.
 */
export function withCouponState(campaign: Campaign): Campaign {
  if (campaign.coupon_params?.active !== false) return campaign;
  const { coupon_params: _inactive, ...rest } = campaign;
  return { ...rest, rule_params: needsCoupon(campaign.rule_params) ? { ...campaign.rule_params, active: false } : campaign.rule_params };
}

/** A campaign read (GET /discounts/{id}, GET /points/{id}, GET /instant_wins/{id}, or an item of their lists), as JSON.parse gives it. */
export type CampaignRead = Record<string, unknown>;

/** Read fields whose rule_params field has another name. */
const RENAMED: Readonly<Record<string, string>> = {
  maximum_discount_transaction: 'maximum_budget_transaction',
  chances_to_accrue_period: 'chance_to_accrue_period',
  chances_to_accrue_limit: 'chance_to_accrue_limit',
};

/** Read fields that are rule_params fields under the same name (points fields are absent from discount reads). */
const SAME: readonly string[] = [
  'name', 'description', 'active', 'available_from', 'available_to', 'recurrence_type', 'recurrence_days', 'currency',
  'coupon_required', 'when', 'select_customers', 'customer_registration_countries', 'once', 'once_limit', 'budget_period',
  'budget_value', 'stackability_properties', 'priority', 'rule_conditions', 'rule_application', 'rule_effects',
  'partner_id', 'custom_entity_definition_id', 'transferable', 'activation_period_type', 'activation_fixed_option_selected',
  'activation_date', 'activation_delay', 'activation_delay_unit', 'expiration_period_type', 'fixed_option_selected',
  'expiration_date', 'availability_duration', 'availability_duration_unit', 'availability_duration_natural',
];

/** What GET /company answers that a read needs: the default language, whose texts carts answer. */
export interface ReadCompany {
  default_language?: string;
}

const TYPES: Readonly<Record<string, Campaign['type']>> = { discount: 'discount', points: 'points' };

/**
 * One discount or points campaign read → the engine's Campaign. A read
 * names campaigns and coupons in the Accept-Language language: read without
 * the header for the names the server's carts answer. The coupon's dates,
 * description, redemptions and state are in single reads only (`coupon_params`);
 * from a list item the coupon is what `coupon_info` holds.
 */
export function campaignFromRead(read: CampaignRead, company: ReadCompany = {}): Campaign {
  if (read === null || typeof read !== 'object') throw invalidRequest('campaign', mustBe('object'));
  const type = TYPES[String(read.type)];
  if (type === undefined) throw invalidRequest('type', 'must be discount or points');
  const params = ruleParamsOf(read);
  const category = read.category as { id?: unknown } | null | undefined;
  if (category && present(category.id)) params.loyalty_rule_category_id = category.id;
  const campaign: Campaign = { id: read.id as Campaign['id'], type, rule_params: params };
  const coupon = couponOf(read, company);
  return withCouponState(coupon === undefined ? campaign : { ...campaign, coupon_params: coupon });
}

/**
 * One instant-win single read (GET /instant_wins/{id}, without Accept-Language) → the engine's Campaign. Only the
 * single read answers its rules, order and event: a list item is refused (`rule_conditions`), since without them it
 * would take part in every cart. Its prizes are compiled as the server compiles them; a preview (`mode: 'simulate'`)
 * draws none, so what it shows is whether the cart takes part, never whether it wins.
 */
export function instantWinFromRead(read: CampaignRead): Campaign {
  if (read === null || typeof read !== 'object') throw invalidRequest('campaign', mustBe('object'));
  const win = read.instant_win as { instant_win_prizes?: unknown } | null | undefined;
  if (win === null || typeof win !== 'object' || !Array.isArray(win.instant_win_prizes)) throw invalidRequest('instant_win.instant_win_prizes', mustBe('array'));
  if (!('rule_conditions' in read)) throw invalidRequest('rule_conditions', 'is required (a list item lacks the rules: read GET /instant_wins/{id})');
  const info = read.coupon_info as { static_code?: unknown } | null | undefined;
  const prizes = win.instant_win_prizes.map((prize: Record<string, unknown>, i): Prize => {
    if (prize === null || typeof prize !== 'object') throw invalidRequest(`instant_win.instant_win_prizes[${i}]`, mustBe('object'));
    const outcome = prize.outcome as { promotion_type?: string; promotion_id?: Prize['id'] } | null | undefined;
    return {
      id: prize.id as Prize['id'],
      name: prize.name as string,
      ...(present(prize.description) ? { description: prize.description as string } : {}),
      // The read's "no prize" (promotion_type '') is the engine's too.
      outcome: outcome?.promotion_type ? { promotion_type: outcome.promotion_type, promotion_id: outcome.promotion_id! } : { promotion_type: '' },
      weight: prize.weight as Prize['weight'],
      stock: prize.stock as number,
      ...(present(prize.stock_management_strategy) ? { stock_management_strategy: prize.stock_management_strategy as string } : {}),
    };
  });
  return {
    id: read.id as Campaign['id'],
    type: 'instant_win',
    rule_params: ruleParamsOf(read),
    ...(info && present(info.static_code) ? { coupon_params: { static_code: info.static_code as string } } : {}),
    prizes,
  };
}

/**
 * The reads of GET /discounts/{id}, GET /points/{id} and GET /instant_wins/{id} (a read with `instant_win` is an
 * instant win's) → the campaigns carts run (those bound to a trigger or a custom event left out).
 */
export function cartCampaignsFromReads(reads: readonly CampaignRead[], company: ReadCompany = {}): Campaign[] {
  return reads
    .map((read) => (read !== null && typeof read === 'object' && 'instant_win' in read ? instantWinFromRead(read) : campaignFromRead(read, company)))
    .filter((campaign) => isCartCampaign(campaign.rule_params));
}

/**
 * Instant-win reads made for a customer (GET /instant_wins?customer_id=, or GET /instant_wins/{id}?customer_id=)
 * → `context.counters` of that customer's carts: each read's `remaining_participations` as the uses the server
 * counts in the current `once` period (the limit less what remains; a customer who used them all is at the limit).
 * Reads without it (no customer asked, or not an instant win) and unlimited instant wins (-1) give no counter. Read
 * them at the preview's instant: the count is the period's the read was made in.
 */
export function countersFromReads(reads: readonly CampaignRead[]): Record<string, CampaignCounters> {
  const counters: Record<string, CampaignCounters> = {};
  reads.forEach((read, i) => {
    if (read === null || typeof read !== 'object') throw invalidRequest(`reads[${i}]`, mustBe('object'));
    const remaining = read.remaining_participations;
    if (remaining === undefined || remaining === -1) return;
    if (typeof remaining !== 'number' || !Number.isInteger(remaining) || remaining < 0) throw invalidRequest(`reads[${i}].remaining_participations`, mustBeIn('integer', { minimum: -1 }));
    // The limit as the engine applies it (a `once` period without once_limit is once per period).
    const once = compileOnce(ruleParamsOf(read));
    if (once !== null) counters[idString(read.id, `reads[${i}].id`)] = { uses: Math.max(0, once.limit - remaining) };
  });
  return counters;
}

/** The read's rule_params fields, under their rule_params names. */
function ruleParamsOf(read: CampaignRead): RuleParams {
  const params: RuleParams = {};
  for (const field of SAME) if (present(read[field])) params[field] = read[field];
  for (const [field, name] of Object.entries(RENAMED)) if (present(read[field])) params[name] = read[field];
  return params;
}

function couponOf(read: CampaignRead, company: ReadCompany): CouponParams | undefined {
  const info = read.coupon_info as Record<string, unknown> | null | undefined;
  if (!info) return undefined;
  const coupon: CouponParams = { id: info.coupon_id };
  const single = read.coupon_params as Record<string, unknown> | null | undefined;
  if (single) {
    for (const [field, value] of Object.entries(single)) if (present(value)) coupon[field] = isTexts(value) ? inDefault(value, company) : value;
  } else {
    for (const [field, name] of [['static_code', 'static_code'], ['coupon_name', 'name'], ['key', 'key'], ['external_id', 'external_id']]) {
      if (present(info[field])) coupon[name] = info[field];
    }
  }
  return coupon;
}

/** Reads write an absent field as null (an absent `customer_registration_countries` as []): none of them restricts. */
function present(value: unknown): boolean {
  return value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** A name or description per language (single reads' coupon_params). */
function isTexts(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text carts answer: the Company default language's (a text per language always holds it). */
function inDefault(texts: Record<string, string>, company: ReadCompany): string | undefined {
  return (company.default_language === undefined ? undefined : texts[company.default_language]) ?? Object.values(texts)[0];
}

/**
 * A location read (GET /locations/{value}) → `context.location_features` of a cart at that location: its features
 * as rules name them, `<taxonomy_slug>:<feature_id>`.
 */
export function locationFeaturesFromRead(read: Record<string, unknown>): string[] {
  if (read === null || typeof read !== 'object') throw invalidRequest('location', mustBe('object'));
  const features = read.features ?? [];
  if (!Array.isArray(features)) throw invalidRequest('features', mustBe('array'));
  return features.map((feature: { taxonomy_slug?: unknown; id?: unknown } | null, i) => {
    if (feature === null || typeof feature !== 'object' || typeof feature.taxonomy_slug !== 'string') throw invalidRequest(`features[${i}].taxonomy_slug`, mustBe('string'));
    if (typeof feature.id !== 'number' && typeof feature.id !== 'bigint' && typeof feature.id !== 'string') throw invalidRequest(`features[${i}].id`, mustBe('integer'));
    return `${feature.taxonomy_slug}:${String(feature.id)}`;
  });
}
