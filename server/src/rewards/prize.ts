/**
 * A reward as an instant-win prize: what it can still hand over to one
 * customer as a redemption at no points cost. The reward's own rules that
 * bind such a delivery (eligibility.ts): active, within its dates, stock left,
 * the customer's redeem_times in this redeem_chances period, and a coupon
 * reward's coupon not deleted. The rules of a customer choosing it from the
 * catalogue (countries, tiers, points, redemption_type, location) are the
 * instant win's own conditions' to decide (docs/decisions.md). Read by the
 * draw's context (context.prize_units), by the cart, trigger and custom-event
 * transactions' re-check, and by the delivery, so the three agree.
 */
import { LmdbCampaignStore } from '../campaigns/store.js';
import { localDate } from '../calendar/company-days.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { couponTarget, type VoucherTarget } from '../vouchers/issue.js';
import { redeemTimesLeft, redemptionPeriod, stockLeft, withinDates } from './eligibility.js';
import { RewardStore } from './store.js';
import type { RewardRecord } from './types.js';

export interface RewardPrize {
  reward: RewardRecord;
  /** The voucher a coupon reward issues; undefined for a reward without coupon. */
  target: VoucherTarget | undefined;
  /** Units it can still hand over to the customer; -1 = unlimited, 0 = none. */
  units: number;
}

/** undefined when the reward is gone. */
export function rewardPrize(env: StoreEnv, tenant: Tenant, settings: CompanySettings, rewardId: string, customerId: string, now: Date): RewardPrize | undefined {
  const rewards = new RewardStore(env);
  const reward = rewards.get(tenant, rewardId);
  if (!reward) return undefined;
  const campaign = reward.coupon_campaign_id === null ? undefined : new LmdbCampaignStore(env).get(tenant, reward.coupon_campaign_id);
  const target = campaign && couponTarget(campaign);
  // A coupon reward is its voucher: without the coupon (DELETE /coupons) nothing can be handed over.
  if (reward.status !== 'active' || !withinDates(reward, localDate(now, settings.timezone)) || (reward.coupon_campaign_id !== null && !target)) {
    return { reward, target, units: 0 };
  }
  const stock = stockLeft(rewards, reward, tenant);
  const times = redeemTimesLeft(rewards, reward, tenant, customerId, redemptionPeriod(reward, { now, settings }));
  return { reward, target, units: stock < 0 ? times : times < 0 ? stock : Math.min(stock, times) };
}

/** Units of the reward the customer can still win as a prize; -1 = unlimited. */
export function rewardPrizeUnits(env: StoreEnv, tenant: Tenant, settings: CompanySettings, rewardId: string, customerId: string, now: Date): number {
  return rewardPrize(env, tenant, settings, rewardId, customerId, now)?.units ?? 0;
}
