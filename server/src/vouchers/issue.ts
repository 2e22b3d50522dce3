/**
 * A new voucher of a campaign's coupon for a customer (POST /discounts/trigger).
 * Its dates come from the coupon: fixed available_from/available_to, or
 * relative to the issue (available_delay_days, then available_days).
 * Redemptions default to one per voucher; an `auto_select` coupon issues
 * them selected.
 */
import { randomInt } from 'node:crypto';
import type { CampaignRecord } from '../campaigns/types.js';
import type { VoucherRecord } from './types.js';

const DAY_MS = 86_400_000;
/** No 0/O or 1/I: codes are read aloud and typed at tills. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** An unpredictable voucher code (crypto randomness: a code is a bearer credential). */
export function generateVoucherCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export interface IssueInput {
  id: string;
  code: string;
  campaign: CampaignRecord;
  customerId: string;
  now: Date;
  priority: number;
}

export function newVoucher({ id, code, campaign, customerId, now, priority }: IssueInput): VoucherRecord {
  const coupon = campaign.coupon_params ?? {};
  const delayDays = typeof coupon.available_delay_days === 'number' ? coupon.available_delay_days : 0;
  const from = typeof coupon.available_from === 'string' ? instant(coupon.available_from) : new Date(now.getTime() + delayDays * DAY_MS);
  let to: string | null = typeof coupon.available_to === 'string' ? instant(coupon.available_to, true).toISOString() : null;
  if (to === null && typeof coupon.available_days === 'number') to = new Date(from.getTime() + coupon.available_days * DAY_MS).toISOString();
  return {
    id,
    code,
    campaign_id: campaign.id,
    coupon_id: campaign.coupon_id!,
    customer_id: customerId,
    status: 'active',
    // An auto_select coupon's vouchers start selected (coupons_desired 'selected' uses them at once).
    selected: coupon.auto_select === true,
    priority,
    max_redemptions: coupon.max_redemptions ?? 1,
    redemptions: 0,
    available_from: delayDays === 0 && typeof coupon.available_from !== 'string' ? null : from.toISOString(),
    available_to: to,
    created_at: now.toISOString(),
  };
}

/** A date-only bound covers its whole day (UTC). */
function instant(value: string, endOfDay = false): Date {
  if (value.length === 10) return new Date(`${value}T${endOfDay ? '23:59:59' : '00:00:00'}Z`);
  return new Date(value);
}
