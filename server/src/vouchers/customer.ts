/** The customer a campaign or voucher operation names by customer_id or customer_code (at most one). */
import type { ErrorCode } from '@tally/engine';
import { findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { cannotBeSentWith, requiredOr } from '../http/errors.js';
import { optionalCode, optionalInt64 } from '../http/params.js';
import type { Tenant } from '../tenancy/types.js';

export interface CustomerRef {
  customer_id?: string;
  customer_code?: string;
}

/**
 * For voucher operations an unknown customer is the contract's voucher_not_found ("voucher not found, customer not
 * found, or voucher does not belong to the customer"), not customer_not_found: their `notFound`.
 */
export const UNKNOWN_HOLDER: ErrorCode = 'voucher_not_found';

/**
 * Throws invalid_request when both are given, customer_not_found (or `notFound`) when absent; undefined when
 * neither is given.
 */
export function optionalCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef, notFound?: ErrorCode): CustomerRecord | undefined {
  if (ref.customer_id !== undefined && ref.customer_code !== undefined) throw cannotBeSentWith('customer_code', 'customer_id');
  if (ref.customer_id !== undefined) return findCustomer(store, tenant, 'id', ref.customer_id, 'customer_id', notFound);
  if (ref.customer_code !== undefined) return findCustomer(store, tenant, 'code', ref.customer_code, 'customer_code', notFound);
  return undefined;
}

export function requireCustomer(store: CustomerStore, tenant: Tenant, ref: CustomerRef, notFound?: ErrorCode): CustomerRecord {
  const customer = optionalCustomer(store, tenant, ref, notFound);
  if (!customer) throw requiredOr('customer_id', 'customer_code');
  return customer;
}

/**
 * The customer a list's query names (customer_id or customer_code), if any: the id an int64, the code at most a
 * key part long (a longer one is 400, not lmdb-js's 500, docs/http.md), unknown 404 customer_not_found.
 */
export function customerOfQuery(store: CustomerStore, tenant: Tenant, query: URLSearchParams): CustomerRecord | undefined {
  return optionalCustomer(store, tenant, {
    customer_id: optionalInt64(query.get('customer_id'), 'customer_id'),
    customer_code: optionalCode(query.get('customer_code'), 'customer_code'),
  });
}
