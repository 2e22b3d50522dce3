/**
 * Records the level a customer holds (won_at, expires_at): called in the transaction that changes what a program
 * measures (attributes, carts, cancellations, merges), so GET /customers/{id}/tiers answers since when a level is
 * held and until when it is kept (held.ts).
 */
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { heldStanding, type Held } from './held.js';
import { appliesTo, levelOf, measuredValue } from './standing.js';
import { levelBefore, programStanding } from './measured.js';
import { TierStore } from './store.js';
import type { TierMembership, TierProgram } from './types.js';
import { wireDatetime } from '../http/wire.js';
import { daysLater, localDate } from '../calendar/company-days.js';
import { isCartMetric } from '../challenges/measure.js';
import type { AddedMetrics } from '../challenges/types.js';

/** What the write changed, when it matters to the levels held. */
export interface TierChange {
  /** An update of attributes: the record before it (the expiries passed since the last write measure its values). */
  before?: CustomerRecord;
  /**
   * Records the customer was measured on were taken away (a cancelled cart, the metrics a merge or an unmerge moved
   * off): a level won at or after `since` (any level without it) may have been won with them.
   */
  takenBack?: { since?: string };
  /** A realtime cart or a cancellation: what it added to the customer's cart metrics (negative: taken out). */
  added?: AddedMetrics;
  /** A merge's receiver or an unmerge's holder: the level each program measured before the records moved (`measuredLevels`). */
  levelsBefore?: ReadonlyMap<string, number | undefined>;
}

/** The level measured before the write (`level` undefined: below the first threshold). */
interface Before {
  level?: number;
}

/**
 * Inside a transaction; `now` is `YYYY-MM-DDThh:mm:ssZ`. Cart metrics are kept by the Company's local date, so
 * they are measured up to its local today, as reads and carts measure them; a level's validity_days are its calendar
 * days (expires_at at the local time it was won). Realtime carts call it too (after adding the cart to the metrics:
 * on the day of an expiry, the level won again at it counts that day's carts).
 */
export function recalculateTiers(env: StoreEnv, tenant: Tenant, customer: CustomerRecord, now: string, settings: CompanySettings, change: TierChange = {}): void {
  const store = new TierStore(env);
  const today = localDate(new Date(now), settings.timezone);
  for (const program of store.listPrograms(tenant)) {
    if (!appliesTo(program, customer, settings)) continue;
    const held = heldStanding(store, tenant, program, customer, new Date(now), settings.timezone, change.before);
    const recorded = toRecord(program, held, now, settings.timezone, change.takenBack, measuredBefore(program, held, change, today, settings));
    if (recorded === held.stored) continue;
    if (recorded === undefined) store.deleteMembership(tenant, customer.id, program.id);
    else store.putMembership(tenant, customer.id, program.id, recorded);
  }
}

/**
 * The level each program that applies to the customer measures now (undefined: below the first threshold), keyed by
 * program id: a merge's receiver, or an unmerge's holder, before the records move. Reads the cart metrics of the
 * programs over them, once each.
 */
export function measuredLevels(env: StoreEnv, tenant: Tenant, customer: CustomerRecord, now: string, settings: CompanySettings): Map<string, number | undefined> {
  const today = localDate(new Date(now), settings.timezone);
  const levels = new Map<string, number | undefined>();
  for (const program of new TierStore(env).listPrograms(tenant)) {
    if (appliesTo(program, customer, settings)) levels.set(program.id, programStanding(env, tenant, program, customer, today).current?.level);
  }
  return levels;
}

/**
 * The level the program measured before the write, when the write says what it changed (an attribute update, a cart,
 * a cancellation, a merge's receiver or an unmerge's holder); undefined when it does not (a create, the merged
 * customer, the unmerged one: the stored membership is compared). An update that brings the customer into the
 * program (a new country) had no level of it before.
 */
function measuredBefore(program: TierProgram, held: Held, change: TierChange, today: string, settings: CompanySettings): Before | undefined {
  if (change.levelsBefore?.has(program.id)) return { level: change.levelsBefore.get(program.id) };
  if (change.before !== undefined && !appliesTo(program, change.before, settings)) return { level: undefined };
  if (change.before !== undefined) return { level: isCartMetric(program.attribute) ? held.measured?.level : levelOf(program, measuredValue(program, change.before))?.level };
  if (change.added !== undefined) return { level: levelBefore(program, held.standing.value, change.added, today)?.level };
  return undefined;
}

function toRecord(program: TierProgram, held: Held, now: string, timezone: string, takenBack: TierChange['takenBack'], before: Before | undefined): TierMembership | undefined {
  const measured = held.measured?.level;
  const won = (level: number): TierMembership => ({
    level,
    won_at: now,
    ...(program.validity_days === undefined ? {} : { expires_at: wireDatetime(daysLater(new Date(now), program.validity_days, timezone)) }),
  });
  // A level is won when a write moves the customer to it, not when it leaves the customer at the level it had. Without
  // validity_days the level held is the measured one: compared with the one measured before the write when known (the
  // stored membership is absent when the program came after the customer, and stale when its thresholds changed).
  if (program.validity_days === undefined) return measured !== undefined && measured !== (before === undefined ? held.stored?.level : before.level) ? won(measured) : held.stored;
  // A membership recorded before the program had validity_days is replaced by the level measured, with its expiry.
  const kept = held.inForce?.expires_at === undefined ? undefined : held.inForce;
  // With no membership in force the level held before the write was the measured one.
  if (measured !== undefined && held.inForce === undefined && before?.level === measured) return held.stored;
  // A higher level is won at once; reaching the level held again does not renew it (it is won again at its expiry).
  if (measured !== undefined && (kept === undefined || measured > kept.level)) return won(measured);
  // Records taken back take back a level they may have helped win (won at or after them): it is not held above the
  // value measured without them. A level won before them is kept, as against any fall of the value.
  if (kept !== undefined && takenBack !== undefined && measured !== kept.level && (takenBack.since === undefined || Date.parse(kept.won_at) >= Date.parse(takenBack.since))) {
    return measured === undefined ? undefined : won(measured);
  }
  return kept;
}
