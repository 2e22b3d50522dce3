/**
 * A POST or PATCH /rewards body → the reward to store. Each field sent
 * replaces the stored one. A coupon_id must name the coupon of a discount
 * campaign (its vouchers are what process_actions issues), and each tier a
 * level of an existing tier program, so a stored reward can always be redeemed
 * as configured.
 */
import { Decimal } from 'decimal.js';
import type { CampaignStore } from '../campaigns/store.js';
import { invalidRequest } from '../http/errors.js';
import type { TierStore } from '../tiers/store.js';
import type { Tenant } from '../tenancy/types.js';
import type { RewardsCreate, RewardsUpdate } from '../wire/types.js';
import type { RewardRecord, RewardTier } from './types.js';

export interface RewardWrite {
  tenant: Tenant;
  campaigns: CampaignStore;
  tiers: TierStore;
  now: string;
}

const DEFAULTS = {
  description: null, flexible_score_allowed: false, status: 'active', available_from: null, available_to: null,
  image_file_name: null, image_url: null, currency: null, countries: [], partner: null, total_stock: null,
  redeem_chances: 'always', redeem_times: null, validity_duration_number: null, validity_duration_unit_option: null,
  validity_duration_date: null, validity_duration_type: null, redemption_type: 'manual', tiers: [], location_ids: [],
} as const;

export function buildReward(write: RewardWrite, id: string, body: RewardsCreate | RewardsUpdate, previous?: RewardRecord): RewardRecord {
  const { extra_money, coupon_id, categories, ...plain } = body;
  const base = previous ?? { ...DEFAULTS, extra_money: null, categories: [], coupon_campaign_id: null, created_at: write.now };
  const reward = { ...base, ...plain, id, updated_at: write.now } as RewardRecord;
  if (extra_money !== undefined) reward.extra_money = extra_money === null ? null : new Decimal(extra_money).toFixed();
  if (categories !== undefined) reward.categories = categories.map((c) => ({ id: c.id, name: c.name, taxonomy_slug: c.taxonomy_slug ?? null, image_url: c.image_url ?? null }));
  if (coupon_id !== undefined) reward.coupon_campaign_id = coupon_id === null ? null : couponCampaign(write, coupon_id);
  if (reward.available_from !== null && reward.available_to !== null && reward.available_from > reward.available_to) {
    throw invalidRequest('available_to', 'is before available_from');
  }
  if (body.tiers !== undefined) body.tiers.forEach((tier, i) => checkTier(write, tier, `tiers[${i}]`));
  checkValidity(reward);
  return reward;
}

/** A validity the voucher of process_actions can take (rewards/validity.ts): a relative one needs its number and unit, a fixed one its date. */
function checkValidity(reward: RewardRecord): void {
  if (reward.validity_duration_type === 'relative') {
    if (reward.validity_duration_number === null) throw invalidRequest('validity_duration_number', 'is required for a relative validity');
    if (reward.validity_duration_unit_option === null) throw invalidRequest('validity_duration_unit_option', 'is required for a relative validity');
  }
  if (reward.validity_duration_type === 'fixed' && reward.validity_duration_date === null) {
    throw invalidRequest('validity_duration_date', 'is required for a fixed validity');
  }
}

function couponCampaign(write: RewardWrite, couponId: string): string {
  const campaign = write.campaigns.byCouponId(write.tenant, couponId);
  if (!campaign || campaign.type !== 'discount') throw invalidRequest('coupon_id', `${couponId} is not the coupon of a discount campaign`);
  return campaign.id;
}

function checkTier(write: RewardWrite, tier: RewardTier, field: string): void {
  const program = write.tiers.program(write.tenant, tier.program_id);
  if (!program) throw invalidRequest(`${field}.program_id`, `no tier program ${tier.program_id}`);
  if (!program.levels.some((l) => l.level === tier.level)) throw invalidRequest(`${field}.level`, `tier program ${tier.program_id} has no level ${tier.level}`);
}
