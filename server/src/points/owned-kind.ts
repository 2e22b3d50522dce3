/**
 * The ledger's records as customer-owned records (customers/owned-records.ts):
 * a merge gives the old customer's points transactions to the new customer,
 * with the dated points they granted (their buckets, as much as is left), so
 * the new customer's balance is the sum of both ledgers (and an unmerge
 * gives them back the same way). The contract lists
 * score transactions among the critical records that forbid a hard delete.
 */
import { CustomerStore } from '../customers/store.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { customerTransactionIds, forgetCustomerCode, moveTransactions, removeCustomerLedger } from './ledger.js';

export const pointsKind: CustomerOwnedKind = {
  name: 'score transactions',
  critical: true,
  activities: false,
  ids: customerTransactionIds,
  reassign(env, tenant, ids, from, to) {
    const customers = new CustomerStore(env);
    const ref = (id: string) => ({ id, code: customers.get(tenant, id)?.code ?? null });
    moveTransactions(env, tenant, ids, ref(from), ref(to), new Date());
  },
  removeAll: removeCustomerLedger,
  forgetCode: forgetCustomerCode,
};
