/**
 * Whether a customer can redeem a reward, and if not why: one list of missing
 * conditions, used both by the catalogue (can_redeem,
 * missing_redeem_conditions, restricted_by) and by the redemption itself, so
 * what the list says is what a redemption does. Conditions in the order a
 * redemption checks them.
 */
import { periodKey } from '@tally/engine';
import type { CustomerRecord } from '../customers/types.js';
import { localDate } from '../calendar/company-days.js';
import { ownCountry } from '../locations/registration.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { StoreEnv } from '../store/env.js';
import { heldStanding } from '../tiers/held.js';
import { appliesTo } from '../tiers/standing.js';
import type { TierStore } from '../tiers/store.js';
import type { RewardStore } from './store.js';
import type { RewardRecord } from './types.js';
import { voucherValidUntil } from './validity.js';

export type MissingReason = 'customer_status' | 'status' | 'redemption_type' | 'dates' | 'countries' | 'tiers' | 'redeem_times' | 'stock' | 'points';

export interface Missing {
  reason: MissingReason;
  message: string;
}

export interface Redeemer {
  tenant: Tenant;
  settings: CompanySettings;
  now: Date;
  customer: CustomerRecord;
  /** Points available now. */
  available: number;
  /** Points the redemption costs (score_overwrite or the reward's points). */
  cost: number;
}

export interface EligibilityStores {
  env: StoreEnv;
  rewards: RewardStore;
  tiers: TierStore;
}

/** The customer's country: its own, else the Company's (as carts read it). */
export function customerCountry(customer: CustomerRecord, settings: CompanySettings): string {
  return ownCountry(customer.profile, settings);
}

/** The redeem_chances period the redemption at `now` counts in. */
export function redemptionPeriod(reward: RewardRecord, redeemer: Pick<Redeemer, 'now' | 'settings'>): string {
  return periodKey(reward.redeem_chances, redeemer.now.toISOString(), redeemer.settings.timezone);
}

export function missingConditions(stores: EligibilityStores, reward: RewardRecord, r: Redeemer): Missing[] {
  const missing: Missing[] = [];
  const today = localDate(r.now, r.settings.timezone);
  // An inactive (or merged) customer redeems nothing: the catalogue says so instead of offering what the redemption refuses.
  if (r.customer.status !== 'active') missing.push({ reason: 'customer_status', message: `the customer is ${r.customer.status}` });
  if (reward.status !== 'active') missing.push({ reason: 'status', message: 'the reward is not active' });
  if (reward.redemption_type === 'loyalty_rule') missing.push({ reason: 'redemption_type', message: 'the reward is granted by loyalty rules only' });
  if (!withinDates(reward, today)) {
    missing.push({ reason: 'dates', message: `the reward is available from ${reward.available_from ?? 'always'} to ${reward.available_to ?? 'always'}` });
  }
  // A reward that issues a voucher valid until a fixed date that has passed would sell a voucher born expired.
  const vouchersUntil = reward.coupon_campaign_id === null ? undefined : voucherValidUntil(reward, r.now, r.settings.timezone);
  if (vouchersUntil !== undefined && Date.parse(vouchersUntil) < r.now.getTime()) {
    missing.push({ reason: 'dates', message: `the reward's vouchers were valid until ${vouchersUntil}` });
  }
  const country = customerCountry(r.customer, r.settings);
  if (reward.countries.length > 0 && !reward.countries.includes(country)) {
    missing.push({ reason: 'countries', message: `the reward is not offered in ${country}` });
  }
  if (reward.tiers.length > 0 && !reward.tiers.some((tier) => holdsTier(stores, r, tier.program_id, tier.level))) {
    missing.push({ reason: 'tiers', message: `the reward needs the tier level ${reward.tiers.map((t) => tierName(stores.tiers, r.tenant, t.program_id, t.level)).join(' or ')}` });
  }
  if (redeemTimesLeft(stores.rewards, reward, r.tenant, r.customer.id, redemptionPeriod(reward, r)) === 0) {
    missing.push({ reason: 'redeem_times', message: `the reward can be redeemed ${reward.redeem_times} times per ${reward.redeem_chances} period` });
  }
  if (stockLeft(stores.rewards, reward, r.tenant) === 0) {
    missing.push({ reason: 'stock', message: 'the reward is out of stock' });
  }
  // What is missing counts a debt (POST /points/redeem may leave the balance negative); a reward of 0 points spends nothing, so a debt does not stop it.
  if (r.cost > 0 && r.cost > r.available) missing.push({ reason: 'points', message: `${r.cost - r.available} more points are needed` });
  return missing;
}

/** Whether `today` (the Company's local date) is within the reward's available_from..available_to. */
export function withinDates(reward: RewardRecord, today: string): boolean {
  return (reward.available_from === null || today >= reward.available_from) && (reward.available_to === null || today <= reward.available_to);
}

/** Redemptions the customer has left in the redeem_chances period; -1 = unlimited. */
export function redeemTimesLeft(rewards: RewardStore, reward: RewardRecord, tenant: Tenant, customerId: string, period: string): number {
  return reward.redeem_times === null ? -1 : Math.max(0, reward.redeem_times - rewards.uses(tenant, customerId, reward.id, period));
}

/** Units of the reward not redeemed; -1 = unlimited. */
export function stockLeft(rewards: RewardStore, reward: RewardRecord, tenant: Tenant): number {
  return reward.total_stock === null ? -1 : Math.max(0, reward.total_stock - rewards.stockUsed(tenant, reward.id));
}

function holdsTier(stores: EligibilityStores, r: Redeemer, programId: string, level: number): boolean {
  const program = stores.tiers.program(r.tenant, programId);
  if (!program || !appliesTo(program, r.customer, r.settings)) return false;
  const held = heldStanding(stores.tiers, r.tenant, program, r.customer, r.now, r.settings.timezone).standing.current?.level;
  return held !== undefined && held >= level;
}

function tierName(tiers: TierStore, tenant: Tenant, programId: string, level: number): string {
  const program = tiers.program(tenant, programId);
  return `${program?.levels.find((l) => l.level === level)?.name ?? level} (${program?.name ?? programId})`;
}
