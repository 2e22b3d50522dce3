/**
 * DELETE /coupons/{id}: in one transaction the campaign loses its coupon
 * (its static code stops working and is free again; a targeted or
 * coupon_required campaign no longer applies), the coupon is kept as a
 * tombstone, and every voucher of it becomes `deleted` and unselected, so
 * it answers voucher_deleted from then on.
 */
import { checkCompiles } from '../campaigns/compile-check.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { VoucherStore } from '../vouchers/store.js';
import { couponNotFound, type CouponStores } from './write.js';

export interface DeleteStores extends CouponStores {
  env: StoreEnv;
  vouchers: VoucherStore;
}

/** Inside `env.transact`. */
export function deleteInTransaction(stores: DeleteStores, tenant: Tenant, settings: CompanySettings, couponId: string, now: string): void {
  const campaign = stores.coupons.campaignOf(tenant, couponId);
  if (!campaign || !campaign.coupon_params) throw couponNotFound(couponId);
  const { coupon_params: params, coupon_id: _id, ...withoutCoupon } = campaign;
  const { coupon_name, coupon_description, ...texts } = campaign.texts;
  const next = { ...withoutCoupon, texts, updated_at: now };
  checkCompiles(next, settings);
  stores.campaigns.putInTransaction(tenant, next, campaign);
  stores.coupons.putDeletedInTransaction(tenant, {
    id: couponId,
    campaign_id: campaign.id,
    params,
    texts: { ...(coupon_name ? { name: coupon_name } : {}), ...(coupon_description ? { description: coupon_description } : {}) },
    deleted_at: now,
  });
  for (const voucher of stores.vouchers.ofCoupon(tenant, couponId)) {
    stores.vouchers.putInTransaction(tenant, { ...voucher, status: 'deleted', selected: false });
  }
}
