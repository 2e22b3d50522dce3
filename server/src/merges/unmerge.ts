/**
 * POST /customers/{associate_id}/unmerge, inside one write transaction: the
 * merge association becomes inactive (the one the merge deactivated active
 * again), the associate is active again with
 * merged_to cleared, the records the merge moved go back to it (activities
 * only with with_activites: without, they stay with the parent) with the
 * `once` uses it moved, and an
 * unmerge log entry is recorded; the tier levels of both (the associate and the
 * holder the records came back from) are recalculated; customer.unmerged is raised. In a chain (A into B, B into C) the
 * records went on to C: they come back from the end of the parent's merged_to.
 */
import { TallyError } from '@tally/engine';
import { AssociationStore } from '../associations/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { OWNED_KINDS } from '../customers/owned-kinds.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { accountHolder } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { measuredLevels, recalculateTiers } from '../tiers/recalculate.js';
import { raiseMergeEvent } from './events.js';
import { giveBackOnceUses } from './once-uses.js';
import type { MergeStore } from './store.js';
import type { MergeScope } from './types.js';

export function unmerge(
  env: StoreEnv,
  customers: CustomerStore,
  merges: MergeStore,
  scope: MergeScope,
  associate: CustomerRecord,
  withActivities: boolean,
  kinds: readonly CustomerOwnedKind[] = OWNED_KINDS,
): void {
  const { tenant, settings, now } = scope;
  const parentId = associate.merged_to;
  if (parentId === undefined) {
    throw new TallyError('conflict', `associate_id: customer ${associate.id} is not merged (merged_to is empty)`, 'associate_id');
  }
  const associations = new AssociationStore(env);
  // Who holds the moved records now: the parent, or, when the parent was merged on since (a chain: A into B,
  // B into C), the customer at the end of the chain, where they and the merge association went with the parent's.
  const parent = customers.get(tenant, parentId);
  const holderId = (parent && accountHolder(customers, associations, tenant, parent)?.id) ?? parentId;
  const found = customers.get(tenant, holderId);
  const holder = found && found.deleted_at === undefined ? found : undefined;
  // The holder's levels before the records go back: an unmerge that leaves it at one wins nothing.
  const levelsBefore = holder && measuredLevels(env, tenant, holder, now, settings);
  // The latest association the merge created (it may have been deactivated since).
  const link = associations
    .asAssociate(tenant, associate.id)
    .filter((a) => (a.customer_id === parentId || a.customer_id === holderId) && a.merge_id !== undefined)
    .pop();
  const merge = link ? merges.get(tenant, link.merge_id!) : undefined;
  if (link && link.active) associations.put(tenant, { ...link, active: false, updated_at: now }, link);
  if (merge) {
    for (const kind of kinds) {
      if (kind.activities && !withActivities) continue;
      const stillWithHolder = new Set(kind.ids(env, tenant, holderId));
      const back = (merge.moved[kind.name] ?? []).filter((id) => stillWithHolder.has(id));
      kind.reassign(env, tenant, back, holderId, associate.id);
    }
    // The uses are the person's, not activities: they go back with or without with_activites.
    giveBackOnceUses(new LmdbCounterStore(env), tenant, merge.moved_uses ?? [], holderId, associate.id);
    for (const id of merge.deactivated_association_ids ?? [merge.deactivated_association_id]) reactivate(associations, tenant, id, now);
    merges.put(tenant, { ...merge, status: 'unmerged', unmerged_at: now });
  }
  const { merged_to: _cleared, ...rest } = associate;
  const active: CustomerRecord = { ...rest, status: 'active', updated_at: now };
  customers.put(tenant, active, associate);
  // The metrics the records carry moved back: both levels from now (a deleted holder holds none).
  recalculateTiers(env, tenant, active, now, settings);
  // The holder keeps no level won since the merge above what it measures without the metrics given back.
  const takenBack = withActivities && merge?.completed_at !== undefined ? { since: merge.completed_at } : undefined;
  if (holder) recalculateTiers(env, tenant, holder, now, settings, { takenBack, levelsBefore });
  raiseMergeEvent(env, customers, tenant, 'customer.unmerged', { oldCustomerId: associate.id, newCustomerId: parentId, associationId: link?.id, withActivities });
  merges.logUnmerge(tenant, {
    merge_id: merge?.id ?? '',
    associate_id: associate.id,
    parent_id: parentId,
    with_activities: withActivities,
    created_at: now,
  });
}

/**
 * The pair's association the merge made inactive is active again, wherever it went since with its customer's
 * associations (the end of a chain), unless it was removed or its pair has an active association of its own.
 */
function reactivate(associations: AssociationStore, tenant: Tenant, id: string | undefined, now: string): void {
  const previous = id === undefined ? undefined : associations.get(tenant, id);
  if (!previous || previous.active || associations.active(tenant, previous.customer_id, previous.associate_customer_id)) return;
  associations.put(tenant, { ...previous, active: true, updated_at: now }, previous);
}
