/**
 * The refer_a_friend system trigger (contract part 1, Events): raised when a
 * customer is created with referred_by. The event is recorded as a pending
 * trigger in the same transaction as the new customer; triggers/referrals.ts
 * consumes it (points for both customers) (docs/customers.md).
 */
import { allocateId } from '../store/ids.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

export interface PendingTrigger {
  id: string;
  trigger: 'refer_a_friend';
  /** The referred (new) customer. */
  customer_id: string;
  /** The inviting customer. */
  referred_by: string;
  created_at: string;
}

const db = (env: StoreEnv) => env.db('pending_triggers');

/** Inside a transaction. */
export function raiseReferral(env: StoreEnv, tenant: Tenant, customerId: string, referredBy: string, at: string): void {
  const id = allocateId(env, tenant, 'pending_trigger');
  const trigger: PendingTrigger = { id, trigger: 'refer_a_friend', customer_id: customerId, referred_by: referredBy, created_at: at };
  db(env).putSync([tenantPrefix(tenant), idKey(id)], trigger);
}
