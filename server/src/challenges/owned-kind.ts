/**
 * A customer's challenge records as customer-owned records
 * (customers/owned-records.ts), two kinds:
 * - "challenge metrics", the per-day cart metrics challenges and tier
 *   programs measure: activities, like the carts they come from (an unmerge
 *   gives them back only with with_activites). A merge keeps them apart under
 *   the new customer (keyed by their origin), so its measured value is the sum
 *   of both customers' carts and an unmerge can give exactly them back.
 * - "challenge progress", enrolments and levels rewarded: a merge joins the
 *   old customer's into the new one's (enrolled if either was, the earlier
 *   enrolment, the higher level rewarded: a level's points are never granted
 *   twice to the merged customer) and keeps the old record and the new one's
 *   previous record for an unmerge, which gives the old record back and puts
 *   back what the join changed on the new customer (what changed since stays).
 * A record's id is "<part>/<origin>" (challenge or date, and the customer it
 * was made for): it stays the same wherever merges move it. Neither kind is
 * among the contract's critical relations (the points levels granted are score
 * transactions, which are): a delete removes them. current_enrollments counts
 * enrolments made; merges, unmerges and deletes leave it as it is.
 */
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { ChallengeStore, type CustomerSection, type HeldRecord } from './store.js';
import type { ChallengeProgress, DailyMetrics } from './types.js';

/** Gives one record of `from` (already removed from it) to `to`. */
type Move = (store: ChallengeStore, tenant: Tenant, record: HeldRecord, from: string, to: string) => void;

function sectionKind(section: CustomerSection, name: string, activities: boolean, move: Move): CustomerOwnedKind {
  return {
    name,
    critical: false,
    activities,
    ids: (env, tenant, customerId) => new ChallengeStore(env).held(tenant, section, customerId).map((r) => `${r.part}/${r.origin}`),
    reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], from: string, to: string) {
      const store = new ChallengeStore(env);
      for (const id of ids) {
        const [part, origin] = id.split('/');
        const value = store.heldValue(tenant, section, from, part, origin);
        if (value === undefined) continue;
        store.removeHeldInTransaction(tenant, section, from, part, origin);
        move(store, tenant, { part, origin, value }, from, to);
      }
    },
    removeAll(env, tenant, customerId) {
      const store = new ChallengeStore(env);
      for (const r of store.held(tenant, section, customerId)) store.removeHeldInTransaction(tenant, section, customerId, r.part, r.origin);
    },
  };
}

export const challengeMetricsKind = sectionKind('daily', 'challenge metrics', true, (store, tenant, record, _from, to) =>
  store.addCartInTransaction(tenant, to, record.part, record.value as DailyMetrics, record.origin),
);

/** A progress record kept under the customer it was joined into: what an unmerge needs. */
interface JoinedProgress {
  progress: ChallengeProgress;
  /** The new customer's own record before the join. */
  before: ChallengeProgress;
}

export const challengeProgressKind = sectionKind('progress', 'challenge progress', false, (store, tenant, record, from, to) => {
  const challengeId = idFromKey(record.part);
  if (record.origin === from) {
    const progress = record.value as ChallengeProgress;
    const before = store.progress(tenant, to, challengeId);
    store.putProgressInTransaction(tenant, to, challengeId, joined(before, progress));
    store.putHeldInTransaction(tenant, 'progress', to, { ...record, value: { progress, before } satisfies JoinedProgress });
  } else if (record.origin === to) {
    const { progress, before } = record.value as JoinedProgress;
    store.putProgressInTransaction(tenant, to, challengeId, joined(store.progress(tenant, to, challengeId), progress));
    store.putProgressInTransaction(tenant, from, challengeId, unjoined(store.progress(tenant, from, challengeId), before, progress));
  } else {
    store.putHeldInTransaction(tenant, 'progress', to, record);
  }
});

function joined(a: ChallengeProgress, b: ChallengeProgress): ChallengeProgress {
  return {
    enrolled_at: earlier(a.enrolled_at, b.enrolled_at),
    level_rewarded: Math.max(a.level_rewarded, b.level_rewarded),
    last_execution_time: later(a.last_execution_time, b.last_execution_time),
  };
}

/** The parent's record without what the join put in it; what changed since the join stays. */
function unjoined(current: ChallengeProgress, before: ChallengeProgress, progress: ChallengeProgress): ChallengeProgress {
  const join = joined(before, progress);
  return {
    enrolled_at: current.enrolled_at === join.enrolled_at ? before.enrolled_at : current.enrolled_at,
    level_rewarded: current.level_rewarded === join.level_rewarded ? before.level_rewarded : current.level_rewarded,
    last_execution_time: current.last_execution_time,
  };
}

function earlier(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a <= b ? a : b;
}

function later(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a >= b ? a : b;
}
