/**
 * POST /rewards/{id}/redeem: in one write transaction, the conditions
 * (the customer's status among them, on the customer as the transaction reads
 * it) are checked again on the transaction's own view (so a merge committed
 * meanwhile is refused, and concurrent redemptions never overspend stock,
 * redeem_times or points), then the points are debited
 * through the ledger (a `reward` transaction), the stock unit and the
 * customer's use are counted, the redemption is stored and, with
 * process_actions, a voucher of the reward's coupon is issued (valid for the
 * reward's validity_duration_*, rewards/validity.ts). Checks come
 * before any write (a throw after a write would leave it in a group commit).
 * The answer's points are the balance the transaction left, read inside it
 * after its writes (not after the commit, which may count later writes).
 */
import { TallyError } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import { findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { TallyRequest } from '../http/types.js';
import { wireDatetime } from '../http/wire.js';
import { readBalance, recordPoints } from '../points/ledger.js';
import { clockOf } from '../points/request.js';
import type { Balance } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { couponTarget, generateVoucherCode, type VoucherTarget } from '../vouchers/issue.js';
import type { VoucherStore } from '../vouchers/store.js';
import { issueInTransaction } from '../vouchers/trigger.js';
import type { RewardsRedeem } from '../wire/types.js';
import { missingConditions, redemptionPeriod, type EligibilityStores, type Missing } from './eligibility.js';
import type { RedemptionRecord, RewardRecord } from './types.js';
import { rewardOrigin } from './origin.js';
import { voucherValidUntil } from './validity.js';

export interface RedeemStores extends EligibilityStores {
  env: StoreEnv;
  campaigns: CampaignStore;
  vouchers: VoucherStore;
  customers: CustomerStore;
}

export interface Redemption {
  customer: CustomerRecord;
  /** The body field naming the customer, for a refusal. */
  customerField: string;
  location: { id: string | null; code: string | null; country: string | null };
  body: RewardsRedeem;
}

/** The points a redemption costs: score_overwrite when sent (within 1..MAX_POINTS, its schema's wire type), else the reward's. */
export function redemptionCost(reward: RewardRecord, body: RewardsRedeem): number {
  return body.score_overwrite === undefined ? reward.points : Number(body.score_overwrite);
}

/** The error of the first missing condition. */
function refusal(reward: RewardRecord, missing: Missing, customerField: string): TallyError {
  const message = `id: reward ${reward.id}: ${missing.message}`;
  switch (missing.reason) {
    case 'customer_status':
      return new TallyError('customer_inactive', `${customerField}: ${missing.message}`, customerField);
    case 'points':
      return new TallyError('customer_not_enough_score', message, 'id');
    case 'stock':
    case 'redeem_times':
      return new TallyError('conflict', message, 'id');
    default:
      return new TallyError('forbidden_request', message, 'id');
  }
}

/**
 * What process_actions issues: a voucher of the reward's coupon. A coupon reward whose coupon was deleted
 * (DELETE /coupons) is refused rather than charged for a voucher nobody receives; a reward without coupon
 * issues nothing, as before.
 */
function voucherTarget(campaigns: CampaignStore, req: TallyRequest, reward: RewardRecord): VoucherTarget | undefined {
  if (reward.coupon_campaign_id === null) return undefined;
  const campaign = campaigns.get(req.tenant, reward.coupon_campaign_id);
  const target = campaign && couponTarget(campaign);
  if (!target) throw new TallyError('forbidden_request', `process_actions: reward ${reward.id}: its coupon was deleted, so no voucher can be issued`, 'process_actions');
  return target;
}

export interface Redeemed {
  record: RedemptionRecord;
  /** The customer's balance right after the redemption's transaction. */
  balance: Balance;
}

/** Whether the reward is offered at the location: one of its `location_ids`, or without them any store of its countries (as the catalogue of a location lists it). */
function offeredAt(reward: RewardRecord, location: Redemption['location']): boolean {
  if (reward.location_ids.length > 0) return location.id !== null && reward.location_ids.includes(location.id);
  return reward.countries.length === 0 || location.country === null || reward.countries.includes(location.country);
}

export async function redeemReward(stores: RedeemStores, req: TallyRequest, rewardId: string, redemption: Redemption): Promise<Redeemed> {
  const { env, rewards, campaigns, vouchers, customers } = stores;
  const { customerField, location, body } = redemption;
  const clock = clockOf(req);
  const at = wireDatetime(req.now);
  return env.transact(() => {
    // Read again: a merge or status change committed since the request's check is a missing condition.
    const customer = findCustomer(customers, req.tenant, 'id', redemption.customer.id, customerField);
    const reward = rewards.get(req.tenant, rewardId);
    if (!reward) throw new TallyError('reward_not_found', `id: no reward ${rewardId}`, 'id');
    if (!offeredAt(reward, location)) {
      throw new TallyError('forbidden_request', `location_id: reward ${reward.id} is not offered at this location`, 'location_id');
    }
    const cost = redemptionCost(reward, body);
    const available = readBalance(env, req.tenant, customer.id, clock).score_available;
    const missing = missingConditions(stores, reward, { tenant: req.tenant, settings: req.settings, now: req.now, customer, available, cost });
    if (missing.length > 0) throw refusal(reward, missing[0], customerField);
    const target = body.process_actions ? voucherTarget(campaigns, req, reward) : undefined;

    const tx = recordPoints(env, req.tenant, clock, {
      type: 'reward',
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      location_id: location.id,
      created_at: at,
      origin_info: { reward: rewardOrigin(reward, req.settings) },
      spend: cost,
    });
    const voucher = target && issueInTransaction(env, vouchers, req.tenant, req.settings, target, { customer_id: customer.id }, req.now, voucherValidUntil(reward, req.now, req.settings.timezone));
    const record: RedemptionRecord = {
      id: allocateId(env, req.tenant, 'redemptions'),
      created_at: at.slice(0, 19).replace('T', ' '),
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      location_id: location.id,
      location_code: location.code,
      reward_id: reward.id,
      score_expense: cost,
      code: generateVoucherCode(),
      status: 'available',
      status_detail: null,
      source: body.source ?? 'api',
      origin_type: null,
      origin_id: null,
      loyalty_rule_id: null,
      points_transaction_id: tx.id,
      voucher_id: voucher?.id ?? null,
      period_key: redemptionPeriod(reward, req),
    };
    rewards.addRedemptionInTransaction(req.tenant, record);
    return { record, balance: readBalance(env, req.tenant, customer.id, clock) };
  });
}
