/**
 * Records that every realtime cart reads inside its write transaction but
 * that rarely change (challenges, tier programs), kept in memory per store
 * and tenant. The transaction that changes one also writes a new version
 * token for its kind; a read compares the stored token (one get) with the
 * cached one and reads the records again only when it moved. Reading them
 * each time cost a range scan of about 8 µs, even when there were none,
 * under LMDB's write lock (bench/README.md, "Carts: the write lock").
 * A token is random, not a counter: a list read inside a transaction that
 * then aborted must never match the version a later change writes.
 */
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../tenancy/types.js';
import type { StoreEnv } from './env.js';
import { tenantPrefix } from './keys.js';

/** Opened with the store (openStore): a change writes here inside transactions that may abort. */
export const VERSIONS_DATABASE = 'versions';

interface Cached<T> {
  version: string | undefined;
  records: readonly T[];
}

export class VersionedRecords<T> {
  /** By store (each thread opens its own) and tenant. */
  private readonly cache = new WeakMap<StoreEnv, Map<string, Cached<T>>>();

  constructor(
    private readonly kind: string,
    private readonly read: (env: StoreEnv, tenant: Tenant) => T[],
  ) {}

  /** The records as this transaction or snapshot sees them. Shared: callers must not change them. */
  get(env: StoreEnv, tenant: Tenant): readonly T[] {
    const prefix = tenantPrefix(tenant);
    const version = versionToken(env, tenant, this.kind);
    let byTenant = this.cache.get(env);
    if (!byTenant) this.cache.set(env, (byTenant = new Map()));
    const cached = byTenant.get(prefix);
    if (cached && cached.version === version) return cached.records;
    const records = this.read(env, tenant);
    byTenant.set(prefix, { version, records });
    return records;
  }

  /** Inside `env.transact`, in the transaction that changes one of the records. */
  changedInTransaction(env: StoreEnv, tenant: Tenant): void {
    changeVersionInTransaction(env, tenant, this.kind);
  }
}

/** The current version token of a kind (undefined until the first change). */
export function versionToken(env: StoreEnv, tenant: Tenant, kind: string): string | undefined {
  return env.db(VERSIONS_DATABASE).get([tenantPrefix(tenant), kind]) as string | undefined;
}

/** Inside `env.transact`, in the transaction that changes a record of the kind: a new token. */
export function changeVersionInTransaction(env: StoreEnv, tenant: Tenant, kind: string): void {
  env.db(VERSIONS_DATABASE).putSync([tenantPrefix(tenant), kind], randomUUID());
}
