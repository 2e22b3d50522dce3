/** The contract's Reward and Redemption shapes, texts in the request's language. */
import { voucherCoupon } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { Missing } from './eligibility.js';
import type { RewardStore } from './store.js';
import type { RedemptionRecord, RewardRecord } from './types.js';

export interface ViewContext {
  tenant: Tenant;
  language: string | undefined;
  settings: CompanySettings;
  rewards: RewardStore;
  campaigns: CampaignStore;
}

const wireOrNull = (id: string | null) => (id === null ? null : wireInt(id));

export function rewardView(reward: RewardRecord, ctx: ViewContext, missing?: Missing[]) {
  const text = (value: RewardRecord['name'] | null) => (value === null ? null : localize(value, ctx.language, ctx.settings));
  const used = ctx.rewards.stockUsed(ctx.tenant, reward.id);
  const coupon = couponView(reward, ctx);
  const { coupon_campaign_id: _campaign, tiers: _tiers, location_ids, extra_money, categories, ...plain } = reward;
  return {
    ...plain,
    id: wireInt(reward.id),
    name: text(reward.name),
    description: text(reward.description),
    extra_money: extra_money === null ? null : Number(extra_money),
    categories: categories.map((c) => ({ ...c, id: wireInt(c.id) })),
    // A coupon since deleted (DELETE /coupons) is no coupon: process_actions could not issue it.
    is_coupon: coupon !== null,
    coupon_id: coupon === null ? null : coupon.id,
    coupon,
    available_stock: reward.total_stock === null ? null : Math.max(0, reward.total_stock - used),
    redemptions_quantity: used,
    tiers: reward.tiers.map((t) => ({ program_id: wireInt(t.program_id), level: t.level })),
    location_ids: location_ids.map(wireInt),
    ...(missing === undefined ? {} : { can_redeem: missing.length === 0, missing_redeem_conditions: missing.map((m) => [m.reason, m.message]) }),
  };
}

function couponView(reward: RewardRecord, ctx: ViewContext) {
  if (reward.coupon_campaign_id === null) return null;
  const campaign = ctx.campaigns.get(ctx.tenant, reward.coupon_campaign_id);
  if (!campaign?.coupon_id) return null;
  const coupon = campaign.coupon_params ?? {};
  const texts = campaign.texts;
  return {
    ...voucherCoupon({ ...coupon, id: campaign.coupon_id }, campaign),
    id: wireInt(campaign.coupon_id),
    name: texts.coupon_name ? localize(texts.coupon_name, ctx.language, ctx.settings) : (coupon.name ?? null),
    description: texts.coupon_description ? localize(texts.coupon_description, ctx.language, ctx.settings) : (coupon.description ?? null),
    features: coupon.features ?? [],
    product_ids: coupon.product_ids ?? [],
  };
}

export function redemptionView(redemption: RedemptionRecord) {
  return {
    id: wireInt(redemption.id),
    created_at: redemption.created_at,
    customer_id: wireInt(redemption.customer_id),
    customer_code: redemption.customer_code,
    location_id: wireOrNull(redemption.location_id),
    reward_id: wireInt(redemption.reward_id),
    score_expense: redemption.score_expense,
    code: redemption.code,
    status: redemption.status,
    status_detail: redemption.status_detail,
    source: redemption.source,
    origin_type: redemption.origin_type,
    origin_id: wireOrNull(redemption.origin_id),
    loyalty_rule_id: wireOrNull(redemption.loyalty_rule_id),
  };
}
