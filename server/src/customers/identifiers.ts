/**
 * Uniqueness of a customer's identifiers, checked inside the write
 * transaction so two concurrent requests cannot both claim one: code is an
 * identifier (409 duplicate_id); email and dni are unique unless the request
 * allows duplicates, in which case the repeated value is also kept in
 * duplicated_email / duplicated_dni. A merged customer keeps holding its own
 * (docs/decisions.md): the refusal names it and the customer it was merged
 * into, since the client sees no other customer with that value.
 */
import { TallyError } from '@tally/engine';
import type { Tenant } from '../tenancy/types.js';
import type { CustomerStore } from './store.js';
import type { CustomerRecord } from './types.js';

export interface DuplicatesAllowed {
  email: boolean;
  dni: boolean;
}

export function claimIdentifiers(
  store: CustomerStore,
  tenant: Tenant,
  record: CustomerRecord,
  allowed: DuplicatesAllowed,
  previous?: CustomerRecord,
): CustomerRecord {
  /** The id of the other customer holding the value, if one does. */
  const heldByOther = (key: 'code' | 'email' | 'dni') => {
    const value = record[key];
    if (value === undefined || value === previous?.[key]) return undefined;
    const holder = store.findId(tenant, key, value);
    return holder !== record.id ? holder : undefined;
  };
  if (heldByOther('code') !== undefined) throw new TallyError('duplicate_id', `code: ${record.code} belongs to another customer`, 'code');
  const next = { ...record };
  for (const key of ['email', 'dni'] as const) {
    const holderId = heldByOther(key);
    if (holderId === undefined) continue;
    if (!allowed[key]) {
      const holder = store.get(tenant, holderId);
      const flag = `send allow_duplicate_${key}=true to accept it`;
      const message = holder?.status === 'merged' && holder.merged_to !== undefined
        ? `belongs to customer ${holderId}, merged into customer ${holder.merged_to} (clear its ${key} first, or ${flag})`
        : `belongs to another customer (${flag})`;
      throw new TallyError('conflict', `${key}: ${message}`, key);
    }
    next[key === 'email' ? 'duplicated_email' : 'duplicated_dni'] = record[key];
  }
  return next;
}
