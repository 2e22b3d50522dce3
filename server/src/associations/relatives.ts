/**
 * A customer's associations as customer-owned records ("relatives" in the
 * contract's merge list): a merge gives the old customer's associations to the
 * new customer, those it owns and those it is the associate of; deleting a
 * customer removes the associations on both sides.
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { AssociationStore } from './store.js';

export const relativesKind: CustomerOwnedKind = {
  name: 'relatives',
  critical: false,
  activities: false,
  ids: (env, tenant, customerId) => {
    const store = new AssociationStore(env);
    return [...store.ofCustomer(tenant, customerId), ...store.asAssociate(tenant, customerId)].map((a) => a.id);
  },
  reassign(env, tenant, ids, from, to) {
    const store = new AssociationStore(env);
    for (const id of ids) {
      const association = store.get(tenant, id)!;
      const owner = association.customer_id === from ? to : association.customer_id;
      const associate = association.associate_customer_id === from ? to : association.associate_customer_id;
      // The pair of the two customers themselves stays where it is (the merge makes it inactive, the unmerge active again);
      // one of neither (an unmerge down a chain) does not move.
      if (owner === associate || (owner === association.customer_id && associate === association.associate_customer_id)) continue;
      // One active association per pair: the receiver's own one wins.
      const active = association.active && !store.active(tenant, owner, associate);
      store.put(tenant, { ...association, customer_id: owner, associate_customer_id: associate, active }, association);
    }
  },
  removeAll(env, tenant, customerId) {
    const store = new AssociationStore(env);
    for (const association of [...store.ofCustomer(tenant, customerId), ...store.asAssociate(tenant, customerId)]) {
      store.remove(tenant, association);
    }
  },
};
