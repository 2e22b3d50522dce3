/**
 * Whether a voucher can be used now, as the contract's voucher_* error codes.
 * Checked in this order: deleted (the voucher or its coupon), redeemed,
 * inactive (the voucher or its coupon), frozen, not yet available, expired.
 */
import { TallyError } from '@tally/engine';
import type { VoucherRecord } from './types.js';

/** The voucher's coupon as it is now. */
export interface CouponState {
  active: boolean;
  /**
   * Deleted, whatever the voucher's stored status says: a voucher stored
   * active after its coupon's deletion (issued by a trigger racing it, before
   * issuing checked the coupon in its transaction) is still voucher_deleted.
   */
  deleted: boolean;
}

const LIVE: CouponState = { active: true, deleted: false };

export function voucherRefusal(voucher: VoucherRecord, now: string, coupon: CouponState = LIVE): TallyError | null {
  const at = Date.parse(now);
  const code = voucher.code;
  if (voucher.status === 'deleted' || coupon.deleted) return new TallyError('voucher_deleted', `voucher ${code}: its coupon has been deleted`);
  if (voucher.status === 'redeemed') return new TallyError('voucher_redeemed', `voucher ${code}: already redeemed`);
  if (voucher.status === 'inactive' || !coupon.active) return new TallyError('voucher_inactive', `voucher ${code}: the coupon is not active`);
  if (voucher.status === 'frozen') return new TallyError('voucher_inactive', `voucher ${code}: frozen until unfrozen`);
  if (voucher.available_from !== null && Date.parse(voucher.available_from) > at) {
    return new TallyError('voucher_out_date', `voucher ${code}: available from ${voucher.available_from}`);
  }
  if (voucher.status === 'expired' || (voucher.available_to !== null && Date.parse(voucher.available_to) <= at)) {
    return new TallyError('voucher_expired', `voucher ${code}: expired at ${voucher.available_to}`);
  }
  return null;
}

export function isUsable(voucher: VoucherRecord, now: string): boolean {
  return voucherRefusal(voucher, now) === null;
}

/**
 * The status a reader sees: the stored one, with `pending` before and `expired` after the voucher's dates, and
 * `deleted` when its coupon is (a voucher stored active after the deletion: see CouponState).
 */
export type VoucherDisplayStatus = VoucherRecord['status'] | 'pending';

export function displayStatus(voucher: VoucherRecord, now: string, couponDeleted = false): VoucherDisplayStatus {
  if (voucher.status !== 'active') return voucher.status;
  if (couponDeleted) return 'deleted';
  const at = Date.parse(now);
  if (voucher.available_to !== null && Date.parse(voucher.available_to) <= at) return 'expired';
  if (voucher.available_from !== null && Date.parse(voucher.available_from) > at) return 'pending';
  return 'active';
}
