/**
 * coupons_desired → which vouchers and static codes this cart may use, per
 * the contract's table ('all', 'selected', a list of codes, empty).
 */
import type { CompiledCampaign, Program } from '../compile/program.js';
import { idString } from '../ids.js';
import type { CouponInfo, HeldVoucher, RejectedCampaign } from '../types.js';
import type { CartInput } from './cartInput.js';
import type { ContextInput } from './contextInput.js';

export interface CouponUse {
  voucher: HeldVoucher | null;
  staticCode: string | null;
  info: CouponInfo;
}

export interface CouponAccess {
  /** The coupon this cart may use for a campaign, or null. */
  couponFor(campaign: CompiledCampaign): CouponUse | null;
  /** Campaigns whose code the cart listed explicitly (their rejections are reported). */
  listed: ReadonlySet<string>;
  invalid: string[];
  /** Listed vouchers the customer holds but cannot use, as rejections of the campaigns that need them. */
  refused: RejectedCampaign[];
}

export function resolveCoupons(program: Program, input: CartInput, context: ContextInput): CouponAccess {
  const desired = input.coupons;
  const vouchers = new Map<string, HeldVoucher>();
  const staticCodes = new Map<string, string>();
  const listed = new Set<string>();
  const invalid: string[] = [];
  const refused: RejectedCampaign[] = [];
  if (desired === 'all' || desired === 'selected') {
    for (const voucher of context.vouchers) {
      if (desired === 'all' || voucher.selected === true) keepFirst(vouchers, voucher.campaignId, voucher);
    }
  } else {
    for (const code of desired) {
      const named = context.vouchers.find((held) => held.code === code);
      if (!named && refuseHeld(program, context, code, refused)) continue;
      const campaign = named ? program.byId.get(named.campaignId) : program.byStaticCode.get(code);
      if (!campaign) {
        invalid.push(code);
        continue;
      }
      listed.add(campaign.id);
      // A static code uses the customer's voucher of that coupon expiring first, as POST /discounts/redeem does.
      const voucher = named ?? firstExpiring(context.vouchers, campaign.id);
      if (voucher) keepFirst(vouchers, campaign.id, voucher);
      else staticCodes.set(campaign.id, code);
    }
  }
  return {
    listed,
    invalid,
    refused,
    couponFor(campaign) {
      const voucher = vouchers.get(campaign.id) ?? null;
      const staticCode = voucher ? null : (staticCodes.get(campaign.id) ?? null);
      if (!voucher && !staticCode) return null;
      return { voucher, staticCode, info: couponInfo(campaign, voucher, staticCode) };
    },
  };
}

export function couponInfo(campaign: CompiledCampaign, voucher: HeldVoucher | null, staticCode: string | null): CouponInfo {
  const coupon = campaign.coupon;
  return {
    voucher_id: voucher?.voucher_id ?? null,
    voucher_code: voucher?.code ?? null,
    coupon_id: coupon?.id ?? null,
    coupon_name: coupon?.name ?? null,
    static_code: staticCode ?? campaign.staticCode,
  };
}

/**
 * A listed code naming a voucher the customer holds but cannot use (expired, frozen, used up...) is no unknown code:
 * a campaign that needs it is rejected with the caller's reason; a campaign that needs no coupon acts without it.
 * False when the code is no such voucher of a campaign of the program.
 */
function refuseHeld(program: Program, context: ContextInput, code: string, refused: RejectedCampaign[]): boolean {
  const voucher = context.customer?.refused_vouchers?.find((held) => held.code === code);
  const campaign = voucher && program.byId.get(idString(voucher.campaign_id, 'context.customer.refused_vouchers[].campaign_id'));
  if (!voucher || !campaign) return false;
  if (campaign.targeting.selectCustomers === 'targeted' || campaign.couponRequired) {
    const held = { code: voucher.code, campaign_id: voucher.campaign_id, ...(voucher.voucher_id === undefined ? {} : { voucher_id: voucher.voucher_id }) };
    refused.push({ rule_id: campaign.rawId, rule_name: campaign.name, type: campaign.type, error: voucher.error, coupon_info: couponInfo(campaign, held, null) });
  }
  return true;
}

function firstExpiring(held: ContextInput['vouchers'], campaignId: string): ContextInput['vouchers'][number] | undefined {
  let first: ContextInput['vouchers'][number] | undefined;
  for (const voucher of held) {
    if (voucher.campaignId === campaignId && (first === undefined || voucher.expiresAt < first.expiresAt)) first = voucher;
  }
  return first;
}

function keepFirst(map: Map<string, HeldVoucher>, key: string, voucher: HeldVoucher): void {
  if (!map.has(key)) map.set(key, voucher);
}
