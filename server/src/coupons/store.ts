/**
 * Coupons live inside their campaign (`CampaignRecord.coupon_params` and
 * `coupon_id`: one coupon per campaign, the engine's shape). This store finds
 * a coupon by id, live or deleted: a deleted coupon is kept as a tombstone so
 * its vouchers still read with their names and DELETE can answer 404 after.
 * Keys (docs/coupons-vouchers.md): `deleted_coupons` [tenant, idKey(coupon_id)] -> DeletedCoupon.
 */
import type { CouponParams } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import type { CampaignRecord, Translations } from '../campaigns/types.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

export interface CouponTexts {
  name?: Translations;
  description?: Translations;
}

export interface DeletedCoupon {
  id: string;
  campaign_id: string;
  params: CouponParams;
  texts: CouponTexts;
  deleted_at: string;
}

/** A coupon as its vouchers see it. */
export interface CouponData {
  id: string;
  /** The campaign as it is now (without this coupon once the coupon is deleted). */
  campaign: CampaignRecord | undefined;
  params: CouponParams;
  texts: CouponTexts;
  deleted: boolean;
}

export class CouponStore {
  constructor(
    private readonly env: StoreEnv,
    private readonly campaigns: CampaignStore,
  ) {}

  private get deletedCoupons() {
    return this.env.db('deleted_coupons');
  }

  /** The campaign holding the live coupon `couponId`. */
  campaignOf(tenant: Tenant, couponId: string): CampaignRecord | undefined {
    const campaign = this.campaigns.byCouponId(tenant, couponId);
    return campaign?.coupon_id === couponId ? campaign : undefined;
  }

  /** The coupon of a voucher: live in its campaign, else its tombstone. */
  find(tenant: Tenant, couponId: string, campaignId: string): CouponData | undefined {
    const campaign = this.campaigns.get(tenant, campaignId);
    if (campaign?.coupon_id === couponId && campaign.coupon_params) {
      const texts = { name: campaign.texts.coupon_name, description: campaign.texts.coupon_description };
      return { id: couponId, campaign, params: campaign.coupon_params, texts, deleted: false };
    }
    const tombstone = this.deletedCoupons.get([tenantPrefix(tenant), idKey(couponId)]) as DeletedCoupon | undefined;
    return tombstone && { id: couponId, campaign, params: tombstone.params, texts: tombstone.texts, deleted: true };
  }

  /** Inside `env.transact`. */
  putDeletedInTransaction(tenant: Tenant, coupon: DeletedCoupon): void {
    this.deletedCoupons.putSync([tenantPrefix(tenant), idKey(coupon.id)], coupon);
  }
}
