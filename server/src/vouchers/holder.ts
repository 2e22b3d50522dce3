/**
 * The customer a voucher operation names (customer_id or customer_code, at
 * most one). For voucher operations an unknown customer is the contract's
 * voucher_not_found ("voucher not found, customer not found, or voucher does
 * not belong to the customer"), not customer_not_found.
 */
import { TallyError } from '@tally/engine';
import { resolveId } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord, SearchParam } from '../customers/types.js';
import { cannotBeSentWith, requiredOr } from '../http/errors.js';
import type { Tenant } from '../tenancy/types.js';
import type { CustomerRef } from './customer.js';

export function holderBy(store: CustomerStore, tenant: Tenant, by: SearchParam, value: string, field: string): CustomerRecord {
  const id = resolveId(store, tenant, by, value, field);
  const customer = id === undefined ? undefined : store.get(tenant, id);
  if (!customer || customer.deleted_at !== undefined) {
    throw new TallyError('voucher_not_found', `${field}: no customer ${value}`, field);
  }
  return customer;
}

/** undefined when neither field is sent. */
export function optionalHolder(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord | undefined {
  if (ref.customer_id !== undefined && ref.customer_code !== undefined) throw cannotBeSentWith('customer_code', 'customer_id');
  if (ref.customer_id !== undefined) return holderBy(store, tenant, 'id', ref.customer_id, 'customer_id');
  if (ref.customer_code !== undefined) return holderBy(store, tenant, 'code', ref.customer_code, 'customer_code');
  return undefined;
}

export function requireHolder(store: CustomerStore, tenant: Tenant, ref: CustomerRef): CustomerRecord {
  const customer = optionalHolder(store, tenant, ref);
  if (!customer) throw requiredOr('customer_id', 'customer_code');
  return customer;
}
