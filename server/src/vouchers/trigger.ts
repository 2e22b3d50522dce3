/**
 * POST /discounts/trigger: issue a voucher to a customer. The contract names
 * discount campaigns with a coupon; Tally also issues, through the same call
 * (docs/decisions.md), vouchers of targeted points campaigns (GET /points
 * `selected`, carts grant their points only with the voucher) and deliveries
 * of targeted instant wins (by loyalty_rule_id: a voucher of the campaign is
 * the loyalty_rule_history_id the contract describes). `priority_allocation`
 * puts the voucher above every other voucher the customer holds, so carts
 * use it first.
 */
import { couponDatesRefusal, TallyError } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import { invalidRequest } from '../http/errors.js';
import { exactlyOne } from '../http/params.js';
import { wireDatetime } from '../http/wire.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { DiscountsTrigger } from '../wire/types.js';
import { raiseVoucherEvent } from './events.js';
import { couponTarget, generateVoucherCode, instantWinTarget, newVoucher, voucherEnd, type VoucherTarget } from './issue.js';
import type { VoucherStore } from './store.js';
import type { VoucherRecord } from './types.js';

export interface TriggerStores {
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
}

/**
 * What POST /discounts/trigger issues, refused when its voucher could never be used (before anything is written, the
 * contract's codes of a voucher that cannot be used, 402): a campaign (or instant win) or coupon switched off is
 * voucher_inactive, a campaign that has ended or a coupon whose voucher would end by the issue voucher_expired,
 * naming the field sent. Only this route: rewards and prizes issue inside transactions of their own, where a
 * refusal would fail a redemption or a cart.
 */
export function triggerTarget(stores: TriggerStores, tenant: Tenant, settings: CompanySettings, body: DiscountsTrigger, now: Date): VoucherTarget {
  const { field, record, kind, target } = findTarget(stores, tenant, body);
  if (record.rule_params.active === false) throw new TallyError('voucher_inactive', `${field}: ${kind} ${record.id} is not active`, field);
  if (target.coupon.active === false) throw new TallyError('voucher_inactive', `${field}: coupon ${target.couponId} is not active`, field);
  const ended = record.rule_params.available_to;
  if (couponDatesRefusal({ available_to: ended }, wireDatetime(now), settings.timezone) === 'voucher_expired') {
    throw new TallyError('voucher_expired', `${field}: ${kind} ${record.id} ended at ${ended}`, field);
  }
  const end = voucherEnd(target.coupon, now, settings.timezone);
  if (end !== null && Date.parse(end) <= now.getTime()) throw new TallyError('voucher_expired', `${field}: coupon ${target.couponId} expired at ${end}`, field);
  return target;
}

/** The campaign or targeted instant win a trigger names, with its voucher target. */
function findTarget({ campaigns, instantWins }: TriggerStores, tenant: Tenant, body: DiscountsTrigger) {
  const field = exactlyOne(['coupon_id', 'loyalty_rule_id'] as const, (name) => body[name] !== undefined);
  const value = body[field]!;
  const campaign = body.coupon_id !== undefined ? campaigns.byCouponId(tenant, value) : campaigns.get(tenant, value);
  const instantWin = campaign === undefined && body.loyalty_rule_id !== undefined ? instantWins.get(tenant, value) : undefined;
  if (instantWin) {
    if (instantWin.rule_params.select_customers !== 'targeted') {
      throw invalidRequest(field, `instant win ${instantWin.id} is not targeted: every customer of its audience takes part without a voucher`);
    }
    return { field, record: instantWin, kind: 'instant win', target: instantWinTarget(instantWin) };
  }
  // A deleted coupon (DELETE /coupons/{id}) is no longer its campaign's coupon_id.
  const deletedCoupon = body.coupon_id !== undefined && campaign?.coupon_id !== body.coupon_id;
  if (!campaign || deletedCoupon) {
    throw new TallyError(field === 'coupon_id' ? 'coupon_not_found' : 'campaign_not_found', `${field}: no campaign with ${field} ${value}`, field);
  }
  const target = couponTarget(campaign);
  if (!target) throw invalidRequest(field, `campaign ${campaign.id} has no coupon: only coupon or targeted campaigns issue vouchers`);
  return { field, record: campaign, kind: 'campaign', target };
}

/** Inside `env.transact`: allocates, checks the code is free, stores, raises voucher.issued. `validUntil` replaces the coupon's end date. */
export function issueInTransaction(
  env: StoreEnv,
  vouchers: VoucherStore,
  tenant: Tenant,
  settings: CompanySettings,
  target: VoucherTarget,
  body: DiscountsTrigger,
  now: Date,
  validUntil?: string,
): VoucherRecord {
  const code = body.external_voucher_code ?? freeCode(vouchers, tenant);
  if (vouchers.byCode(tenant, code) !== undefined) {
    throw new TallyError('conflict', `external_voucher_code: ${code} is already a voucher code`, 'external_voucher_code');
  }
  const configured = target.coupon.priority;
  const base = typeof configured === 'number' ? configured : 0;
  const priority = body.priority_allocation
    ? Math.max(base, ...vouchers.ofCustomer(tenant, body.customer_id).map((v) => v.priority)) + 1
    : base;
  const id = allocateId(env, tenant, 'vouchers');
  const voucher = newVoucher({ id, code, target, customerId: body.customer_id, now, priority, timezone: settings.timezone, ...(validUntil === undefined ? {} : { validUntil }) });
  vouchers.putInTransaction(tenant, voucher);
  raiseVoucherEvent(env, tenant, settings, now, 'voucher.issued', voucher.id);
  return voucher;
}

/** Generated codes are random; a collision (about 1 in 10^18 per pair) just draws again. */
function freeCode(vouchers: VoucherStore, tenant: Tenant): string {
  for (;;) {
    const code = generateVoucherCode();
    if (vouchers.byCode(tenant, code) === undefined) return code;
  }
}
