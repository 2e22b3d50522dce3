/** A voucher as the contract shows it inside a campaign's coupon_info (voucher_info): dates as the voucher read writes them. */
import type { CouponParams } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import { printWindow } from './print-window.js';
import type { VoucherDisplayStatus } from './status.js';
import type { VoucherRecord } from './types.js';

/** `status` is what the voucher's own read shows now (displayStatus). */
export function voucherInfo(voucher: VoucherRecord, coupon: CouponParams, timezone: string, status: VoucherDisplayStatus): Record<string, unknown> {
  return {
    voucher_id: wireInt(voucher.id),
    voucher_code: voucher.code,
    available_redemptions: voucher.max_redemptions === null ? null : voucher.max_redemptions - voucher.redemptions,
    max_redemptions: voucher.max_redemptions,
    selected: voucher.selected,
    status,
    available_from: voucher.available_from,
    available_to: voucher.available_to,
    ...printWindow(voucher, coupon, timezone),
    priority: voucher.priority,
    printable: coupon.printable ?? false,
  };
}
