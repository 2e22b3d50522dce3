/**
 * A voucher named by its code in a voucher operation, with its coupon and
 * campaign, and whether it can be used now (the contract's voucher_* codes).
 */
import { TallyError } from '@tally/engine';
import type { CouponData, CouponStore } from '../coupons/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { Tenant } from '../tenancy/types.js';
import { locationRefusal, type RequestLocation } from './location.js';
import { campaignDatesRefusal, inactiveReason, voucherRefusal, type CouponState } from './status.js';
import type { VoucherStore } from './store.js';
import type { VoucherRecord } from './types.js';

export interface FindStores {
  vouchers: VoucherStore;
  coupons: CouponStore;
}

export interface FoundVoucher {
  voucher: VoucherRecord;
  /** Absent for the delivery of a targeted instant win (no coupon), or a voucher whose coupon left no trace. */
  coupon: CouponData | undefined;
}

/** voucher_not_found when no voucher has the code, or when `holder` is given and does not hold it. */
export function findVoucher(stores: FindStores, tenant: Tenant, code: string, holder: CustomerRecord | undefined, field: string): FoundVoucher {
  const voucher = stores.vouchers.byCode(tenant, code);
  if (!voucher || (holder !== undefined && voucher.customer_id !== holder.id)) {
    throw new TallyError('voucher_not_found', `${field}: no voucher ${code}${holder ? ` for customer ${holder.id}` : ''}`, field);
  }
  return withCoupon(stores, tenant, voucher);
}

export function withCoupon(stores: FindStores, tenant: Tenant, voucher: VoucherRecord): FoundVoucher {
  return { voucher, coupon: voucher.coupon_id === null ? undefined : stores.coupons.find(tenant, voucher.coupon_id, voucher.campaign_id) };
}

/** When and where a voucher is looked at: `timezone` is the Company's (a campaign's bare dates are its days). */
export interface UsageContext {
  now: string;
  timezone: string;
  location?: RequestLocation;
}

/** Why the voucher cannot be used now (at `location`, when given); null when it can. */
export function usageRefusal(found: FoundVoucher, { now, timezone, location }: UsageContext): TallyError | null {
  const campaign = found.coupon?.campaign;
  const refusal = voucherRefusal(found.voucher, now, timezone, couponState(found, now, timezone));
  if (refusal || location === undefined || campaign === undefined) return refusal;
  return locationRefusal(campaign, location, found.voucher.code);
}

/** The voucher's coupon and campaign at `now`, as its refusals and its read status take them. */
export function couponState({ voucher, coupon }: FoundVoucher, now: string, timezone: string): CouponState {
  // A voucher without a coupon (an instant win's delivery) is usable by its own state and dates.
  if (voucher.coupon_id === null) return { inactive: null, campaignDates: null, deleted: false };
  return {
    inactive: inactiveReason(coupon?.campaign, coupon?.params),
    campaignDates: campaignDatesRefusal(coupon?.campaign, now, timezone),
    deleted: coupon?.deleted === true,
  };
}

/** The same error, naming the request field it is about (`codes[2]`). */
export function atField(error: TallyError, field: string): TallyError {
  return new TallyError(error.code, `${field}: ${error.message}`, field);
}
