/**
 * POST /coupons and PATCH /coupons/{id}: a coupon is written into its
 * campaign through the campaign's own record builder (the same update
 * semantics and multi-language names as coupon_params of POST /discounts),
 * checked (static code free, the campaign still compiles) and stored with a
 * new campaign version, in the caller's transaction.
 */
import { TallyError } from '@tally/engine';
import { checkCompiles } from '../campaigns/compile-check.js';
import { buildRecord } from '../campaigns/params.js';
import type { CampaignStore } from '../campaigns/store.js';
import { checkStaticCodeFree, type StaticCodeHolders } from '../campaigns/static-codes.js';
import type { CampaignRecord } from '../campaigns/types.js';
import type { TallyRequest } from '../http/types.js';
import type { CampaignsParamsCouponParams, CouponsCreate, CouponsUpdate } from '../wire/types.js';
import { changesNothing } from '../store/unchanged.js';
import type { CouponStore } from './store.js';
import { wireDatetime } from '../http/wire.js';

export interface CouponStores {
  campaigns: CampaignStore;
  coupons: CouponStore;
  /** Every kind of campaign a static code can name (discount and points campaigns, instant wins, games). */
  staticCodeHolders: readonly StaticCodeHolders[];
}

export function couponNotFound(id: string): TallyError {
  return new TallyError('coupon_not_found', `id: no coupon ${id}`, 'id');
}

/** Inside `env.transact`: gives the campaign `loyalty_rule_id` its coupon, numbered `couponId`. */
export function createInTransaction(stores: CouponStores, req: TallyRequest, body: CouponsCreate, allocate: () => string): string {
  const campaign = stores.campaigns.get(req.tenant, body.loyalty_rule_id);
  if (!campaign) throw new TallyError('campaign_not_found', `loyalty_rule_id: no campaign ${body.loyalty_rule_id}`, 'loyalty_rule_id');
  if (campaign.coupon_id !== undefined) {
    throw new TallyError('conflict', `loyalty_rule_id: campaign ${campaign.id} already has coupon ${campaign.coupon_id}`, 'loyalty_rule_id');
  }
  return write(stores, req, campaign, body.coupon_params, allocate).coupon_id!;
}

/** Inside `env.transact`: changes the fields sent, keeps the others. */
export function updateInTransaction(stores: CouponStores, req: TallyRequest, couponId: string, body: CouponsUpdate): void {
  const campaign = stores.coupons.campaignOf(req.tenant, couponId);
  if (!campaign) throw couponNotFound(couponId);
  write(stores, req, campaign, body.coupon_params, () => couponId);
}

/**
 * Whether the update leaves the coupon's campaign as read now: it then writes nothing (no new version, no audit
 * entry). False for a coupon there is none of (the transaction's 404).
 */
export function updateChangesNothing(stores: CouponStores, req: TallyRequest, couponId: string, body: CouponsUpdate): boolean {
  const campaign = stores.coupons.campaignOf(req.tenant, couponId);
  return campaign !== undefined && changesNothing(draftOf(req, campaign, body.coupon_params), campaign);
}

/** The campaign with `couponParams` written over its coupon's (a new coupon numbered provisionally). */
function draftOf(req: TallyRequest, campaign: CampaignRecord, couponParams: CampaignsParamsCouponParams): CampaignRecord {
  const input = { kind: campaign.type, id: campaign.id, body: { coupon_params: couponParams }, previous: campaign, settings: req.settings, now: wireDatetime(req.now) };
  return buildRecord({ ...input, couponId: campaign.coupon_id ?? '1' });
}

function write(
  { campaigns, staticCodeHolders }: CouponStores,
  req: TallyRequest,
  campaign: CampaignRecord,
  couponParams: CampaignsParamsCouponParams,
  allocate: () => string,
): CampaignRecord {
  const draft = draftOf(req, campaign, couponParams);
  checkStaticCodeFree(staticCodeHolders, req.tenant, draft.coupon_params?.static_code, campaign.id);
  checkCompiles(draft, req.settings);
  return campaigns.putInTransaction(req.tenant, { ...draft, coupon_id: campaign.coupon_id ?? allocate() }, campaign);
}
