/**
 * The instant-win store: campaigns (versioned, see games/versioned-store.ts)
 * and, in `instant_win_deliveries`, [tenant, idKey(id)] -> PrizeDeliveryRecord.
 * Writes run inside the caller's `env.transact`; a campaign write must also
 * bump the campaigns' version (CampaignStore.bumpVersionInTransaction) so the
 * cart workers recompile.
 */
import type { Campaign } from '@tally/engine';
import { VersionedStore } from '../games/versioned-store.js';
import { wireInt } from '../http/wire.js';
import { isCartCampaign } from '../triggers/binding.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { InstantWinRecord, PrizeDeliveryRecord } from './types.js';

/** The campaign in the engine's shape: what the cart workers compile. */
export function toEngineInstantWin(record: Omit<InstantWinRecord, 'history_id'>): Campaign {
  return {
    id: record.id,
    type: 'instant_win',
    rule_params: record.rule_params,
    ...(record.static_code === null ? {} : { coupon_params: { static_code: record.static_code } }),
    prizes: record.prizes.map((prize) => ({
      id: prize.id,
      name: prize.name,
      ...(prize.description === null ? {} : { description: prize.description }),
      // No outcome is the contract's "no prize" (read as promotion_type ''): drawing it is not a win.
      // The promotion id as a number: the effect's prize_rule_id, written like rule_id.
      outcome: prize.outcome === null ? { promotion_type: '' } : { ...prize.outcome, promotion_id: wireInt(prize.outcome.promotion_id) },
      weight: prize.weight,
      stock: prize.stock,
      stock_management_strategy: prize.stock_management_strategy,
    })),
  };
}

export class InstantWinStore extends VersionedStore<InstantWinRecord> {
  constructor(env: StoreEnv) {
    super(env, 'instant_wins');
  }

  /**
   * The instant wins carts play (the engine skips inactive or out-of-date ones); those whose `when` names a trigger
   * or a custom event are drawn by that event only.
   */
  cartInstantWins(tenant: Tenant): InstantWinRecord[] {
    return this.all(tenant).filter((record) => isCartCampaign(record.rule_params));
  }

  getDelivery(tenant: Tenant, id: string): PrizeDeliveryRecord | undefined {
    return this.env.db('instant_win_deliveries').get([tenantPrefix(tenant), idKey(id)]) as PrizeDeliveryRecord | undefined;
  }

  /** Inside `env.transact`. */
  putDeliveryInTransaction(tenant: Tenant, delivery: PrizeDeliveryRecord): void {
    this.env.db('instant_win_deliveries').putSync([tenantPrefix(tenant), idKey(delivery.id)], delivery);
  }
}
