/**
 * Vouchers and discount redemptions are customer-owned records: a merge moves
 * them, an unmerge gives them back, and they forbid a hard delete
 * (customers/owned-records.ts).
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { LmdbVoucherStore } from './store.js';
import { DiscountTransactionStore } from './transactions.js';

export const vouchersKind: CustomerOwnedKind = {
  name: 'vouchers',
  critical: true,
  activities: false,
  ids(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
    return new LmdbVoucherStore(env).ofCustomer(tenant, customerId).map((voucher) => voucher.id);
  },
  reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], _from: string, to: string): void {
    const store = new LmdbVoucherStore(env);
    for (const id of ids) {
      const voucher = store.get(tenant, id);
      if (voucher) store.reassignInTransaction(tenant, voucher, to);
    }
  },
  removeAll(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new LmdbVoucherStore(env);
    for (const voucher of store.ofCustomer(tenant, customerId)) store.removeInTransaction(tenant, voucher);
  },
};

export const discountRedemptionsKind: CustomerOwnedKind = {
  name: 'redemptions',
  critical: true,
  activities: false,
  ids(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
    return new DiscountTransactionStore(env).ofCustomer(tenant, customerId).map((transaction) => transaction.id);
  },
  reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], _from: string, to: string): void {
    const store = new DiscountTransactionStore(env);
    for (const id of ids) {
      const transaction = store.get(tenant, id);
      if (transaction) store.reassignInTransaction(tenant, transaction, to);
    }
  },
  removeAll(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new DiscountTransactionStore(env);
    for (const transaction of store.ofCustomer(tenant, customerId)) store.removeInTransaction(tenant, transaction);
  },
  forgetCode(env: StoreEnv, tenant: Tenant, customerId: string): void {
    const store = new DiscountTransactionStore(env);
    for (const transaction of store.ofCustomer(tenant, customerId)) {
      if (transaction.customer_code !== null) store.putInTransaction(tenant, { ...transaction, customer_code: null });
    }
  },
};
