/**
 * The filters of GET /games and GET /instant_wins: audience, countries,
 * location and tier (read from the rule conditions: a rule that names no
 * location or tier accepts them all; the location as the campaign lists read
 * it), and, with a customer, their country and their deliveries of targeted
 * campaigns.
 */
import { ruleAccepts, ruleAdmitsLocation } from '../campaigns/rule-values.js';
import { optionalCode, optionalCountries, optionalEnum, optionalInt64 } from '../http/params.js';
import type { InstantWinRecord } from '../instant-wins/types.js';
import type { LocationStore } from '../locations/store.js';
import type { Tenant } from '../tenancy/types.js';
import { requestLocation, type RequestLocation } from '../vouchers/location.js';
import type { GameRecord } from './types.js';

/** The values of `search_by` on GET /games/{id} and GET /instant_wins/{id}. */
export const SEARCH_BY = ['loyalty_rule_id', 'loyalty_rule_history_id', 'campaign_history_id', 'static_code'] as const;

export interface CampaignFilters {
  audience?: 'loyalty' | 'targeted';
  countries: string[];
  /** location_id or location_code, completed from company data. */
  location?: RequestLocation;
  tierId?: string;
}

export function readCampaignFilters(locations: LocationStore, tenant: Tenant, query: URLSearchParams): CampaignFilters {
  const location = { id: optionalInt64(query.get('location_id'), 'location_id'), code: optionalCode(query.get('location_code'), 'location_code') };
  return {
    audience: optionalEnum(query.get('campaign_audience'), 'campaign_audience', ['loyalty', 'targeted'] as const),
    countries: optionalCountries(query) ?? [],
    location: requestLocation(locations, tenant, location),
    // Empty is absent, as for every query filter (http/params.ts) and GET /discounts' tier_id.
    tierId: query.get('tier_id') || undefined,
  };
}

/** Whether a game or instant win passes the filters; `customerCountry` when a customer is named. */
export function passesFilters(record: GameRecord | InstantWinRecord, filters: CampaignFilters, customerCountry?: string): boolean {
  const params = record.rule_params;
  if (filters.audience !== undefined && params.select_customers !== filters.audience) return false;
  const targeted = params.customer_registration_countries ?? [];
  if (targeted.length > 0) {
    if (filters.countries.length > 0 && !filters.countries.some((c) => targeted.includes(c))) return false;
    if (customerCountry !== undefined && !targeted.includes(customerCountry)) return false;
  }
  const conditions = params.rule_conditions;
  if (filters.location !== undefined && !ruleAdmitsLocation(record, filters.location)) return false;
  if (filters.tierId !== undefined && !ruleAccepts(conditions, 'customer.tier', filters.tierId)) return false;
  return true;
}
