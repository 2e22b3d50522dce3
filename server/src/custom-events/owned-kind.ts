/** Custom events as customer-owned records: a merge gives them to the new customer. */
import { CustomerStore } from '../customers/store.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { CustomEventStore } from './store.js';

export const customEventsKind: CustomerOwnedKind = {
  name: 'custom events',
  critical: false,
  activities: false,
  ids: (env, tenant, customerId) => new CustomEventStore(env).seqsOf(tenant, customerId),
  reassign(env, tenant, ids, from, to) {
    new CustomEventStore(env).moveAll(tenant, from, to, new CustomerStore(env).get(tenant, to)?.code ?? null, ids);
  },
  removeAll(env, tenant, customerId) {
    new CustomEventStore(env).removeAll(tenant, customerId);
  },
};
