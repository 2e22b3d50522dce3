/**
 * Delivery of the instant-win prizes an evaluation won. The cart (realtime),
 * trigger and custom-event writers call `deliverPrizes` inside their own
 * write transaction, with the draws of the engine's `writes.draws`, so a
 * prize is delivered exactly when the event that won it is stored:
 *   - points: credited through the points ledger, as a transaction of the
 *     winning event's type (activity, trigger, custom_entity) and origin;
 *   - game: one play of the targeted game, delivered as a game assignment
 *     (its id is the loyalty_rule_history_id the customer plays with);
 *   - reward: recorded as a pending delivery for the rewards module.
 * Every delivery is recorded in `instant_win_deliveries`.
 */
import type { DrawWrite } from '@tally/engine';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { GameStore } from '../games/store.js';
import { recordPoints } from '../points/ledger.js';
import type { PointsTransactionType } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import type { Tenant } from '../tenancy/types.js';
import { fixedPoints } from './points-prize.js';
import { InstantWinStore } from './store.js';
import type { InstantWinPrizeRecord, PrizeDeliveryRecord } from './types.js';

export interface PrizeWin {
  tenant: Tenant;
  /** The Company timezone (the ledger's dates). */
  timezone: string;
  now: Date;
  customer: { id: string; code: string | null };
  /** The winning event, as its points transaction records it: type and origin_info of the contract. */
  origin: { type: PointsTransactionType; origin_info: Record<string, unknown>; location_id?: string | null };
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
    const delivery = deliver(env, win, prize.outcome);
    const record: PrizeDeliveryRecord = {
      id: allocateId(env, win.tenant, 'instant_win_deliveries'),
      campaign_id: campaign.id,
      prize_id: prize.id,
      customer_id: win.customer.id,
      type: prize.outcome.promotion_type,
      promotion_id: prize.outcome.promotion_id,
      created_at: win.now.toISOString(),
      ...delivery,
    };
    instantWins.putDeliveryInTransaction(win.tenant, record);
    deliveries.push(record);
  }
  return deliveries;
}

type Delivered = Pick<PrizeDeliveryRecord, 'points_transaction_id' | 'loyalty_rule_history_id' | 'status'>;

function deliver(env: StoreEnv, win: PrizeWin, outcome: NonNullable<InstantWinPrizeRecord['outcome']>): Delivered {
  const { promotion_type: type, promotion_id: promotionId } = outcome;
  if (type === 'points') {
    const campaign = new LmdbCampaignStore(env).get(win.tenant, promotionId);
    const points = fixedPoints(campaign);
    // The campaign was checked when the instant win was written; one changed since then delivers nothing.
    if (points === null) return { points_transaction_id: null, loyalty_rule_history_id: null, status: 'pending' };
    const tx = recordPoints(env, win.tenant, { now: win.now, timezone: win.timezone }, {
      type: win.origin.type,
      customer_id: win.customer.id,
      customer_code: win.customer.code,
      location_id: win.origin.location_id ?? null,
      created_at: win.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      origin_info: win.origin.origin_info,
      grants: [{ campaign_id: promotionId, campaign_name: String(campaign!.rule_params.name ?? ''), amount: points }],
    });
    return { points_transaction_id: tx.id, loyalty_rule_history_id: null, status: 'delivered' };
  }
  if (type === 'game') {
    const id = allocateId(env, win.tenant, 'game_assignments');
    new GameStore(env).putAssignmentInTransaction(win.tenant, {
      id, game_id: promotionId, customer_id: win.customer.id, created_at: win.now.toISOString(), played_at: null,
    });
    return { points_transaction_id: null, loyalty_rule_history_id: id, status: 'delivered' };
  }
  return { points_transaction_id: null, loyalty_rule_history_id: null, status: 'pending' };
}
