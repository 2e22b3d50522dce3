/** The customer a campaign or voucher operation names by customer_id or customer_code (at most one). */
import { findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { invalidRequest } from '../http/errors.js';
import type { Tenant } from '../tenancy/types.js';

export interface CustomerRef {
  customer_id?: string;
  customer_code?: string;
}

/** Throws invalid_request when both are given, customer_not_found when absent; undefined when neither is given. */
export function optionalCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord | undefined {
  if (ref.customer_id !== undefined && ref.customer_code !== undefined) {
    throw invalidRequest('customer_code', 'cannot be sent with customer_id');
  }
  if (ref.customer_id !== undefined) return findCustomer(store, tenant, 'id', ref.customer_id, 'customer_id');
  if (ref.customer_code !== undefined) return findCustomer(store, tenant, 'code', ref.customer_code, 'customer_code');
  return undefined;
}

export function requireCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord {
  const customer = optionalCustomer(store, tenant, ref);
  if (!customer) throw invalidRequest('customer_id', 'is required (or customer_code)');
  return customer;
}
