/**
 * Completing a merge, inside one write transaction: every customer-owned
 * record of the old customer moves to the new one (OWNED_KINDS), its `once`
 * uses are added to the new one's (once-uses.ts), an
 * association links them (new -> old, with the merge id; the pair's active
 * association until then becomes inactive, recorded), and the old
 * customer becomes merged with merged_to. Its personal data stays as it was;
 * the new customer keeps all its previous records. Both customers' tier
 * levels are recalculated, as the cart metrics moved. Raises customer.merged.
 */
import { AssociationStore } from '../associations/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { OWNED_KINDS } from '../customers/owned-kinds.js';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { settleCustomer } from '../points/ledger.js';
import type { StoreEnv } from '../store/env.js';
import { measuredLevels, recalculateTiers } from '../tiers/recalculate.js';
import { raiseMergeEvent } from './events.js';
import { moveOnceUses } from './once-uses.js';
import type { MergeStore } from './store.js';
import type { MergeRecord, MergeScope } from './types.js';

export function completeMerge(
  env: StoreEnv,
  customers: CustomerStore,
  merges: MergeStore,
  scope: MergeScope,
  merge: MergeRecord,
  kinds: readonly CustomerOwnedKind[] = OWNED_KINDS,
): MergeRecord {
  const { tenant, settings, now } = scope;
  const old = customers.get(tenant, merge.old_customer_id)!;
  // Points due to activate or expire before the merge (settled lazily, ledger.ts) do so on the old customer's
  // ledger, where they were earned: their transactions move with it and come back with an unmerge, instead of
  // being recorded by the new customer as its own and given back as a transfer.
  settleCustomer(env, tenant, old.id, old.code ?? null, { now: new Date(now), timezone: settings.timezone });
  // The receiver's levels before the old customer's metrics join its own: a level it measured already is not won at the merge.
  const levelsBefore = measuredLevels(env, tenant, customers.get(tenant, merge.new_customer_id)!, now, settings);
  const associations = new AssociationStore(env);
  // The old customer's active associations before they move: one a move makes inactive (the receiver's own association
  // of that pair is active already) is recorded, for the unmerge to make it active again where it goes back.
  const activeBefore = [...associations.ofCustomer(tenant, old.id), ...associations.asAssociate(tenant, old.id)].filter((a) => a.active);
  const moved: Record<string, string[]> = {};
  for (const kind of kinds) {
    const ids = kind.ids(env, tenant, old.id);
    kind.reassign(env, tenant, ids, old.id, merge.new_customer_id);
    moved[kind.name] = ids;
  }
  const movedUses = moveOnceUses(new LmdbCounterStore(env), tenant, old.id, merge.new_customer_id);
  const deactivatedByMove = activeBefore.filter((a) => associations.get(tenant, a.id)?.active === false).map((a) => a.id);
  // A pair has one active association, the merge's from now on: one the new customer already had with the old one, or
  // the old one with the new (made before a transfer, which the contract does not refuse), becomes inactive, recorded for
  // the unmerge to make active again: else search by associate_id answered the merged customer as the receiver's owner.
  const existing = [associations.active(tenant, merge.new_customer_id, old.id), associations.active(tenant, old.id, merge.new_customer_id)].filter((a) => a !== undefined);
  for (const pair of existing) associations.put(tenant, { ...pair, active: false, updated_at: now }, pair);
  const association = associations.create(tenant, {
    customer_id: merge.new_customer_id,
    associate_customer_id: old.id,
    relationship_type: merge.relationship_type ?? null,
    active: true,
    main: false,
    merge_id: merge.id,
    created_at: now,
    updated_at: now,
  });
  const merged: CustomerRecord = { ...old, status: 'merged', merged_to: merge.new_customer_id, updated_at: now };
  customers.put(tenant, merged, old);
  // The receiver holds the summed metrics from now (a level they raise it to is won at the merge), the old customer none:
  // its metrics left, all of them, so no level it won is kept above what it measures.
  recalculateTiers(env, tenant, customers.get(tenant, merge.new_customer_id)!, now, settings, { levelsBefore });
  recalculateTiers(env, tenant, merged, now, settings, { takenBack: {} });
  const completed: MergeRecord = {
    ...merge,
    status: 'completed',
    moved,
    moved_uses: movedUses,
    association_id: association.id,
    ...(existing.length + deactivatedByMove.length > 0 ? { deactivated_association_ids: [...existing.map((pair) => pair.id), ...deactivatedByMove] } : {}),
    completed_at: now,
  };
  merges.put(tenant, completed);
  raiseMergeEvent(env, customers, tenant, 'customer.merged', { oldCustomerId: old.id, newCustomerId: merge.new_customer_id, associationId: association.id });
  return completed;
}
