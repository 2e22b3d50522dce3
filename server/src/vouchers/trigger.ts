/**
 * POST /discounts/trigger: issue a voucher of a discount campaign's coupon to
 * a customer. Only campaigns with a coupon (targeted ones always have one)
 * issue vouchers. `priority_allocation` puts the voucher above every other
 * voucher the customer holds, so carts use it first.
 */
import { TallyError } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { invalidRequest } from '../http/errors.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import type { Tenant } from '../tenancy/types.js';
import { generateVoucherCode, newVoucher } from './issue.js';
import type { VoucherStore } from './store.js';
import type { VoucherRecord } from './types.js';

export interface TriggerBody {
  customer_id: string;
  coupon_id?: string;
  loyalty_rule_id?: string;
  external_voucher_code?: string;
  priority_allocation?: boolean;
}

export function triggerCampaign(campaigns: CampaignStore, tenant: Tenant, body: TriggerBody): CampaignRecord {
  if (body.coupon_id !== undefined && body.loyalty_rule_id !== undefined) {
    throw invalidRequest('loyalty_rule_id', 'cannot be sent with coupon_id');
  }
  const field = body.coupon_id !== undefined ? 'coupon_id' : 'loyalty_rule_id';
  const value = body.coupon_id ?? body.loyalty_rule_id;
  if (value === undefined) throw invalidRequest('coupon_id', 'is required (or loyalty_rule_id)');
  const campaign = body.coupon_id !== undefined ? campaigns.byCouponId(tenant, value) : campaigns.get(tenant, value);
  // A deleted coupon (DELETE /coupons/{id}) is no longer its campaign's coupon_id.
  const deletedCoupon = body.coupon_id !== undefined && campaign?.coupon_id !== body.coupon_id;
  if (!campaign || campaign.type !== 'discount' || deletedCoupon) {
    throw new TallyError(field === 'coupon_id' ? 'coupon_not_found' : 'campaign_not_found', `${field}: no discount campaign with ${field} ${value}`, field);
  }
  if (campaign.coupon_id === undefined) {
    throw invalidRequest(field, `campaign ${campaign.id} has no coupon: only coupon or targeted campaigns issue vouchers`);
  }
  return campaign;
}

/** Inside `env.transact`: allocates, checks the code is free, stores. */
export function issueInTransaction(
  env: StoreEnv,
  vouchers: VoucherStore,
  tenant: Tenant,
  campaign: CampaignRecord,
  body: TriggerBody,
  now: Date,
): VoucherRecord {
  const code = body.external_voucher_code ?? freeCode(vouchers, tenant);
  if (vouchers.byCode(tenant, code) !== undefined) {
    throw new TallyError('conflict', `external_voucher_code: ${code} is already a voucher code`, 'external_voucher_code');
  }
  const configured = campaign.coupon_params?.priority;
  const base = typeof configured === 'number' ? configured : 0;
  const priority = body.priority_allocation
    ? Math.max(base, ...vouchers.ofCustomer(tenant, body.customer_id).map((v) => v.priority)) + 1
    : base;
  const id = allocateId(env, tenant, 'vouchers');
  const voucher = newVoucher({ id, code, campaign, customerId: body.customer_id, now, priority });
  vouchers.putInTransaction(tenant, voucher);
  return voucher;
}

/** Generated codes are random; a collision (about 1 in 10^18 per pair) just draws again. */
function freeCode(vouchers: VoucherStore, tenant: Tenant): string {
  for (;;) {
    const code = generateVoucherCode();
    if (vouchers.byCode(tenant, code) === undefined) return code;
  }
}
