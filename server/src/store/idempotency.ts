/** Stored answers of requests sent with an Idempotency-Key (docs/storage.md). */
import type { Tenant } from '../tenancy/types.js';
import type { Db, StoreEnv } from './env.js';
import { tenantPrefix } from './keys.js';

export interface StoredAnswer {
  /** sha256 of operation, path, query and body: what "the same request" means. */
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  /** The reply body, byte for byte. */
  body: string;
  /** Epoch milliseconds. */
  created_at: number;
}

export interface IdempotencyStore {
  get(tenant: Tenant, key: string): StoredAnswer | undefined;
  put(tenant: Tenant, key: string, answer: StoredAnswer): Promise<void>;
  /** Removes answers created before `before` (epoch ms); returns how many. */
  removeExpired(before: number): Promise<number>;
}

export class LmdbIdempotencyStore implements IdempotencyStore {
  private readonly db: Db;

  constructor(private readonly env: StoreEnv) {
    this.db = env.db('idempotency');
  }

  get(tenant: Tenant, key: string): StoredAnswer | undefined {
    return this.db.get([tenantPrefix(tenant), key]) as StoredAnswer | undefined;
  }

  async put(tenant: Tenant, key: string, answer: StoredAnswer): Promise<void> {
    await this.env.transact(() => this.db.putSync([tenantPrefix(tenant), key], answer));
  }

  removeExpired(before: number): Promise<number> {
    return this.env.transact(() => {
      let removed = 0;
      for (const { key, value } of this.db.getRange({})) {
        if ((value as StoredAnswer).created_at < before) {
          this.db.removeSync(key);
          removed += 1;
        }
      }
      return removed;
    });
  }
}
