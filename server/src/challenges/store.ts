/**
 * The challenge store. `challenges`: [tenant, idKey(id)] -> ChallengeRecord,
 * [tenant, 'enrollments', idKey(id)] -> enrolments count.
 * A customer's records are customer entries (store/customer-entries.ts),
 * one kind per section: `challenge_progress` [tenant, idKey(customer),
 * idKey(challenge)] -> ChallengeProgress, `challenge_daily` [tenant,
 * idKey(customer), date] -> DailyMetrics (every realtime cart adds to it, so
 * it sits beside the customer's other entries). A record a merge gave the
 * customer keeps its origin: its key ends with idKey(the customer it came
 * from), so reads by range (metrics) count it and exact reads (progress) do
 * not (challenges/owned-kind.ts). Writes run inside the caller's `env.transact`.
 */
import { customerEntries } from '../store/customer-entries.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import { VersionedRecords } from '../store/versioned.js';
import type { ChallengeProgress, ChallengeRecord, DailyMetrics } from './types.js';

export const NO_PROGRESS: ChallengeProgress = { enrolled_at: null, level_rewarded: 0, last_execution_time: null };
const NO_METRICS: DailyMetrics = { total_spent_cents: 0, carts: 0, points_earned: 0 };

/** A section of the records a customer holds, and the kind of customer entries it is. */
export type CustomerSection = 'progress' | 'daily';
const SECTION_KINDS = { progress: 'challenge_progress', daily: 'challenge_daily' } as const;

/** A record a customer holds: `part` is idKey(challenge) or the date; `origin` the customer it was made for. */
export interface HeldRecord {
  part: string;
  origin: string;
  value: unknown;
}

/** Ids are zero-padded digits: they sort before the 'enrollments' keys. */
const everyChallenge = new VersionedRecords('challenges', (env, tenant) => {
  const prefix = tenantPrefix(tenant);
  return [...env.db('challenges').getRange({ start: [prefix], end: [prefix, 'enrollments'] })].map(({ value }) => value as ChallengeRecord);
});

export class ChallengeStore {
  constructor(private readonly env: StoreEnv) {}

  private get challenges() {
    return this.env.db('challenges');
  }
  private section(section: CustomerSection) {
    return customerEntries(this.env, SECTION_KINDS[section]);
  }

  get(tenant: Tenant, id: string): ChallengeRecord | undefined {
    return this.challenges.get([tenantPrefix(tenant), idKey(id)]) as ChallengeRecord | undefined;
  }

  /** Every challenge of the tenant, in id order (every realtime cart reads them: kept in memory until one changes). */
  all(tenant: Tenant): readonly ChallengeRecord[] {
    return everyChallenge.get(this.env, tenant);
  }

  page<T>(tenant: Tenant, request: PageRequest, keep: (challenge: ChallengeRecord) => T | undefined): Page<T> {
    return paginate<ChallengeRecord, T>(this.challenges, [tenantPrefix(tenant)], request, (c, key) => (key.length === 2 ? keep(c) : undefined));
  }

  /** Inside `env.transact`. */
  putInTransaction(tenant: Tenant, challenge: ChallengeRecord): void {
    this.challenges.putSync([tenantPrefix(tenant), idKey(challenge.id)], challenge);
    everyChallenge.changedInTransaction(this.env, tenant);
  }

  enrollments(tenant: Tenant, id: string): number {
    return (this.challenges.get([tenantPrefix(tenant), 'enrollments', idKey(id)]) as number | undefined) ?? 0;
  }

  progress(tenant: Tenant, customerId: string, challengeId: string): ChallengeProgress {
    return (this.section('progress').get([tenantPrefix(tenant), idKey(customerId), idKey(challengeId)]) as ChallengeProgress | undefined) ?? NO_PROGRESS;
  }

  /** Inside `env.transact`. */
  putProgressInTransaction(tenant: Tenant, customerId: string, challengeId: string, progress: ChallengeProgress): void {
    this.section('progress').putSync([tenantPrefix(tenant), idKey(customerId), idKey(challengeId)], progress);
  }

  /** Inside `env.transact`: the customer enrolled, counted once. */
  enrollInTransaction(tenant: Tenant, customerId: string, challengeId: string, at: string): void {
    this.putProgressInTransaction(tenant, customerId, challengeId, { ...this.progress(tenant, customerId, challengeId), enrolled_at: at });
    this.challenges.putSync([tenantPrefix(tenant), 'enrollments', idKey(challengeId)], this.enrollments(tenant, challengeId) + 1);
  }

  /** The customer's cart metrics summed over the local dates from..to (inclusive). */
  metrics(tenant: Tenant, customerId: string, from: string, to: string): DailyMetrics {
    const prefix = [tenantPrefix(tenant), idKey(customerId)];
    const sum = { ...NO_METRICS };
    for (const { value } of this.section('daily').getRange({ start: [...prefix, from], end: [...prefix, `${to}~`] })) {
      const day = value as DailyMetrics;
      sum.total_spent_cents += day.total_spent_cents;
      sum.carts += day.carts;
      sum.points_earned += day.points_earned;
    }
    return sum;
  }

  /** Inside `env.transact`: adds one cart (or the metrics of a day of `origin`, moved by a merge) to the customer's metrics of a day. */
  addCartInTransaction(tenant: Tenant, customerId: string, date: string, cart: DailyMetrics, origin = customerId): void {
    const key = this.heldKey(tenant, customerId, date, origin);
    const daily = this.section('daily');
    const day = (daily.get(key) as DailyMetrics | undefined) ?? NO_METRICS;
    daily.putSync(key, {
      total_spent_cents: day.total_spent_cents + cart.total_spent_cents,
      carts: day.carts + cart.carts,
      points_earned: day.points_earned + cart.points_earned,
    });
  }

  /** Every record the customer holds in a section: its own and those merges gave it. */
  held(tenant: Tenant, section: CustomerSection, customerId: string): HeldRecord[] {
    const prefix = [tenantPrefix(tenant), idKey(customerId)];
    return [...this.section(section).getRange({ start: prefix, end: [...prefix, '~'] })].map(({ key, value }) => {
      const [part, origin] = (key as string[]).slice(2);
      return { part, origin: origin === undefined ? customerId : idFromKey(origin), value };
    });
  }

  heldValue(tenant: Tenant, section: CustomerSection, customerId: string, part: string, origin: string): unknown {
    return this.section(section).get(this.heldKey(tenant, customerId, part, origin));
  }

  /** Inside `env.transact`. */
  putHeldInTransaction(tenant: Tenant, section: CustomerSection, customerId: string, record: HeldRecord): void {
    this.section(section).putSync(this.heldKey(tenant, customerId, record.part, record.origin), record.value);
  }

  /** Inside `env.transact`. */
  removeHeldInTransaction(tenant: Tenant, section: CustomerSection, customerId: string, part: string, origin: string): void {
    this.section(section).removeSync(this.heldKey(tenant, customerId, part, origin));
  }

  private heldKey(tenant: Tenant, customerId: string, part: string, origin: string): string[] {
    const key = [tenantPrefix(tenant), idKey(customerId), part];
    return origin === customerId ? key : [...key, idKey(origin)];
  }
}
