/**
 * Reward redemptions are customer-owned records: a merge moves them (with
 * their redeem_times uses), an unmerge gives them back, and they forbid a hard
 * delete (customers/owned-records.ts).
 */
import { CustomerStore } from '../customers/store.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { RewardStore } from './store.js';

export const rewardRedemptionsKind: CustomerOwnedKind = {
  name: 'reward_redemptions',
  critical: true,
  activities: false,
  ids(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
    return new RewardStore(env).idsOfCustomer(tenant, customerId);
  },
  reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], _from: string, to: string): void {
    const store = new RewardStore(env);
    const code = new CustomerStore(env).get(tenant, to)?.code ?? null;
    for (const id of ids) {
      const redemption = store.getRedemption(tenant, id);
      if (redemption) store.reassignInTransaction(tenant, redemption, to, code);
    }
  },
  removeAll(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new RewardStore(env);
    for (const id of store.idsOfCustomer(tenant, customerId)) store.removeInTransaction(tenant, store.getRedemption(tenant, id)!);
  },
  forgetCode(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new RewardStore(env);
    for (const id of store.idsOfCustomer(tenant, customerId)) {
      const redemption = store.getRedemption(tenant, id);
      if (redemption && redemption.customer_code !== null) store.reassignInTransaction(tenant, redemption, customerId, null);
    }
  },
};
