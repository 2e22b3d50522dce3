/**
 * A voucher: one customer's (or nobody's, for a static code) right to use a
 * campaign's coupon. Statuses: `active` (usable), `redeemed` (no redemptions
 * left), `expired`, `inactive`, `deleted`; issue 5's coupon and voucher
 * operations (select, freeze, print, rollback) move them.
 */
export type VoucherStatus = 'active' | 'redeemed' | 'expired' | 'inactive' | 'deleted';

export interface VoucherRecord {
  /** int64 decimal string. */
  id: string;
  code: string;
  campaign_id: string;
  coupon_id: string;
  /** The holder (int64 decimal string); null for a voucher not issued to anyone. */
  customer_id: string | null;
  status: VoucherStatus;
  selected: boolean;
  /** Higher first; `priority_allocation` issues with the maximum. */
  priority: number;
  /** null = unlimited. */
  max_redemptions: number | null;
  redemptions: number;
  available_from: string | null;
  available_to: string | null;
  created_at: string;
}
