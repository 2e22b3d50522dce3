/**
 * A stored campaign → the contract's Campaign read object: rule objects as
 * JSON strings, names and descriptions in the request's language, the coupon
 * and (for a customer or a voucher lookup) the voucher in coupon_info.
 */
import { DEFAULT_MAX_REDEMPTIONS, RULE_PARAMS_DEFAULTS } from '@tally/engine';
import { stringifyJson } from '../http/json.js';
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CounterStore } from '../counters/store.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { CouponData } from '../coupons/store.js';
import type { VoucherRecord } from '../vouchers/types.js';
import type { CampaignsParamsCouponParams } from '../wire/types.js';
import { campaignDatesRefusal, displayStatus, inactiveReason } from '../vouchers/status.js';
import { voucherInfo } from '../vouchers/view.js';
import { budgetSpend } from './budget.js';
import { compileError } from './compile-check.js';
import { ruleValues } from './rule-values.js';
import type { CampaignRecord, TextField } from './types.js';

export interface ViewOptions {
  tenant: Tenant;
  /** The budget counters (budget_spent, budget_available). */
  counters: CounterStore;
  language: string | undefined;
  settings: CompanySettings;
  /** The voucher the reader holds or looked up, reported in coupon_info.voucher_info. */
  voucher?: VoucherRecord;
  /** That voucher's coupon when the campaign's coupon is another (the voucher's was deleted): coupon_info is the voucher's own. */
  voucherCoupon?: CouponData;
  /** The request's instant (wire datetime): the voucher's status is read at it. */
  now: string;
  /** Single reads add the product, location and tier lists, the coupon's parameters and the compile error. */
  single: boolean;
}

/**
 * What an absent field means: a read shows the value carts apply (the
 * engine's defaults; points are transferable unless marked false,
 * points/transfer.ts; a duration is natural only when true). Other absent
 * fields read null (no restriction).
 */
const DEFAULTS: Partial<Record<string, unknown>> = { ...RULE_PARAMS_DEFAULTS, transferable: true, availability_duration_natural: false };

/** Fields copied as stored (absent ones answered as their default, else null). */
const COPIED = [
  'active', 'available_from', 'available_to', 'recurrence_type', 'recurrence_days', 'currency', 'coupon_required',
  'when', 'select_customers', 'customer_registration_countries', 'once', 'once_limit', 'budget_period',
  'stackability_properties', 'priority',
] as const;

const POINTS_FIELDS = [
  'transferable', 'activation_period_type', 'activation_fixed_option_selected', 'activation_date', 'activation_delay',
  'activation_delay_unit', 'expiration_period_type', 'fixed_option_selected', 'expiration_date',
  'availability_duration', 'availability_duration_unit', 'availability_duration_natural',
] as const;

export function campaignView(record: CampaignRecord, options: ViewOptions): Record<string, unknown> {
  const params = record.rule_params;
  const text = (field: TextField, stored: unknown) =>
    localize(record.texts[field] ?? (typeof stored === 'string' ? stored : ''), options.language, options.settings);
  const view: Record<string, unknown> = {
    id: wireInt(record.id),
    campaign_history_id: record.history_id === undefined ? null : wireInt(record.history_id),
    type: record.type,
    name: text('name', params.name),
    description: params.description === undefined && !record.texts.description ? null : text('description', params.description),
    category: params.loyalty_rule_category_id === undefined ? null : { id: wireInt(String(params.loyalty_rule_category_id)), name: null, priority: null },
  };
  for (const field of COPIED) view[field] = params[field] ?? DEFAULTS[field] ?? null;
  view.customer_registration_countries = params.customer_registration_countries ?? [];
  view.tiers = tierEntries(params.rule_conditions);
  view.achievement_definitions = [];
  for (const field of ['rule_conditions', 'rule_application', 'rule_effects'] as const) {
    view[field] = ruleObjectText(params[field]);
  }
  view.chances_to_accrue = params.chance_to_accrue_period ?? null;
  view.chances_to_accrue_period = params.chance_to_accrue_period ?? null;
  view.chances_to_accrue_limit = params.chance_to_accrue_limit ?? null;
  view.budget_value = params.budget_value ?? null;
  view.maximum_discount_transaction = params.maximum_budget_transaction ?? null;
  Object.assign(view, budgetSpend(record, options));
  view.partner = null;
  view.partner_id = params.partner_id === undefined ? null : wireInt(String(params.partner_id));
  view.custom_entity_definition_id =
    params.custom_entity_definition_id === undefined ? null : wireInt(String(params.custom_entity_definition_id));
  if (record.type === 'points') for (const field of POINTS_FIELDS) view[field] = params[field] ?? DEFAULTS[field] ?? null;
  view.coupon_info = couponInfo(record, options);
  if (options.single) Object.assign(view, ruleLists(params), { coupon_params: couponParams(record), compile_error: compileError(record, options.settings) });
  return view;
}

/**
 * Every field of coupon_params (typed from its schema, so a new field must be
 * read too) as an unset one reads: the value Tally applies (an active coupon,
 * one redemption a voucher, priority 0, not printable, issued unselected), else null.
 */
const COUPON_UNSET: Record<keyof CampaignsParamsCouponParams, unknown> = {
  static_code: null, key: null, name: null, description: null, active: true, max_redemptions: DEFAULT_MAX_REDEMPTIONS,
  available_days: null, available_delay_days: null, print_days: null, print_delay_days: null, printable: false,
  priority: 0, external_id: null, auto_select: false, available_from: null, available_to: null, print_from: null, print_to: null,
};

/**
 * The coupon's parameters as PATCH takes them (single reads: what a back office set, to edit and send back):
 * a name or description sent per language reads as that object. Null without a coupon.
 */
function couponParams(record: CampaignRecord): Record<string, unknown> | null {
  const coupon = record.coupon_params;
  if (!coupon || record.coupon_id === undefined) return null;
  const view: Record<string, unknown> = {};
  for (const [field, unset] of Object.entries(COUPON_UNSET)) view[field] = coupon[field] ?? unset;
  view.name = record.texts.coupon_name ?? view.name;
  view.description = record.texts.coupon_description ?? view.description;
  return view;
}

/** Rule objects are answered as JSON strings (contract part 2, Campaign rule parameters), an integer beyond 2^53 exactly. */
export function ruleObjectText(value: unknown): string | null {
  return value === undefined ? null : stringifyJson(value);
}

/** The `tiers` of a campaign read: the tier level names its conditions ask for (docs/decisions.md, tier_id). */
export function tierEntries(conditions: unknown) {
  return (ruleValues(conditions, 'customer.tier') ?? []).map((id) => ({ id, name: null, threshold: null }));
}

/** The products and locations a campaign's rules name (single reads). */
export function ruleLists(params: { rule_conditions?: unknown; rule_application?: unknown }) {
  return {
    product_ids_rule_conditions: (ruleValues(params.rule_conditions, 'product_id') ?? []).map((id) => wireInt(id)),
    product_ids_rule_application: (ruleValues(params.rule_application, 'product_id') ?? []).map((id) => wireInt(id)),
    locations_ids: (ruleValues(params.rule_conditions, 'location_id') ?? []).map((id) => wireInt(id)),
    location_codes: ruleValues(params.rule_conditions, 'location_code') ?? [],
  };
}

function couponInfo(record: CampaignRecord, options: ViewOptions): Record<string, unknown> | null {
  const own = options.voucherCoupon;
  const coupon = own?.params ?? record.coupon_params;
  const couponId = own?.id ?? record.coupon_id;
  if (!coupon || couponId === undefined) return null;
  const name = own ? own.texts.name : record.texts.coupon_name;
  return {
    coupon_id: wireInt(couponId),
    static_code: coupon.static_code ?? null,
    // A coupon without a name reads null, as its vouchers show it: "" would be refused if sent back (docs/campaigns.md).
    coupon_name: name || typeof coupon.name === 'string' ? localize(name ?? coupon.name!, options.language, options.settings) : null,
    external_id: coupon.external_id ?? null,
    key: coupon.key ?? null,
    ...(options.voucher ? { voucher_info: voucherInfo(options.voucher, coupon, options.settings.timezone, voucherStatus(options.voucher, record, options)) } : {}),
  };
}

/** The voucher's status as its own read shows it: a voucher of a replaced (deleted) coupon is deleted. */
function voucherStatus(voucher: VoucherRecord, record: CampaignRecord, { now, settings }: ViewOptions) {
  return displayStatus(voucher, now, {
    inactive: inactiveReason(record, record.coupon_params),
    campaignDates: campaignDatesRefusal(record, now, settings.timezone),
    deleted: voucher.coupon_id !== record.coupon_id,
  });
}
