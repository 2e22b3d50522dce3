/**
 * Records of one campaign kind (games, instant wins) by id, every version by
 * its campaign_history_id, and an index by static code, in one database named
 * by the kind (docs/games.md): [tenant, idKey(id)] -> record, [tenant,
 * 'history', idKey(history_id)] -> record, [tenant, 'code', static_code] -> id.
 * Writes run inside the caller's `env.transact`.
 */
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import { changesNothing } from '../store/unchanged.js';
import type { Tenant } from '../tenancy/types.js';

export interface Versioned {
  id: string;
  history_id: string;
  static_code: string | null;
  updated_at: string;
}

export class VersionedStore<T extends Versioned> {
  constructor(
    protected readonly env: StoreEnv,
    private readonly kind: string,
  ) {}

  private get db() {
    return this.env.db(this.kind);
  }

  get(tenant: Tenant, id: string): T | undefined {
    return this.db.get([tenantPrefix(tenant), idKey(id)]) as T | undefined;
  }

  getHistory(tenant: Tenant, historyId: string): T | undefined {
    return this.db.get([tenantPrefix(tenant), 'history', idKey(historyId)]) as T | undefined;
  }

  byStaticCode(tenant: Tenant, code: string): T | undefined {
    const id = this.db.get([tenantPrefix(tenant), 'code', code]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  /** Every record of the tenant, in id order. */
  all(tenant: Tenant): T[] {
    const prefix = tenantPrefix(tenant);
    // Ids are zero-padded digits: they sort before the 'code' and 'history' keys.
    const range = this.db.getRange({ start: [prefix], end: [prefix, 'code'] });
    return [...range].filter(({ key }) => (key as unknown[]).length === 2).map(({ value }) => value as T);
  }

  /** One page in id order; `keep` filters (and maps) the records. */
  page<V>(tenant: Tenant, request: PageRequest, keep: (record: T) => V | undefined): Page<V> {
    return paginate<T, V>(this.db, [tenantPrefix(tenant)], request, (record, key) => (key.length === 2 ? keep(record) : undefined));
  }

  /**
   * Inside `env.transact`: stores a new version (new history id) and moves the static code index. A record
   * equal to `previous` but for `updated_at` writes nothing and answers `previous` (store/unchanged.ts).
   */
  putInTransaction(tenant: Tenant, record: Omit<T, 'history_id'>, previous?: T): T {
    if (previous && changesNothing(record, previous)) return previous;
    const prefix = tenantPrefix(tenant);
    if (previous?.static_code && previous.static_code !== record.static_code) this.db.removeSync([prefix, 'code', previous.static_code]);
    if (record.static_code) this.db.putSync([prefix, 'code', record.static_code], record.id);
    // Shares the campaigns' sequence, so a campaign_history_id names one version of one campaign of any kind.
    const stored = { ...record, history_id: allocateId(this.env, tenant, 'campaign_history') } as T;
    this.db.putSync([prefix, 'history', idKey(stored.history_id)], stored);
    this.db.putSync([prefix, idKey(stored.id)], stored);
    return stored;
  }
}
