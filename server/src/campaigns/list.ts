/**
 * The query filters of GET /discounts and GET /points (docs/campaigns.md).
 * With a customer the list is what that customer can use now: the active
 * (a campaign that needs a coupon: with its coupon active), not ended
 * campaigns of their country plus the targeted campaigns whose voucher they
 * hold (reported in coupon_info.voucher_info).
 */
import { localDate } from '../calendar/company-days.js';
import { isUsable } from '../vouchers/status.js';
import type { VoucherRecord } from '../vouchers/types.js';
import type { RequestLocation } from '../vouchers/location.js';
import { ruleAccepts, ruleAdmitsLocation } from './rule-values.js';
import { toEngineCampaign } from './store.js';
import type { CampaignKind, CampaignRecord } from './types.js';

export const AUDIENCES = ['loyalty', 'targeted', 'all_customers'] as const;
/** Points go to members only, so GET /points knows no mass audience: an all_customers points campaign is a loyalty one. */
export const POINTS_AUDIENCES = ['loyalty', 'targeted'] as const;

export interface ListFilters {
  kind: CampaignKind;
  audience?: (typeof AUDIENCES)[number];
  /** location_id or location_code, completed from company data (`requestLocation`). */
  location?: RequestLocation;
  countries?: string[];
  tierId?: string;
  categoryId?: string;
  customer?: {
    country: string | undefined;
    /** The customer's usable vouchers by campaign id (the first by priority among those `selected` keeps). */
    vouchers: ReadonlyMap<string, VoucherRecord>;
    /** Only targeted campaigns whose voucher is (true) or is not (false) selected. */
    selected?: boolean;
    now: Date;
    /** The Company's: a date-only available_to ends with that local day. */
    timezone: string;
  };
}

/**
 * The customer part of the filters: their registration country (as carts see it, `registrationOf`: the
 * registration location's, else the customer's, else the Company's) and their usable vouchers (in use order) by campaign.
 * `selected` picks among a campaign's vouchers before the first is taken: a customer holding a selected and an
 * unselected voucher of one campaign finds it under both values, each with the voucher the filter asked for.
 */
export function customerScope(
  country: string,
  vouchers: readonly VoucherRecord[],
  selected: boolean | undefined,
  now: Date,
  timezone: string,
): NonNullable<ListFilters['customer']> {
  const held = new Map<string, VoucherRecord>();
  for (const voucher of vouchers) {
    if (held.has(voucher.campaign_id) || !isUsable(voucher, now.toISOString(), timezone)) continue;
    if (selected === undefined || voucher.selected === selected) held.set(voucher.campaign_id, voucher);
  }
  return { country, vouchers: held, selected, now, timezone };
}

/** null when the campaign is filtered out; else the voucher to show with it (if any). */
export function listMatch(record: CampaignRecord, filters: ListFilters): { voucher?: VoucherRecord } | null {
  const params = record.rule_params;
  const selected = params.select_customers ?? 'all_customers';
  const audience = record.type === 'points' && selected === 'all_customers' ? 'loyalty' : selected;
  const countries = params.customer_registration_countries ?? [];
  if (record.type !== filters.kind) return null;
  if (filters.audience !== undefined && audience !== filters.audience) return null;
  if (filters.location !== undefined && !ruleAdmitsLocation(record, filters.location)) return null;
  if (filters.countries && countries.length > 0 && !countries.some((c) => filters.countries!.includes(c))) return null;
  if (filters.tierId !== undefined && !ruleAccepts(params.rule_conditions, 'customer.tier', filters.tierId)) return null;
  if (filters.categoryId !== undefined && String(params.loyalty_rule_category_id) !== filters.categoryId) return null;
  const customer = filters.customer;
  if (!customer) return {};
  // Active as carts see it (toEngineCampaign): a campaign that needs its coupon is off while the coupon is.
  if (toEngineCampaign(record).rule_params.active === false || hasEnded(params.available_to, customer)) return null;
  if (audience !== 'targeted') {
    const ofCountry = countries.length === 0 || (customer.country !== undefined && countries.includes(customer.country));
    return ofCountry ? {} : null;
  }
  const voucher = customer.vouchers.get(record.id);
  if (!voucher) return null;
  if (customer.selected !== undefined && voucher.selected !== customer.selected) return null;
  return { voucher };
}

function hasEnded(availableTo: unknown, { now, timezone }: { now: Date; timezone: string }): boolean {
  if (typeof availableTo !== 'string') return false;
  // A date-only bound includes its whole day in the Company's timezone, as carts read it (docs/evaluation.md).
  if (availableTo.length === 10) return availableTo < localDate(now, timezone);
  return Date.parse(availableTo) < now.getTime();
}
