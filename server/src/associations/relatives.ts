/**
 * A customer's associations as customer-owned records ("relatives" in the
 * contract's merge list): a merge gives the old customer's associations to the
 * new customer; deleting a customer removes the associations on both sides.
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { AssociationStore } from './store.js';

export const relativesKind: CustomerOwnedKind = {
  name: 'relatives',
  critical: false,
  activities: false,
  ids: (env, tenant, customerId) => new AssociationStore(env).ofCustomer(tenant, customerId).map((a) => a.id),
  reassign(env, tenant, ids, _from, to) {
    const store = new AssociationStore(env);
    for (const id of ids) {
      const association = store.get(tenant, id)!;
      // An association with the receiving customer itself has no meaning there: it stays.
      if (association.associate_customer_id === to) continue;
      // One active association per pair: the receiver's own one wins.
      const active = association.active && !store.active(tenant, to, association.associate_customer_id);
      store.put(tenant, { ...association, customer_id: to, active }, association);
    }
  },
  removeAll(env, tenant, customerId) {
    const store = new AssociationStore(env);
    for (const association of [...store.ofCustomer(tenant, customerId), ...store.asAssociate(tenant, customerId)]) {
      store.remove(tenant, association);
    }
  },
};
