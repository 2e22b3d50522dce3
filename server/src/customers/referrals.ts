/**
 * The refer_a_friend system trigger (contract part 1, Events): raised when a
 * customer is created with referred_by. The event is recorded as a pending
 * trigger in the same transaction as the new customer; triggers/referrals.ts
 * consumes it (points for both customers) (docs/customers.md). A hard delete
 * marks the customer's role in its pending referrals (forgetHardDeleted).
 */
import { allocateId } from '../store/ids.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

export interface PendingTrigger {
  id: string;
  trigger: 'refer_a_friend';
  /** The referred (new) customer. */
  customer_id: string;
  /** The inviting customer. */
  referred_by: string;
  created_at: string;
  /** Roles whose customer was hard-deleted since: its id may be taken by a new customer, who is not the one named. */
  deleted?: ReferralRole[];
}

export type ReferralRole = 'referrer' | 'referred';

const db = (env: StoreEnv) => env.db('pending_triggers');

/** Inside a transaction. */
export function raiseReferral(env: StoreEnv, tenant: Tenant, customerId: string, referredBy: string, at: string): void {
  const id = allocateId(env, tenant, 'pending_trigger');
  const trigger: PendingTrigger = { id, trigger: 'refer_a_friend', customer_id: customerId, referred_by: referredBy, created_at: at };
  db(env).putSync([tenantPrefix(tenant), idKey(id)], trigger);
}

/**
 * Inside the hard delete's transaction: the customer's roles in its Company environment's pending referrals are
 * marked deleted, so a customer created later with the same id is not rewarded for them. Pending referrals are
 * few (the consumer drains them every 200 ms): the range is read whole.
 */
export function forgetHardDeleted(env: StoreEnv, tenant: Tenant, customerId: string): void {
  for (const { key, value } of [...db(env).getRange(under([tenantPrefix(tenant)]))]) {
    const pending = value as PendingTrigger;
    const roles: ReferralRole[] = [];
    if (pending.referred_by === customerId) roles.push('referrer');
    if (pending.customer_id === customerId) roles.push('referred');
    if (roles.length > 0) db(env).putSync(key, { ...pending, deleted: [...(pending.deleted ?? []), ...roles] });
  }
}
