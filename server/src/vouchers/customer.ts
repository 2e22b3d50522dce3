/**
 * The customer a campaign or voucher operation names, by id or by code
 * (exactly one). A deleted customer is not found.
 */
import { TallyError } from '@tally/engine';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { invalidRequest } from '../http/errors.js';
import type { Tenant } from '../tenancy/types.js';

export interface CustomerRef {
  customer_id?: string;
  customer_code?: string;
}

/** Throws invalid_request when both are given; undefined when neither is. */
export function optionalCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord | undefined {
  if (ref.customer_id !== undefined && ref.customer_code !== undefined) {
    throw invalidRequest('customer_code', 'cannot be sent with customer_id');
  }
  if (ref.customer_id === undefined && ref.customer_code === undefined) return undefined;
  const id = ref.customer_id ?? store.findId(tenant, 'code', ref.customer_code!);
  const customer = id === undefined ? undefined : store.get(tenant, id);
  if (!customer || customer.deleted_at !== undefined) {
    const field = ref.customer_id !== undefined ? 'customer_id' : 'customer_code';
    throw new TallyError('customer_not_found', `${field}: no customer ${ref.customer_id ?? ref.customer_code}`, field);
  }
  return customer;
}

export function requireCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord {
  const customer = optionalCustomer(store, tenant, ref);
  if (!customer) throw invalidRequest('customer_id', 'is required (or customer_code)');
  return customer;
}
