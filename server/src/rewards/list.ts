/**
 * The filters of GET /rewards. The scope is one of: a customer (its country;
 * can_redeem and missing_redeem_conditions are then answered), a location (its
 * country and the rewards offered there), countries, or none (every reward).
 * `store` narrows store-bound rewards to the customer's registration or usual
 * store; `restricted_by` drops rewards the customer cannot redeem for those
 * reasons.
 */
import type { CustomerRecord } from '../customers/types.js';
import { listParam, optionalCountries, optionalEnum } from '../http/params.js';
import type { LocationRecord } from '../locations/types.js';
import type { Missing, MissingReason } from './eligibility.js';
import { REWARD_TYPES, type RewardRecord } from './types.js';

const RESTRICTIONS = ['tiers', 'points', 'stock', 'redeem_times', 'countries', 'dates', 'status', 'customer_status'] as const satisfies readonly MissingReason[];
const STORES = ['registration', 'usual'] as const;

export interface RewardFilters {
  status?: 'active' | 'inactive';
  type?: RewardRecord['type'];
  redemption_type: RewardRecord['redemption_type'];
  store?: (typeof STORES)[number];
  restricted_by: MissingReason[];
  countries?: string[];
}

export function readFilters(query: URLSearchParams): RewardFilters {
  const restricted = listParam(query, 'restricted_by') ?? [];
  for (const reason of restricted) optionalEnum(reason, 'restricted_by', RESTRICTIONS);
  const countries = optionalCountries(query);
  // The contract's default is `all`: sent, it filters nothing.
  const status = optionalEnum(query.get('status') || undefined, 'status', ['all', 'active', 'inactive'] as const);
  return {
    status: status === 'all' ? undefined : status,
    type: optionalEnum(query.get('type') || undefined, 'type', REWARD_TYPES),
    redemption_type: optionalEnum(query.get('redemption_type') || undefined, 'redemption_type', ['manual', 'loyalty_rule'] as const) ?? 'manual',
    store: optionalEnum(query.get('store') || undefined, 'store', STORES),
    restricted_by: restricted as MissingReason[],
    countries,
  };
}

export interface Scope {
  customer?: CustomerRecord;
  customerCountry?: string;
  location?: LocationRecord;
}

export function passes(reward: RewardRecord, filters: RewardFilters, scope: Scope, missing?: Missing[]): boolean {
  if (filters.status !== undefined && reward.status !== filters.status) return false;
  if (filters.type !== undefined && reward.type !== filters.type) return false;
  if (reward.redemption_type !== filters.redemption_type) return false;
  const countries = filters.countries ?? (scope.location ? [scope.location.country] : scope.customerCountry ? [scope.customerCountry] : undefined);
  if (countries && reward.countries.length > 0 && !reward.countries.some((c) => countries.includes(c))) return false;
  if (scope.location && reward.location_ids.length > 0 && !reward.location_ids.includes(scope.location.id)) return false;
  if (filters.store && scope.customer && reward.location_ids.length > 0) {
    const field = filters.store === 'registration' ? 'registration_location_id' : 'usual_location_id';
    const store = scope.customer.profile[field];
    if (typeof store !== 'string' || !reward.location_ids.includes(store)) return false;
  }
  return !missing?.some((m) => filters.restricted_by.includes(m.reason));
}
