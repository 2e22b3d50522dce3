/**
 * The filters of GET /games and GET /instant_wins: audience, countries,
 * location and tier (read from the rule conditions: a rule that names no
 * location or tier accepts them all), and, with a customer, their country
 * and their deliveries of targeted campaigns.
 */
import type { RuleParams } from '@tally/engine';
import { ruleAccepts } from '../campaigns/rule-values.js';
import { optionalEnum, optionalInt64 } from '../http/params.js';

export interface CampaignFilters {
  audience?: 'loyalty' | 'targeted';
  countries: string[];
  locationId?: string;
  locationCode?: string;
  tierId?: string;
}

export function readCampaignFilters(query: URLSearchParams): CampaignFilters {
  return {
    audience: optionalEnum(query.get('campaign_audience'), 'campaign_audience', ['loyalty', 'targeted'] as const),
    countries: query.getAll('countries').flatMap((c) => c.split(',')).filter(Boolean),
    locationId: optionalInt64(query.get('location_id'), 'location_id'),
    locationCode: query.get('location_code') ?? undefined,
    tierId: query.get('tier_id') ?? undefined,
  };
}

/** Whether a campaign passes the filters; `customerCountry` when a customer is named. */
export function passesFilters(params: RuleParams, filters: CampaignFilters, customerCountry?: string): boolean {
  if (filters.audience !== undefined && params.select_customers !== filters.audience) return false;
  const targeted = params.customer_registration_countries ?? [];
  if (targeted.length > 0) {
    if (filters.countries.length > 0 && !filters.countries.some((c) => targeted.includes(c))) return false;
    if (customerCountry !== undefined && !targeted.includes(customerCountry)) return false;
  }
  const conditions = params.rule_conditions;
  if (filters.locationId !== undefined && !ruleAccepts(conditions, 'location_id', filters.locationId)) return false;
  if (filters.locationCode !== undefined && !ruleAccepts(conditions, 'location_code', filters.locationCode)) return false;
  if (filters.tierId !== undefined && !ruleAccepts(conditions, 'customer.tier', filters.tierId)) return false;
  return true;
}
