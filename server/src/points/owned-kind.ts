/**
 * The ledger's records as customer-owned records (customers/owned-records.ts):
 * a merge gives the old customer's points transactions to the new customer,
 * with the dated points they granted (their buckets, as much as is left), so
 * the new customer's balance is the sum of both ledgers. The contract lists
 * score transactions among the critical records that forbid a hard delete.
 */
import { CustomerStore } from '../customers/store.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { customerTransactionIds, moveTransactions, removeCustomerLedger } from './ledger.js';

export const pointsKind: CustomerOwnedKind = {
  name: 'score transactions',
  critical: true,
  activities: false,
  ids: customerTransactionIds,
  reassign: (env, tenant, ids, from, to) => moveTransactions(env, tenant, ids, from, to, new CustomerStore(env).get(tenant, to)?.code ?? null),
  removeAll: removeCustomerLedger,
};
