/**
 * The webhook events of merges (docs/webhooks.md): customer.merged when a
 * merge completes (POST /customers/transfer, or the asynchronous completion of
 * transfer-new), customer.unmerged on an unmerge. Data: both customers' ids
 * and codes and the merge's association, as the transaction leaves them.
 */
import { AssociationStore } from '../associations/store.js';
import { associationView } from '../associations/view.js';
import type { CustomerStore } from '../customers/store.js';
import { stringifyJson } from '../http/json.js';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { raiseEvent } from '../webhooks/outbox.js';

export interface MergeEvent {
  oldCustomerId: string;
  newCustomerId: string;
  associationId: string | undefined;
  /** customer.unmerged: whether the activities went back with it (with_activites). */
  withActivities?: boolean;
}

/** Inside `env.transact`. */
export function raiseMergeEvent(env: StoreEnv, customers: CustomerStore, tenant: Tenant, type: 'customer.merged' | 'customer.unmerged', event: MergeEvent): void {
  raiseEvent(env, tenant, type, () => {
    const association = event.associationId === undefined ? undefined : new AssociationStore(env).get(tenant, event.associationId);
    return stringifyJson({
      old_customer_id: wireInt(event.oldCustomerId),
      old_customer_code: customers.get(tenant, event.oldCustomerId)?.code ?? null,
      new_customer_id: wireInt(event.newCustomerId),
      new_customer_code: customers.get(tenant, event.newCustomerId)?.code ?? null,
      ...(event.withActivities === undefined ? {} : { with_activities: event.withActivities }),
      association: association ? associationView(association) : null,
    });
  }, () => [event.oldCustomerId, event.newCustomerId]);
}
