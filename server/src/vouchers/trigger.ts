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
import { TallyError } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import { invalidRequest } from '../http/errors.js';
import { exactlyOne } from '../http/params.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { DiscountsTrigger } from '../wire/types.js';
import { raiseVoucherEvent } from './events.js';
import { couponTarget, generateVoucherCode, instantWinTarget, newVoucher, type VoucherTarget } from './issue.js';
import type { VoucherStore } from './store.js';
import type { VoucherRecord } from './types.js';

export interface TriggerStores {
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
}

export function triggerTarget({ campaigns, instantWins }: TriggerStores, tenant: Tenant, body: DiscountsTrigger): VoucherTarget {
  const field = exactlyOne(['coupon_id', 'loyalty_rule_id'] as const, (name) => body[name] !== undefined);
  const value = body[field]!;
  const campaign = body.coupon_id !== undefined ? campaigns.byCouponId(tenant, value) : campaigns.get(tenant, value);
  const instantWin = campaign === undefined && body.loyalty_rule_id !== undefined ? instantWins.get(tenant, value) : undefined;
  if (instantWin) {
    if (instantWin.rule_params.select_customers !== 'targeted') {
      throw invalidRequest(field, `instant win ${instantWin.id} is not targeted: every customer of its audience takes part without a voucher`);
    }
    return instantWinTarget(instantWin);
  }
  // A deleted coupon (DELETE /coupons/{id}) is no longer its campaign's coupon_id.
  const deletedCoupon = body.coupon_id !== undefined && campaign?.coupon_id !== body.coupon_id;
  if (!campaign || deletedCoupon) {
    throw new TallyError(field === 'coupon_id' ? 'coupon_not_found' : 'campaign_not_found', `${field}: no campaign with ${field} ${value}`, field);
  }
  const target = couponTarget(campaign);
  if (!target) throw invalidRequest(field, `campaign ${campaign.id} has no coupon: only coupon or targeted campaigns issue vouchers`);
  return target;
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
