/**
 * DELETE /customers/{value} (contract, States and transitions): a customer
 * being merged cannot be deleted (409), nor one other customers are merged
 * into (409, docs/decisions.md); a hard delete removes the customer and
 * everything it owns, unless it has a critical relation, in which case the
 * soft delete is performed instead; a soft delete empties the record (its id
 * is never reused) and removes its non-critical relations. Either erases the
 * customer's personal data, from the audit log too (audit-erasure.ts).
 */
import { TallyError } from '@tally/engine';
import { mergedInto } from '../merges/merged-into.js';
import { MergeStore } from '../merges/store.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { eraseFromAuditLog } from './audit-erasure.js';
import { OWNED_KINDS } from './owned-kinds.js';
import type { CustomerOwnedKind } from './owned-records.js';
import { forgetHardDeleted } from './referrals.js';
import type { CustomerStore } from './store.js';
import type { CustomerRecord } from './types.js';

export type DeleteMode = 'hard' | 'soft';

/** Inside a transaction; answers the delete that was performed. */
export function deleteCustomer(
  env: StoreEnv,
  store: CustomerStore,
  tenant: Tenant,
  record: CustomerRecord,
  hard: boolean,
  now: string,
  kinds: readonly CustomerOwnedKind[] = OWNED_KINDS,
): DeleteMode {
  if (record.status === 'merging') {
    throw new TallyError('customer_merging', `value: customer ${record.id} is being merged and cannot be deleted`, 'value');
  }
  // Their records are this customer's now and their merged_to names it: the delete would take their points and
  // cards with it and leave them pointing at nothing, so they are unmerged (records back) or deleted first.
  const merged = mergedInto(env, store, tenant, record);
  if (merged.length > 0) {
    throw new TallyError('conflict', `value: customer ${record.id} has merged customers (${merged.join(', ')}): unmerge or delete them first`, 'value');
  }
  // A transfer-new into it was answered 200 and completes later: deleting the receiver would undo it unseen.
  const incoming = new MergeStore(env).pendingInto(tenant, record.id);
  if (incoming.length > 0) {
    const from = incoming.map((merge) => merge.old_customer_id).join(', ');
    throw new TallyError('conflict', `value: customer ${record.id} is receiving a merge in progress (transfer-new of ${from}): delete it once the merge completed and the merged customers are unmerged or deleted`, 'value');
  }
  // Before the records go: its cards and associations name some of its entries.
  eraseFromAuditLog(env, tenant, record.id, now);
  const critical = kinds.some((kind) => kind.critical && kind.ids(env, tenant, record.id).length > 0);
  if (hard && !critical) {
    for (const kind of kinds) kind.removeAll(env, tenant, record.id);
    store.remove(tenant, record);
    // The id is free again: a customer created with it must not take this one's pending referral rewards.
    forgetHardDeleted(env, tenant, record.id);
    return 'hard';
  }
  for (const kind of kinds) if (!kind.critical) kind.removeAll(env, tenant, record.id);
  for (const kind of kinds) kind.forgetCode?.(env, tenant, record.id);
  const emptied: CustomerRecord = {
    id: record.id,
    status: record.status,
    ...(record.merged_to === undefined ? {} : { merged_to: record.merged_to }),
    profile: {},
    attributes: {},
    password_hash: '',
    creation_date: record.creation_date,
    updated_at: now,
    deleted_at: now,
  };
  store.put(tenant, emptied, record);
  return 'soft';
}
