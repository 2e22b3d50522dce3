/**
 * POST /rewards/transactions/{id}/rollback (+ /redemptions/{id}/rollback): in
 * one transaction the redemption becomes `reverted` with its status_detail,
 * its points transaction is reversed through the ledger (the points it took
 * come back exactly), its stock unit and the customer's use are given back,
 * and a voucher it issued is deleted unless already used. A redemption is
 * reverted once (409 conflict after that).
 */
import { TallyError } from '@tally/engine';
import type { TallyRequest } from '../http/types.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { reversePoints } from '../points/ledger.js';
import { clockOf } from '../points/request.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { VoucherStore } from '../vouchers/store.js';
import type { RewardStore } from './store.js';
import { rewardOrigin } from './origin.js';
import type { RedemptionRecord } from './types.js';

export interface RollbackStores {
  env: StoreEnv;
  rewards: RewardStore;
  vouchers: VoucherStore;
}

export async function rollbackRedemption(stores: RollbackStores, req: TallyRequest, id: string, statusDetail: string): Promise<RedemptionRecord> {
  const { env, rewards } = stores;
  return env.transact(() => {
    const redemption = rewards.getRedemption(req.tenant, id);
    if (!redemption) throw new TallyError('redemption_not_found', `id: no reward transaction ${id}`, 'id');
    if (redemption.status === 'reverted') throw new TallyError('conflict', `id: reward transaction ${id} is already reverted`, 'id');
    return revertRedemption(stores, req.tenant, req.settings, req.now, redemption, statusDetail);
  });
}

/** Inside `env.transact`: reverts a redemption that is not reverted (also a reward prize of a cancelled cart). */
export function revertRedemption(stores: RollbackStores, tenant: Tenant, settings: CompanySettings, now: Date, redemption: RedemptionRecord, statusDetail: string): RedemptionRecord {
  const { env, rewards, vouchers } = stores;
  const reward = rewards.get(tenant, redemption.reward_id);
  reversePoints(env, tenant, clockOf({ now, settings }), redemption.points_transaction_id, {
    type: 'reward',
    created_at: wireDatetime(now),
    // reward {id, name, type}, as the redemption's own transaction names it (a reward deleted since: its id only).
    origin_info: { reward: reward ? rewardOrigin(reward, settings) : { id: wireInt(redemption.reward_id) }, redemption_id: wireInt(redemption.id), status_detail: statusDetail },
  });
  const voucher = redemption.voucher_id === null ? undefined : vouchers.get(tenant, redemption.voucher_id);
  if (voucher && voucher.redemptions === 0) vouchers.putInTransaction(tenant, { ...voucher, status: 'deleted' });
  return rewards.revertInTransaction(tenant, redemption, statusDetail);
}
