/**
 * Tier programs and memberships (docs/storage.md, "Tiers"). Programs are
 * written by the back office (issue 5: create/update through putProgram);
 * memberships are recorded when a customer's measured attribute changes.
 */
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { VersionedRecords } from '../store/versioned.js';
import type { TierMembership, TierProgram } from './types.js';

const everyProgram = new VersionedRecords('tier_programs', (env, tenant) => {
  const prefix = [tenantPrefix(tenant)];
  return [...env.db('tier_programs').getRange({ start: prefix, end: [...prefix, '\uffff'] })].map(({ value }) => value as TierProgram);
});

export class TierStore {
  /** Public so readers of standings (measured.ts) reach the cart metrics of the same environment. */
  constructor(readonly env: StoreEnv) {}

  private get programs() {
    return this.env.db('tier_programs');
  }
  private get memberships() {
    return this.env.db('tier_memberships');
  }

  /** Every program of the Company environment, in id order (every realtime cart reads them: kept in memory until one changes). */
  listPrograms(tenant: Tenant): readonly TierProgram[] {
    return everyProgram.get(this.env, tenant);
  }

  program(tenant: Tenant, id: string): TierProgram | undefined {
    return this.programs.get([tenantPrefix(tenant), idKey(id)]) as TierProgram | undefined;
  }

  /** Inside a transaction. */
  putProgram(tenant: Tenant, program: TierProgram): void {
    this.programs.putSync([tenantPrefix(tenant), idKey(program.id)], program);
    everyProgram.changedInTransaction(this.env, tenant);
  }

  membership(tenant: Tenant, customerId: string, programId: string): TierMembership | undefined {
    return this.memberships.get([tenantPrefix(tenant), idKey(customerId), idKey(programId)]) as TierMembership | undefined;
  }

  /** Inside a transaction. */
  putMembership(tenant: Tenant, customerId: string, programId: string, membership: TierMembership): void {
    this.memberships.putSync([tenantPrefix(tenant), idKey(customerId), idKey(programId)], membership);
  }

  /** Inside a transaction: a level lapsed or taken back with no level below it. */
  deleteMembership(tenant: Tenant, customerId: string, programId: string): void {
    this.memberships.removeSync([tenantPrefix(tenant), idKey(customerId), idKey(programId)]);
  }
}
