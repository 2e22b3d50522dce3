/**
 * A new voucher for a customer: of a campaign's coupon (POST /discounts/trigger,
 * a reward's process_actions, a game's discount prize), or the delivery of a
 * targeted instant win. A coupon's voucher takes its dates from the coupon:
 * fixed available_from/available_to (a bare date is the Company's day in
 * `timezone`, from its first instant through its last second), or relative to
 * the issue (available_delay_days, then available_days: days of the Company's
 * calendar, ending at the local time they start); `validUntil` (a
 * reward's validity) replaces the end; a date past 9999 is
 * 9999-12-31T23:59:59Z (the counts are bounded on write, coupons stored before
 * may hold any). Redemptions default to one per voucher; an
 * `auto_select` coupon issues them selected.
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_MAX_REDEMPTIONS, type CouponParams } from '@tally/engine';
import type { CampaignRecord } from '../campaigns/types.js';
import type { InstantWinRecord } from '../instant-wins/types.js';
import type { VoucherRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';
import { boundInstant, daysLater } from '../calendar/company-days.js';

/** No 0/O or 1/I: codes are read aloud and typed at tills. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** An unpredictable voucher code (crypto randomness: a code is a bearer credential). */
export function generateVoucherCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** What a voucher is issued for. */
export interface VoucherTarget {
  campaignId: string;
  /** null for a targeted instant win: its delivery is a voucher of the campaign, without a coupon. */
  couponId: string | null;
  coupon: CouponParams;
  /** The campaign's version at issue (a targeted instant win's effect echoes it as campaign_history_id). */
  historyId: string | undefined;
}

/** A discount or points campaign's coupon; undefined when the campaign has none (it issues no vouchers). */
export function couponTarget(campaign: CampaignRecord): VoucherTarget | undefined {
  if (campaign.coupon_id === undefined) return undefined;
  return { campaignId: campaign.id, couponId: campaign.coupon_id, coupon: campaign.coupon_params ?? {}, historyId: campaign.history_id };
}

/** One participation in a targeted instant win (its once/once_limit and dates still apply). */
export function instantWinTarget(record: InstantWinRecord): VoucherTarget {
  return { campaignId: record.id, couponId: null, coupon: { max_redemptions: 1 }, historyId: record.history_id };
}

export interface IssueInput {
  id: string;
  code: string;
  target: VoucherTarget;
  customerId: string;
  now: Date;
  priority: number;
  /** The Company's: a coupon's bare dates and counts of days are its days. */
  timezone: string;
  /** Replaces the coupon's end date (ISO instant). */
  validUntil?: string;
}

const delayDays = (coupon: CouponParams) => (typeof coupon.available_delay_days === 'number' ? coupon.available_delay_days : 0);

/** The start of a coupon's voucher issued at `now`: the coupon's available_from, else the issue delayed by available_delay_days. */
function voucherStart(coupon: CouponParams, now: Date, timezone: string): Date {
  return typeof coupon.available_from === 'string' ? boundInstant(coupon.available_from, false, timezone) : daysLater(now, delayDays(coupon), timezone);
}

/** The end of a coupon's voucher issued at `now` (before a reward's validity replaces it); null when it has none. */
export function voucherEnd(coupon: CouponParams, now: Date, timezone: string): string | null {
  if (typeof coupon.available_to === 'string') return wireDatetime(boundInstant(coupon.available_to, true, timezone));
  if (typeof coupon.available_days === 'number') return wireDatetime(daysLater(voucherStart(coupon, now, timezone), coupon.available_days, timezone));
  return null;
}

export function newVoucher({ id, code, target, customerId, now, priority, timezone, validUntil }: IssueInput): VoucherRecord {
  const coupon = target.coupon;
  const from = voucherStart(coupon, now, timezone);
  return {
    id,
    code,
    campaign_id: target.campaignId,
    coupon_id: target.couponId,
    ...(target.historyId === undefined ? {} : { campaign_history_id: target.historyId }),
    customer_id: customerId,
    status: 'active',
    // An auto_select coupon's vouchers start selected (coupons_desired 'selected' uses them at once).
    selected: coupon.auto_select === true,
    priority,
    max_redemptions: coupon.max_redemptions ?? DEFAULT_MAX_REDEMPTIONS,
    redemptions: 0,
    available_from: delayDays(coupon) === 0 && typeof coupon.available_from !== 'string' ? null : wireDatetime(from),
    available_to: validUntil ?? voucherEnd(coupon, now, timezone),
    created_at: wireDatetime(now),
  };
}
