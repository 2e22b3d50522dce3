/**
 * Deliveries of targeted games are customer-owned records
 * (customers/owned-records.ts): a merge moves them to the new customer, an
 * unmerge gives them back, a delete removes them. They are not among the
 * contract's critical relations, so they never block a hard delete.
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { GameStore } from './store.js';

export const gameDeliveriesKind: CustomerOwnedKind = {
  name: 'game deliveries',
  critical: false,
  activities: false,
  ids(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
    return new GameStore(env).assignmentsOf(tenant, customerId).map((assignment) => assignment.id);
  },
  reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], _from: string, to: string): void {
    const store = new GameStore(env);
    for (const id of ids) {
      const assignment = store.assignment(tenant, id);
      if (assignment) store.putAssignmentInTransaction(tenant, { ...assignment, customer_id: to }, assignment);
    }
  },
  removeAll(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new GameStore(env);
    for (const assignment of store.assignmentsOf(tenant, customerId)) store.removeAssignmentInTransaction(tenant, assignment);
  },
};
