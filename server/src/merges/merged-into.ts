/**
 * The merged customers whose merged_to names a customer (a delete of it is refused while any remain,
 * docs/decisions.md). Found through the association each merge created (new -> old, with merge_id): the
 * customer holds it, or, once it was merged on itself, the customer holding its records now (its associations
 * moved there with them).
 */
import { AssociationStore } from '../associations/store.js';
import { accountHolder } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';

/** Inside a transaction: the ids, in the order of their merges' associations. */
export function mergedInto(env: StoreEnv, customers: CustomerStore, tenant: Tenant, record: CustomerRecord): string[] {
  const associations = new AssociationStore(env);
  const holders = new Set([record.id, accountHolder(customers, associations, tenant, record)?.id ?? record.id]);
  const merged = new Set<string>();
  for (const holder of holders) {
    for (const association of associations.ofCustomer(tenant, holder)) {
      if (association.merge_id === undefined) continue;
      const associate = customers.get(tenant, association.associate_customer_id);
      if (associate?.status === 'merged' && associate.merged_to === record.id) merged.add(associate.id);
    }
  }
  return [...merged];
}
