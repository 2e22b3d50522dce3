/**
 * Whether a voucher can be used now, as the contract's voucher_* error codes.
 * Checked in this order: deleted (the voucher or its coupon), redeemed,
 * inactive (the voucher, its coupon or its campaign), frozen, not yet
 * available, expired (the voucher's dates, then its campaign's), a day its
 * campaign does not run (weekly or monthly recurrence).
 */
import { couponDatesRefusal, localDateOf, recurrenceOffDay, TallyError, type CouponParams, type OffDay } from '@tally/engine';
import type { CampaignRecord } from '../campaigns/types.js';
import type { VoucherRecord } from './types.js';

/** The voucher's coupon as it is now. */
export interface CouponState {
  /** Why its campaign or coupon keeps the voucher from use now ('its campaign 12 is not active'), else null. */
  inactive: string | null;
  /** Outside its campaign's own dates now (not started, or ended), or on a day its recurrence leaves out, as carts refuse the campaign; else null. */
  campaignDates: TallyError | null;
  /**
   * Deleted, whatever the voucher's stored status says: a voucher stored
   * active after its coupon's deletion (issued by a trigger racing it, before
   * issuing checked the coupon in its transaction) is still voucher_deleted.
   */
  deleted: boolean;
}

const LIVE: CouponState = { inactive: null, campaignDates: null, deleted: false };

/** Why a voucher of this campaign and coupon cannot be used while one of them is inactive (or the campaign is gone), else null. */
export function inactiveReason(campaign: CampaignRecord | undefined, coupon: CouponParams | undefined): string | null {
  if (campaign === undefined) return 'its campaign no longer exists';
  if (campaign.rule_params.active === false) return `its campaign ${campaign.id} is not active`;
  return coupon?.active === false ? 'its coupon is not active' : null;
}

/**
 * A voucher_out_date or voucher_expired (message without the voucher) when `now` is outside the campaign's
 * available_from..available_to, read as carts read them (a date is the Company's whole day); a voucher_out_date
 * on a local day its weekly or monthly recurrence leaves out (the engine's check), naming the days it runs; else null.
 */
export function campaignDatesRefusal(campaign: CampaignRecord | undefined, now: string, timezone: string): TallyError | null {
  if (campaign === undefined) return null;
  const { available_from: from, available_to: to } = campaign.rule_params;
  const outside = couponDatesRefusal({ ...(from ? { available_from: from } : {}), ...(to ? { available_to: to } : {}) }, now, timezone);
  if (outside === 'voucher_out_date') return new TallyError(outside, `its campaign ${campaign.id} starts at ${from}`);
  if (outside === 'voucher_expired') return new TallyError(outside, `its campaign ${campaign.id} ended at ${to}`);
  const off = recurrenceOffDay(campaign.rule_params, now, timezone);
  return off && new TallyError('voucher_out_date', `its campaign ${campaign.id} runs only on ${daysText(off)}`);
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** 'Monday, Friday, not on Tuesday' or 'days 1, 15 of the month, not on day 2'. */
function daysText({ type, days, today }: OffDay): string {
  if (type === 'weekly') return `${days.map((day) => WEEKDAYS[day - 1]).join(', ')}, not on ${WEEKDAYS[today - 1]}`;
  return `days ${days.join(', ')} of the month, not on day ${today}`;
}

/**
 * Why the voucher cannot be used at `now` (a cart's sale date, else the request's instant), else null. A voucher
 * without a start of its own is pending before the Company's local day it was issued: a back-dated cart of a day
 * before cannot use it, a till whose clock runs behind the server's still uses one issued moments ago.
 */
export function voucherRefusal(voucher: VoucherRecord, now: string, timezone: string, coupon: CouponState = LIVE): TallyError | null {
  const at = Date.parse(now);
  const code = voucher.code;
  if (voucher.status === 'deleted' || coupon.deleted) return new TallyError('voucher_deleted', `voucher ${code}: its coupon has been deleted`);
  if (voucher.status === 'redeemed') return new TallyError('voucher_redeemed', `voucher ${code}: already redeemed`);
  if (voucher.status === 'inactive') return new TallyError('voucher_inactive', `voucher ${code}: not active`);
  if (coupon.inactive !== null) return new TallyError('voucher_inactive', `voucher ${code}: ${coupon.inactive}`);
  if (voucher.status === 'frozen') return new TallyError('voucher_inactive', `voucher ${code}: frozen until unfrozen`);
  if (voucher.available_from !== null && Date.parse(voucher.available_from) > at) {
    return new TallyError('voucher_out_date', `voucher ${code}: available from ${voucher.available_from}`);
  }
  if (voucher.available_from === null && issuedOnLaterDay(voucher.created_at, at, timezone)) {
    return new TallyError('voucher_out_date', `voucher ${code}: available from ${localDateOf(Date.parse(voucher.created_at), timezone)}, the day it was issued`);
  }
  if (voucher.status === 'expired' || (voucher.available_to !== null && Date.parse(voucher.available_to) <= at)) {
    return new TallyError('voucher_expired', `voucher ${code}: expired at ${voucher.available_to}`);
  }
  const dates = coupon.campaignDates;
  return dates && new TallyError(dates.code, `voucher ${code}: ${dates.message}`);
}

/** Whether `at` falls on a local day before the one of `createdAt`; the zone is read only for a sale before the issue. */
function issuedOnLaterDay(createdAt: string, at: number, timezone: string): boolean {
  const issued = Date.parse(createdAt);
  return issued > at && localDateOf(at, timezone) < localDateOf(issued, timezone);
}

export function isUsable(voucher: VoucherRecord, now: string, timezone: string): boolean {
  return voucherRefusal(voucher, now, timezone) === null;
}

/**
 * The status a reader sees: the stored one, with `pending` before and `expired` after the voucher's dates,
 * `deleted` when its coupon is (a voucher stored active after the deletion: see CouponState), `inactive`
 * while its campaign or coupon is (the voucher_inactive it would be answered), and `pending` / `expired` by its
 * campaign's dates too.
 */
export type VoucherDisplayStatus = VoucherRecord['status'] | 'pending';

export function displayStatus(voucher: VoucherRecord, now: string, coupon: CouponState = LIVE): VoucherDisplayStatus {
  if (voucher.status !== 'active') return voucher.status;
  if (coupon.deleted) return 'deleted';
  if (coupon.inactive !== null) return 'inactive';
  const at = Date.parse(now);
  if ((voucher.available_to !== null && Date.parse(voucher.available_to) <= at) || coupon.campaignDates?.code === 'voucher_expired') return 'expired';
  if ((voucher.available_from !== null && Date.parse(voucher.available_from) > at) || coupon.campaignDates?.code === 'voucher_out_date') return 'pending';
  return 'active';
}
