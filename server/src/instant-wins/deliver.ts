/**
 * Delivery of the instant-win prizes an evaluation won. The cart (realtime),
 * trigger and custom-event writers call `deliverPrizes` inside their own
 * write transaction, with the draws of the engine's `writes.draws`, so a
 * prize is delivered exactly when the event that won it is stored:
 *   - points: credited through the points ledger, as a transaction of the
 *     winning event's type (activity, trigger, custom_entity) and origin;
 *   - game: one play of the targeted game, delivered as a game assignment
 *     (its id is the loyalty_rule_history_id the customer plays with);
 *   - reward: redeemed for the customer at no points cost (a redemption with
 *     source and origin_type `instant_win`, counted in the reward's stock),
 *     with a voucher of its coupon when it has one, as process_actions issues.
 *     A reward that cannot be handed over (rewards/prize.ts) is not won: the
 *     draw treats it as out of stock and the writers re-check it in their
 *     transaction (recheck.ts) before any write, so `pending` is left for a
 *     points campaign changed since the draw.
 * Every delivery is recorded in `instant_win_deliveries` and raises instant_win.won. The cancellation
 * of a cart takes its prizes back with `takeBackPrizes`.
 */
import { periodKey, type DrawWrite } from '@tally/engine';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { GameStore } from '../games/store.js';
import { stringifyJson } from '../http/json.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { recordPoints, reversePoints } from '../points/ledger.js';
import type { OriginCart, PointsTransactionType } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { rewardOrigin } from '../rewards/origin.js';
import { rewardPrize } from '../rewards/prize.js';
import { revertRedemption } from '../rewards/rollback.js';
import { RewardStore } from '../rewards/store.js';
import type { RedemptionRecord } from '../rewards/types.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { generateVoucherCode } from '../vouchers/issue.js';
import { LmdbVoucherStore, type VoucherStore } from '../vouchers/store.js';
import { issueInTransaction } from '../vouchers/trigger.js';
import { voucherValidUntil } from '../rewards/validity.js';
import { raiseEvent } from '../webhooks/outbox.js';
import { fixedPoints } from './points-prize.js';
import { InstantWinStore } from './store.js';
import type { InstantWinPrizeRecord, PrizeDeliveryRecord } from './types.js';

export interface PrizeWin {
  tenant: Tenant;
  /** The Company's settings (the ledger's dates are in its timezone; names in its default language). */
  settings: CompanySettings;
  now: Date;
  customer: { id: string; code: string | null };
  /**
   * The winning event, as its points transaction records it: type and origin_info of the contract (with the
   * points as `score` when `scoreInOrigin`, as custom events record it), or the realtime cart whose stored answer
   * is its origin_info.
   */
  origin: { type: PointsTransactionType; location_id?: string | null } & ({ origin_info: Record<string, unknown>; scoreInOrigin?: boolean } | { origin_cart: OriginCart });
}

/** Call inside `env.transact`. Returns the deliveries made (draws without a prize deliver nothing). */
export function deliverPrizes(env: StoreEnv, win: PrizeWin, draws: readonly DrawWrite[]): PrizeDeliveryRecord[] {
  const instantWins = new InstantWinStore(env);
  const deliveries: PrizeDeliveryRecord[] = [];
  for (const draw of draws) {
    if (draw.prize_id === null) continue;
    const campaign = instantWins.get(win.tenant, String(draw.campaign_id));
    const prize = campaign?.prizes.find((p) => p.id === String(draw.prize_id));
    if (!campaign || !prize?.outcome) continue;
    const delivery = deliver(env, win, campaign.id, prize.outcome);
    const record: PrizeDeliveryRecord = {
      id: allocateId(env, win.tenant, 'instant_win_deliveries'),
      campaign_id: campaign.id,
      prize_id: prize.id,
      customer_id: win.customer.id,
      type: prize.outcome.promotion_type,
      promotion_id: prize.outcome.promotion_id,
      created_at: wireDatetime(win.now),
      ...delivery,
    };
    instantWins.putDeliveryInTransaction(win.tenant, record);
    raiseEvent(env, win.tenant, 'instant_win.won', () => stringifyJson(wonView(win, record)), () => [win.customer.id]);
    deliveries.push(record);
  }
  return deliveries;
}

/** The data of instant_win.won: the delivery as recorded, with the customer and the winning event. */
function wonView(win: PrizeWin, record: PrizeDeliveryRecord) {
  const id = (value: string | null) => (value === null ? null : wireInt(value));
  const { origin } = win;
  return {
    id: wireInt(record.id),
    campaign_id: wireInt(record.campaign_id),
    prize_id: wireInt(record.prize_id),
    customer_id: wireInt(win.customer.id),
    customer_code: win.customer.code,
    type: record.type,
    promotion_id: wireInt(record.promotion_id),
    status: record.status,
    points_transaction_id: id(record.points_transaction_id),
    loyalty_rule_history_id: id(record.loyalty_rule_history_id),
    redemption_id: id(record.redemption_id),
    created_at: record.created_at,
    origin: {
      type: origin.type,
      location_id: id(origin.location_id ?? null),
      ...('origin_cart' in origin ? { cart_id: wireInt(origin.origin_cart.cart_id) } : { origin_info: origin.origin_info }),
    },
  };
}

type Delivered = Pick<PrizeDeliveryRecord, 'points_transaction_id' | 'loyalty_rule_history_id' | 'redemption_id' | 'status'>;

const PENDING: Delivered = { points_transaction_id: null, loyalty_rule_history_id: null, redemption_id: null, status: 'pending' };

function deliver(env: StoreEnv, win: PrizeWin, campaignId: string, outcome: NonNullable<InstantWinPrizeRecord['outcome']>): Delivered {
  const { promotion_type: type, promotion_id: promotionId } = outcome;
  if (type === 'points') {
    const campaign = new LmdbCampaignStore(env).get(win.tenant, promotionId);
    const points = fixedPoints(campaign);
    // The campaign was checked when the instant win was written; one changed since then delivers nothing.
    if (points === null) return PENDING;
    const tx = recordPoints(env, win.tenant, { now: win.now, timezone: win.settings.timezone }, {
      type: win.origin.type,
      customer_id: win.customer.id,
      customer_code: win.customer.code,
      location_id: win.origin.location_id ?? null,
      created_at: wireDatetime(win.now),
      ...('origin_cart' in win.origin
        ? { origin_cart: win.origin.origin_cart }
        : { origin_info: win.origin.scoreInOrigin ? { score: points, ...win.origin.origin_info } : win.origin.origin_info }),
      grants: [{ campaign_id: promotionId, campaign_name: String(campaign!.rule_params.name ?? ''), amount: points }],
    });
    return { ...PENDING, points_transaction_id: tx.id, status: 'delivered' };
  }
  if (type === 'game') {
    const id = allocateId(env, win.tenant, 'game_assignments');
    new GameStore(env).putAssignmentInTransaction(win.tenant, {
      id, game_id: promotionId, customer_id: win.customer.id, created_at: wireDatetime(win.now), played_at: null,
    });
    return { ...PENDING, loyalty_rule_history_id: id, status: 'delivered' };
  }
  return redeemReward(env, win, campaignId, promotionId);
}

function redeemReward(env: StoreEnv, win: PrizeWin, campaignId: string, rewardId: string): Delivered {
  // The draw and its transaction's re-check read the same units (rewards/prize.ts): none left is not reached here.
  const prize = rewardPrize(env, win.tenant, win.settings, rewardId, win.customer.id, win.now);
  if (!prize || prize.units === 0) return PENDING;
  const { reward, target } = prize;
  const at = wireDatetime(win.now);
  // A zero-point `reward` transaction: the customer's points history shows the reward, and a rollback has one to reverse.
  const tx = recordPoints(env, win.tenant, { now: win.now, timezone: win.settings.timezone }, {
    type: 'reward',
    customer_id: win.customer.id,
    customer_code: win.customer.code,
    location_id: win.origin.location_id ?? null,
    created_at: at,
    origin_info: { reward: rewardOrigin(reward, win.settings) },
  });
  const voucher = target && issueInTransaction(env, new LmdbVoucherStore(env), win.tenant, win.settings, target, { customer_id: win.customer.id }, win.now, voucherValidUntil(reward, win.now, win.settings.timezone));
  const redemption: RedemptionRecord = {
    id: allocateId(env, win.tenant, 'redemptions'),
    created_at: at.slice(0, 19).replace('T', ' '),
    customer_id: win.customer.id,
    customer_code: win.customer.code,
    location_id: win.origin.location_id ?? null,
    location_code: null,
    reward_id: reward.id,
    score_expense: 0,
    code: generateVoucherCode(),
    status: 'available',
    status_detail: null,
    source: 'instant_win',
    origin_type: 'instant_win',
    origin_id: campaignId,
    loyalty_rule_id: campaignId,
    points_transaction_id: tx.id,
    voucher_id: voucher?.id ?? null,
    period_key: periodKey(reward.redeem_chances, win.now.toISOString(), win.settings.timezone),
  };
  new RewardStore(env).addRedemptionInTransaction(win.tenant, redemption);
  return { ...PENDING, redemption_id: redemption.id, status: 'delivered' };
}

/** The cancellation taking a cart's prizes back: its reversal's origin (the mirror cart) and the redemption's status_detail. */
export interface PrizeTakeBack {
  tenant: Tenant;
  settings: CompanySettings;
  now: Date;
  origin: { type: PointsTransactionType; origin_cart: OriginCart; location_id: string | null };
  reason: string;
}

/**
 * Call inside the cancellation's `env.transact`: takes back what the deliveries gave, as rollbacks do. Points
 * are reversed through the ledger (their own transaction, as they were granted); a reward's redemption is
 * reverted (its stock and use given back, an unused voucher deleted); a game play not played yet is removed
 * (one played stays: its prize was given). Each delivery becomes `reverted`.
 */
export function takeBackPrizes(env: StoreEnv, vouchers: VoucherStore, back: PrizeTakeBack, deliveryIds: readonly string[]): void {
  const instantWins = new InstantWinStore(env);
  const games = new GameStore(env);
  const rewards = new RewardStore(env);
  const clock = { now: back.now, timezone: back.settings.timezone };
  for (const id of deliveryIds) {
    const delivery = instantWins.getDelivery(back.tenant, id);
    if (!delivery || delivery.status !== 'delivered') continue;
    if (delivery.points_transaction_id !== null && delivery.type === 'points') {
      reversePoints(env, back.tenant, clock, delivery.points_transaction_id, { ...back.origin, created_at: wireDatetime(back.now) });
    }
    const play = delivery.loyalty_rule_history_id === null ? undefined : games.assignment(back.tenant, delivery.loyalty_rule_history_id);
    if (play && play.played_at === null) games.removeAssignmentInTransaction(back.tenant, play);
    const redemption = delivery.redemption_id === null ? undefined : rewards.getRedemption(back.tenant, delivery.redemption_id);
    if (redemption && redemption.status !== 'reverted') revertRedemption({ env, rewards, vouchers }, back.tenant, back.settings, back.now, redemption, back.reason);
    instantWins.putDeliveryInTransaction(back.tenant, { ...delivery, status: 'reverted' });
  }
}
