/**
 * A voucher as the voucher operations answer it (docs/coupons-vouchers.md):
 * its state, dates and redemptions, its campaign, and its coupon with the
 * name and description in the request's language (common rule 7).
 */
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { FoundVoucher } from './find.js';
import { printWindow } from './print-window.js';
import { displayStatus } from './status.js';

export interface PresentContext {
  language: string | undefined;
  settings: CompanySettings;
  now: string;
}

export function voucherView({ voucher, coupon }: FoundVoucher, ctx: PresentContext): Record<string, unknown> {
  const campaign = coupon?.campaign;
  const text = (translations: Record<string, string> | undefined, stored: unknown) =>
    translations || typeof stored === 'string' ? localize(translations ?? (stored as string), ctx.language, ctx.settings) : null;
  const effects = campaign?.rule_params.rule_effects;
  const effect = (Array.isArray(effects) ? effects[0] : undefined) as { type?: unknown; value?: unknown } | undefined;
  return {
    id: wireInt(voucher.id),
    code: voucher.code,
    status: displayStatus(voucher, ctx.now),
    selected: voucher.selected,
    priority: voucher.priority,
    max_redemptions: voucher.max_redemptions,
    redemptions: voucher.redemptions,
    available_redemptions: voucher.max_redemptions === null ? null : voucher.max_redemptions - voucher.redemptions,
    available_from: voucher.available_from,
    available_to: voucher.available_to,
    ...printWindow(voucher, coupon?.params),
    printable: coupon?.params.printable === true,
    prints: voucher.prints ?? 0,
    printed_at: voucher.printed_at ?? null,
    customer_id: voucher.customer_id === null ? null : wireInt(voucher.customer_id),
    created_at: voucher.created_at,
    loyalty_rule_id: wireInt(voucher.campaign_id),
    campaign_type: campaign?.type ?? null,
    campaign_name: campaign ? text(campaign.texts.name, campaign.rule_params.name) : null,
    // A targeted instant win's delivery has no coupon.
    coupon: voucher.coupon_id === null ? null : {
      id: wireInt(voucher.coupon_id),
      key: coupon?.params.key ?? null,
      name: text(coupon?.texts.name, coupon?.params.name),
      description: text(coupon?.texts.description, coupon?.params.description),
      static_code: coupon?.params.static_code ?? null,
      external_id: coupon?.params.external_id ?? null,
      max_redemptions: coupon?.params.max_redemptions ?? null,
      discount: typeof effect?.value === 'number' ? effect.value : null,
      discount_type: typeof effect?.type === 'string' ? effect.type : null,
      deleted: coupon?.deleted ?? false,
    },
  };
}
