/** A voucher after one more (or one fewer) redemption: the only place that moves `redeemed`. */
import type { VoucherRecord } from './types.js';

export function afterUse(voucher: VoucherRecord): VoucherRecord {
  const redemptions = voucher.redemptions + 1;
  const exhausted = voucher.max_redemptions !== null && redemptions >= voucher.max_redemptions;
  return { ...voucher, redemptions, status: exhausted ? 'redeemed' : voucher.status };
}

/** A rollback (cart cancellation, voucher rollback) gives one redemption back. */
export function afterReturn(voucher: VoucherRecord): VoucherRecord {
  const redemptions = Math.max(0, voucher.redemptions - 1);
  return { ...voucher, redemptions, status: voucher.status === 'redeemed' ? 'active' : voucher.status };
}
