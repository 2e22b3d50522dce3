/**
 * coupon_params → the coupon as the contract's Cart response shows it in
 * vouchers[].coupon: its own fields, and the discount its campaign gives
 * (the first rule effect). Built once per campaign at compile time.
 */
import { invalidRequest } from '../errors.js';
import { toMoney } from '../money.js';
import { dateBound, outsideWindow, type DateWindow } from '../time/dateWindow.js';
import { parseInstant, zonedDate, zoneFormatter } from '../time/zonedDate.js';
import type { Campaign, CampaignType, CouponParams, Id, VoucherCoupon } from '../types.js';
import { compileEffects } from './effects.js';
import type { CompiledEffect } from './program.js';
import { optionalInteger, optionalString } from './read.js';

/** Redemptions of one voucher when the coupon does not say. */
export const DEFAULT_MAX_REDEMPTIONS = 1;

export function compileCoupon(coupon: CouponParams, type: CampaignType, effect: CompiledEffect | undefined): VoucherCoupon {
  const id = coupon.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') {
    throw invalidRequest('coupon_params.id', 'must be an id');
  }
  return Object.freeze({
    id: (id ?? null) as Id | null,
    key: optionalString(coupon.key, 'coupon_params.key'),
    name: optionalString(coupon.name, 'coupon_params.name'),
    description: optionalString(coupon.description, 'coupon_params.description'),
    static_code: optionalString(coupon.static_code, 'coupon_params.static_code'),
    max_redemptions: optionalInteger(coupon.max_redemptions, 'coupon_params.max_redemptions', 1) ?? DEFAULT_MAX_REDEMPTIONS,
    // Tally's coupons carry no money or unit limits of their own: the campaign's rule_conditions hold them.
    min_money: null,
    max_money: null,
    min_units: null,
    max_units: null,
    discount: effect === undefined ? null : discountOf(effect, type),
    discount_type: effect?.type ?? null,
    affectation: effect?.distribution ?? null,
  });
}

/** The coupon's own dates (its static code works only between them); null when it has none. */
export function compileCouponDates(coupon: CouponParams): DateWindow | null {
  const from = dateBound(coupon.available_from, 'coupon_params.available_from');
  const to = dateBound(coupon.available_to, 'coupon_params.available_to');
  return from || to ? { from, to } : null;
}

/**
 * Whether a coupon's static code works at `now` (ISO) in the Company
 * timezone, as carts decide it: null, or the contract's code for a coupon not
 * yet available (voucher_out_date) or past its available_to (voucher_expired).
 */
export function couponDatesRefusal(coupon: CouponParams, now: string, timezone: string): 'voucher_out_date' | 'voucher_expired' | null {
  const dates = compileCouponDates(coupon);
  if (dates === null) return null;
  const at = parseInstant(now, 'now');
  const outside = outsideWindow(dates, at, zonedDate(at, zoneFormatter(timezone, 'timezone')).date);
  return outside === 'before' ? 'voucher_out_date' : outside === 'after' ? 'voucher_expired' : null;
}

/** A voucher entry of a campaign without coupon_params (its vouchers were issued without a coupon). */
export const NO_COUPON = compileCoupon({}, 'discount', undefined);

/** The coupon as reads show it (vouchers, rewards): `campaign` gives the discount; without it there is none. */
export function voucherCoupon(coupon: CouponParams, campaign?: Pick<Campaign, 'type' | 'rule_params'>): VoucherCoupon {
  const effect = campaign && compileEffects(campaign.rule_params.rule_effects, campaign.type)[0];
  return compileCoupon(coupon, campaign?.type ?? 'discount', effect);
}

/** As configured: the percentage, the points ratio, the points of a points direct_value, or an amount in currency units. */
function discountOf(effect: CompiledEffect, type: CampaignType): number {
  if (effect.type === 'percentage' || effect.type === 'ratio') return effect.rate.toNumber();
  return type === 'points' ? effect.amount : toMoney(effect.amount);
}
