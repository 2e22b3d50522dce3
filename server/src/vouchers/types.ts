/**
 * A voucher: one customer's (or nobody's, for a static code) right to use a
 * campaign's coupon. Statuses: `active` (usable), `redeemed` (no redemptions
 * left), `expired`, `inactive`, `frozen` (held back until unfrozen),
 * `deleted` (its coupon was deleted). docs/coupons-vouchers.md has the moves.
 */
export type VoucherStatus = 'active' | 'redeemed' | 'expired' | 'inactive' | 'frozen' | 'deleted';

export interface VoucherRecord {
  /** int64 decimal string. */
  id: string;
  code: string;
  campaign_id: string;
  /** null for the delivery of a targeted instant win (a voucher of the campaign, no coupon). */
  coupon_id: string | null;
  /** The campaign's version when the voucher was issued (absent on vouchers issued before it was kept). */
  campaign_history_id?: string;
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
  /** When it was last printed (POST/PUT /vouchers/print); absent = never. */
  printed_at?: string;
  /** How many times it was printed. */
  prints?: number;
}
