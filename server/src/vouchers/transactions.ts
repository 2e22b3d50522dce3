/**
 * Discount transactions: one per POST /discounts/redeem, listed by
 * GET /discounts/transactions (all, or one customer's), newest ids last.
 * Keys: `discount_transactions` [tenant, 'all', idKey(id)] and
 * [tenant, 'customer', idKey(customer_id), idKey(id)] -> DiscountTransaction.
 */
import { toMoney } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';

export interface DiscountTransaction {
  id: string;
  created_at: string;
  /** The discount in cents. */
  amount_cents: number;
  customer_id: string;
  customer_code: string | null;
  /** The cart (activity) id, when the redemption named one by id. */
  activity_id: string | null;
  activity_code: string | null;
  campaign_id: string;
  voucher_id: string | null;
  voucher_code: string;
}

/** A discount transaction as GET /discounts/transactions lists it. */
export function discountTransactionView(t: DiscountTransaction) {
  return {
    id: wireInt(t.id),
    created_at: t.created_at,
    amount: toMoney(t.amount_cents),
    customer_id: wireInt(t.customer_id),
    activity_id: t.activity_id === null ? null : wireInt(t.activity_id),
  };
}

export class DiscountTransactionStore {
  constructor(private readonly env: StoreEnv) {}

  private get db() {
    return this.env.db('discount_transactions');
  }

  /** Inside `env.transact`. */
  putInTransaction(tenant: Tenant, transaction: DiscountTransaction): void {
    const prefix = tenantPrefix(tenant);
    this.db.putSync([prefix, 'all', idKey(transaction.id)], transaction);
    this.db.putSync([prefix, 'customer', idKey(transaction.customer_id), idKey(transaction.id)], transaction);
  }

  /** A customer's transactions, in id order. */
  ofCustomer(tenant: Tenant, customerId: string): DiscountTransaction[] {
    const prefix = [tenantPrefix(tenant), 'customer', idKey(customerId)];
    return [...this.db.getRange(under(prefix))].map(({ value }) => value as DiscountTransaction);
  }

  get(tenant: Tenant, id: string): DiscountTransaction | undefined {
    return this.db.get([tenantPrefix(tenant), 'all', idKey(id)]) as DiscountTransaction | undefined;
  }

  /** Inside `env.transact`: the transaction now belongs to `customerId` (merges). */
  reassignInTransaction(tenant: Tenant, transaction: DiscountTransaction, customerId: string): void {
    this.removeInTransaction(tenant, transaction);
    this.putInTransaction(tenant, { ...transaction, customer_id: customerId });
  }

  /** Inside `env.transact`. */
  removeInTransaction(tenant: Tenant, transaction: DiscountTransaction): void {
    const prefix = tenantPrefix(tenant);
    this.db.removeSync([prefix, 'all', idKey(transaction.id)]);
    this.db.removeSync([prefix, 'customer', idKey(transaction.customer_id), idKey(transaction.id)]);
  }

  page<T>(tenant: Tenant, customerId: string | undefined, page: PageRequest, toItem: (t: DiscountTransaction) => T): Page<T> {
    const prefix = customerId === undefined ? [tenantPrefix(tenant), 'all'] : [tenantPrefix(tenant), 'customer', idKey(customerId)];
    return paginate(this.db, prefix, page, toItem);
  }
}
