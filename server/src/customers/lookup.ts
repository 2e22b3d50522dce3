/**
 * Finding the customer a request names: by id, code, dni or email
 * (search_param), through one index get at most. A soft-deleted customer is
 * not found.
 */
import { TallyError, type ErrorCode } from '@tally/engine';
import type { AssociationStore } from '../associations/store.js';
import { lookupTarget, type SuppressionTarget } from '../http/duplicates.js';
import { invalidRequest, mustBeAnyOf } from '../http/errors.js';
import { toInt64, WIRE_DESCRIPTIONS } from '../http/wire.js';
import type { Tenant } from '../tenancy/types.js';
import { normalizeDni, normalizeEmail } from './fields.js';
import type { CustomerStore } from './store.js';
import type { CustomerRecord, SearchParam } from './types.js';

/**
 * No live customer holds a value: customer_not_found, or the code an operation answers instead (voucher
 * operations' voucher_not_found, vouchers/customer.ts).
 */
export function customerNotFound(field: string, value: string, code: ErrorCode = 'customer_not_found'): TallyError {
  return new TallyError(code, `${field}: no customer ${value}`, field);
}

/** The id a value names, or undefined when no customer holds it. */
export function resolveId(store: CustomerStore, tenant: Tenant, by: SearchParam, value: string, field: string): string | undefined {
  switch (by) {
    case 'id': {
      const id = toInt64(value);
      if (id === undefined) throw invalidRequest(field, mustBeAnyOf(WIRE_DESCRIPTIONS.int64));
      return id;
    }
    case 'code':
      return store.findId(tenant, 'code', value);
    case 'email':
      return store.findId(tenant, 'email', normalizeEmail(value));
    case 'dni':
      return store.findId(tenant, 'dni', normalizeDni(value));
  }
}

/** The duplicate-suppression target of the customer a value names: its id, however the request names it. */
export function customerTarget(store: CustomerStore, tenant: Tenant, by: SearchParam, value: string, field: string): SuppressionTarget {
  return lookupTarget('customer', by, value, resolveId(store, tenant, by, value, field));
}

/** The customer a value names as the owner of a record it holds (duplicates' ownedTarget): `customer:<id>`, undefined when none. */
export function customerOwner(store: CustomerStore, tenant: Tenant, by: SearchParam, value: string, field: string): string | undefined {
  const id = resolveId(store, tenant, by, value, field);
  return id === undefined ? undefined : `customer:${id}`;
}

/** The live customer a value names; 404 customer_not_found (or `notFound`) otherwise. */
export function findCustomer(
  store: CustomerStore,
  tenant: Tenant,
  by: SearchParam,
  value: string,
  field: string,
  notFound: ErrorCode = 'customer_not_found',
): CustomerRecord {
  const id = resolveId(store, tenant, by, value, field);
  const record = id === undefined ? undefined : store.get(tenant, id);
  if (!record || record.deleted_at !== undefined) throw customerNotFound(field, value, notFound);
  return record;
}

/**
 * The customer holding a customer's records now: itself, or for a merged customer the one it was merged into,
 * followed to the end (that one may have been merged since: A into B, then B into C, leads A to C; a merge
 * never targets a merged or merging customer, so merged_to never loops). A merging customer (transfer-new not
 * completed) still holds its records: what is recorded for it moves with them when the merge completes.
 * Undefined when the holder was deleted for good, or does not hold the merge association (new -> old, merge_id;
 * it moves with the records to the end of the chain): stores written before a merge's receiver could not be
 * deleted may name in merged_to a customer deleted since, its association gone with it, or one created since
 * with the deleted one's id, which must not take the merged customer's purchases.
 */
export function accountHolder(store: CustomerStore, associations: AssociationStore, tenant: Tenant, record: CustomerRecord): CustomerRecord | undefined {
  let holder: CustomerRecord | undefined = record;
  while (holder?.status === 'merged' && holder.merged_to !== undefined) holder = store.get(tenant, holder.merged_to);
  if (holder === undefined || holder === record) return holder;
  const end = holder.id;
  return associations.asAssociate(tenant, record.id).some((a) => a.merge_id !== undefined && a.customer_id === end) ? holder : undefined;
}

/**
 * The holder (accountHolder) of a customer's records when both are live: undefined when the customer or its holder
 * was deleted (a soft-deleted record is emptied: nothing is credited to it), or nobody holds its records.
 */
export function liveAccountHolder(store: CustomerStore, associations: AssociationStore, tenant: Tenant, record: CustomerRecord): CustomerRecord | undefined {
  if (record.deleted_at !== undefined) return undefined;
  const holder = accountHolder(store, associations, tenant, record);
  return holder?.deleted_at === undefined ? holder : undefined;
}

/** The live holder (accountHolder) of the customer a value names: an associate_id lookup; 404 customer_not_found otherwise. */
export function findAccountHolder(store: CustomerStore, associations: AssociationStore, tenant: Tenant, by: SearchParam, value: string, field: string): CustomerRecord {
  const named = findCustomer(store, tenant, by, value, field);
  const holder = liveAccountHolder(store, associations, tenant, named);
  if (!holder) {
    throw new TallyError('customer_not_found', `${field}: customer ${named.id} is merged, and the customer holding its records was deleted: unmerge it`, field);
  }
  return holder;
}
