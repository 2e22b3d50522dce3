/**
 * The two customers of a transfer: each named by exactly one of id or code,
 * both existing, and in states that allow the merge (contract, States and
 * transitions): the old customer neither merging nor merged, the new one
 * neither merged nor being merged.
 */
import { TallyError } from '@tally/engine';
import { findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { invalidRequest } from '../http/errors.js';
import { exactlyOne } from '../http/params.js';
import type { Tenant } from '../tenancy/types.js';
import type { MergesTransfer } from '../wire/types.js';

/** Checks the "exactly one of" rules before any read. */
export function checkNaming(body: MergesTransfer): void {
  for (const side of ['old', 'new'] as const) {
    exactlyOne([`${side}_customer_id`, `${side}_customer_code`] as const, (field) => body[field] !== undefined);
  }
}

function party(store: CustomerStore, tenant: Tenant, body: MergesTransfer, side: 'old' | 'new'): CustomerRecord {
  const id = body[`${side}_customer_id`];
  return findCustomer(store, tenant, id !== undefined ? 'id' : 'code', id ?? body[`${side}_customer_code`]!, fieldOf(body, side));
}

/** The field the request named a side's customer by. */
function fieldOf(body: MergesTransfer, side: 'old' | 'new'): string {
  return body[`${side}_customer_id`] !== undefined ? `${side}_customer_id` : `${side}_customer_code`;
}

/** Inside a transaction: the old and new customers, or the error that stops the transfer (naming the field the request used). */
export function transferParties(store: CustomerStore, tenant: Tenant, body: MergesTransfer): { old: CustomerRecord; target: CustomerRecord } {
  const old = party(store, tenant, body, 'old');
  const target = party(store, tenant, body, 'new');
  const [oldField, newField] = [fieldOf(body, 'old'), fieldOf(body, 'new')];
  if (old.id === target.id) throw invalidRequest(newField, 'must be another customer than the old one');
  if (old.status === 'merging') throw new TallyError('customer_merging', `${oldField}: customer ${old.id} is already being merged`, oldField);
  if (old.status === 'merged') throw new TallyError('conflict', `${oldField}: customer ${old.id} is already merged`, oldField);
  if (target.status === 'merged' || target.status === 'merging') {
    throw new TallyError('conflict', `${newField}: customer ${target.id} is ${target.status}`, newField);
  }
  return { old, target };
}
