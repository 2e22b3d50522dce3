/** GET /discounts and GET /points: the query string → ListFilters (the customer is resolved by the route). */
import { requiredWith } from '../http/errors.js';
import { optionalBoolean, optionalCode, optionalCountries, optionalEnum, optionalInt64 } from '../http/params.js';
import type { LocationRef } from '../vouchers/location.js';
import { AUDIENCES, POINTS_AUDIENCES, type ListFilters } from './list.js';
import type { CampaignKind } from './types.js';

export interface ListQuery {
  filters: Omit<ListFilters, 'customer' | 'location'>;
  /** As sent; the route completes it from company data. */
  location: LocationRef;
  customerId?: string;
  customerCode?: string;
  selected?: boolean;
}

export function readListQuery(query: URLSearchParams, kind: CampaignKind): ListQuery {
  const selected = optionalBoolean(query.get('selected'), 'selected');
  const customerId = optionalInt64(query.get('customer_id'), 'customer_id');
  const customerCode = optionalCode(query.get('customer_code'), 'customer_code');
  // selected filters the customer's vouchers.
  if (selected !== undefined && customerId === undefined && customerCode === undefined) throw requiredWith(['customer_id', 'customer_code'], 'selected');
  return {
    filters: {
      kind,
      audience: optionalEnum(query.get('campaign_audience'), 'campaign_audience', kind === 'points' ? POINTS_AUDIENCES : AUDIENCES),
      countries: optionalCountries(query),
      tierId: query.get('tier_id') || undefined,
      categoryId: optionalInt64(query.get('category_id'), 'category_id'),
    },
    location: { id: optionalInt64(query.get('location_id'), 'location_id'), code: optionalCode(query.get('location_code'), 'location_code') },
    customerId,
    customerCode,
    selected,
  };
}
