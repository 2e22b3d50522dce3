/**
 * Carts as customer-owned records (customers/owned-records.ts): a merge gives
 * the old customer's carts to the new one (the old customer becomes the
 * carts' associate_id), an unmerge with_activites gives them back. The
 * contract lists activities among the critical records that forbid a hard delete.
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { CustomerStore } from '../customers/store.js';
import { withoutCustomerCode } from './present.js';
import { CartStore } from './store.js';

export const cartsKind: CustomerOwnedKind = {
  name: 'activities',
  critical: true,
  activities: true,
  ids: (env, tenant, customerId) => new CartStore(env).idsOfCustomer(tenant, customerId),
  reassign(env, tenant, ids, _from, to) {
    const carts = new CartStore(env);
    const code = new CustomerStore(env).get(tenant, to)?.code ?? null;
    for (const id of ids) {
      const cart = carts.get(tenant, id);
      if (cart) carts.moveInTransaction(tenant, cart, to, code);
    }
  },
  removeAll(env, tenant, customerId) {
    const carts = new CartStore(env);
    for (const id of carts.idsOfCustomer(tenant, customerId)) {
      const cart = carts.get(tenant, id);
      if (cart) carts.removeInTransaction(tenant, cart);
    }
  },
  forgetCode(env, tenant, customerId) {
    const carts = new CartStore(env);
    for (const id of carts.idsOfCustomer(tenant, customerId)) {
      const cart = carts.get(tenant, id);
      if (cart) carts.putInTransaction(tenant, withoutCustomerCode(cart, customerId));
    }
  },
};
