/**
 * A voucher as the voucher operations answer it (docs/coupons-vouchers.md):
 * its state, dates and redemptions, its campaign, and its coupon with the
 * name and description in the request's language (common rule 7).
 */
import { voucherCoupon } from '@tally/engine';
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings } from '../tenancy/types.js';
import { couponState, type FoundVoucher } from './find.js';
import { printWindow } from './print-window.js';
import { displayStatus } from './status.js';

export interface PresentContext {
  language: string | undefined;
  settings: CompanySettings;
  now: string;
}

export function voucherView(found: FoundVoucher, ctx: PresentContext): Record<string, unknown> {
  const { voucher, coupon } = found;
  const campaign = coupon?.campaign;
  const text = (translations: Record<string, string> | undefined, stored: unknown) =>
    translations || typeof stored === 'string' ? localize(translations ?? (stored as string), ctx.language, ctx.settings) : null;
  return {
    id: wireInt(voucher.id),
    code: voucher.code,
    status: displayStatus(voucher, ctx.now, couponState(found, ctx.now, ctx.settings.timezone)),
    selected: voucher.selected,
    priority: voucher.priority,
    max_redemptions: voucher.max_redemptions,
    redemptions: voucher.redemptions,
    available_redemptions: voucher.max_redemptions === null ? null : voucher.max_redemptions - voucher.redemptions,
    available_from: voucher.available_from,
    available_to: voucher.available_to,
    ...printWindow(voucher, coupon?.params, ctx.settings.timezone),
    printable: coupon?.params.printable === true,
    prints: voucher.prints ?? 0,
    printed_at: voucher.printed_at ?? null,
    customer_id: voucher.customer_id === null ? null : wireInt(voucher.customer_id),
    created_at: voucher.created_at,
    loyalty_rule_id: wireInt(voucher.campaign_id),
    // The campaign's version at issue: a targeted instant win's cart effect echoes it, so an offline preview needs it.
    campaign_history_id: voucher.campaign_history_id === undefined ? null : wireInt(voucher.campaign_history_id),
    campaign_type: campaign?.type ?? null,
    campaign_name: campaign ? text(campaign.texts.name, campaign.rule_params.name) : null,
    // A targeted instant win's delivery has no coupon.
    coupon: voucher.coupon_id === null ? null : {
      ...voucherCoupon({ ...coupon?.params, id: voucher.coupon_id }, campaign),
      id: wireInt(voucher.coupon_id),
      name: text(coupon?.texts.name, coupon?.params.name),
      description: text(coupon?.texts.description, coupon?.params.description),
      external_id: coupon?.params.external_id ?? null,
      deleted: coupon?.deleted ?? false,
    },
  };
}
