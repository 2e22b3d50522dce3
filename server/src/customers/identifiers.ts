/**
 * Uniqueness of a customer's identifiers, checked inside the write
 * transaction so two concurrent requests cannot both claim one: code is an
 * identifier (409 duplicate_id); email and dni are unique unless the request
 * allows duplicates, in which case the repeated value is also kept in
 * duplicated_email / duplicated_dni.
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
  const heldByOther = (key: 'code' | 'email' | 'dni') => {
    const value = record[key];
    if (value === undefined || value === previous?.[key]) return false;
    const holder = store.findId(tenant, key, value);
    return holder !== undefined && holder !== record.id;
  };
  if (heldByOther('code')) throw new TallyError('duplicate_id', `code: ${record.code} belongs to another customer`, 'code');
  const next = { ...record };
  for (const key of ['email', 'dni'] as const) {
    if (!heldByOther(key)) continue;
    if (!allowed[key]) {
      throw new TallyError('conflict', `${key}: belongs to another customer (send allow_duplicate_${key}=true to accept it)`, key);
    }
    next[key === 'email' ? 'duplicated_email' : 'duplicated_dni'] = record[key];
  }
  return next;
}
