/**
 * GET /vouchers: one customer's vouchers (customer_id or customer_code,
 * exactly one), in issue order, filtered by status (comma list of the
 * statuses a reader sees), selected, loyalty_rule_id, coupon_id and
 * campaign_type.
 */
import { invalidRequest } from '../http/errors.js';
import { optionalBoolean, optionalEnum, optionalInt64 } from '../http/params.js';
import { couponState, type FoundVoucher } from './find.js';
import { displayStatus, type VoucherDisplayStatus } from './status.js';

const STATUSES: readonly VoucherDisplayStatus[] = ['active', 'pending', 'expired', 'redeemed', 'inactive', 'frozen', 'deleted'];

export interface ListFilters {
  statuses?: VoucherDisplayStatus[];
  selected?: boolean;
  campaignId?: string;
  couponId?: string;
  campaignType?: 'discount' | 'points';
}

export function readListFilters(query: URLSearchParams): ListFilters {
  const status = query.get('status');
  const statuses = status ? status.split(',').map((s) => s.trim()) : undefined;
  const unknown = statuses?.find((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined) throw invalidRequest('status', `${unknown} is not one of ${STATUSES.join(', ')}`);
  return {
    statuses: statuses as VoucherDisplayStatus[] | undefined,
    selected: optionalBoolean(query.get('selected'), 'selected'),
    campaignId: optionalInt64(query.get('loyalty_rule_id'), 'loyalty_rule_id'),
    couponId: optionalInt64(query.get('coupon_id'), 'coupon_id'),
    campaignType: optionalEnum(query.get('campaign_type'), 'campaign_type', ['discount', 'points'] as const),
  };
}

export function listMatches(found: FoundVoucher, filters: ListFilters, now: string, timezone: string): boolean {
  const { voucher, coupon } = found;
  if (filters.statuses && !filters.statuses.includes(displayStatus(voucher, now, couponState(found, now, timezone)))) return false;
  if (filters.selected !== undefined && voucher.selected !== filters.selected) return false;
  if (filters.campaignId !== undefined && voucher.campaign_id !== filters.campaignId) return false;
  if (filters.couponId !== undefined && voucher.coupon_id !== filters.couponId) return false;
  return filters.campaignType === undefined || coupon?.campaign?.type === filters.campaignType;
}
