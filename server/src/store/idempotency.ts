/** Stored answers of requests sent with an Idempotency-Key (docs/storage.md). */
import type { Tenant } from '../tenancy/types.js';
import type { Db, StoreEnv } from './env.js';
import { tenantPrefix } from './keys.js';

/**
 * Written in the request's own write transaction, before its answer is known: a request that committed is never
 * run again, even when the process died before its answer was stored (docs/http.md).
 */
export interface StoredClaim {
  /** sha256 of operation, path, query and body: what "the same request" means. */
  fingerprint: string;
  /** Epoch milliseconds. */
  created_at: number;
}

/** The answer, stored once it is known (over the claim, if the request committed). */
export interface StoredAnswer extends StoredClaim {
  status: number;
  headers: Record<string, string>;
  /** The reply body, byte for byte. */
  body: string;
}

export interface IdempotencyStore {
  get(tenant: Tenant, key: string): StoredAnswer | StoredClaim | undefined;
  /** Inside a write transaction: records the claim unless the key holds a record created after `liveSince` (epoch ms). */
  claim(tenant: Tenant, key: string, claim: StoredClaim, liveSince: number): void;
  put(tenant: Tenant, key: string, answer: StoredAnswer): Promise<void>;
  /** Removes answers created before `before` (epoch ms); returns how many. */
  removeExpired(before: number): Promise<number>;
}

export class LmdbIdempotencyStore implements IdempotencyStore {
  private readonly db: Db;

  constructor(private readonly env: StoreEnv) {
    this.db = env.db('idempotency');
  }

  get(tenant: Tenant, key: string): StoredAnswer | StoredClaim | undefined {
    return this.db.get([tenantPrefix(tenant), key]) as StoredAnswer | StoredClaim | undefined;
  }

  claim(tenant: Tenant, key: string, claim: StoredClaim, liveSince: number): void {
    const at = [tenantPrefix(tenant), key];
    // A later transaction of the same request (or of work it started) finds its claim, or its answer, in place.
    const held = this.db.get(at) as StoredClaim | undefined;
    if (held === undefined || held.created_at <= liveSince) this.db.putSync(at, claim);
  }

  async put(tenant: Tenant, key: string, answer: StoredAnswer): Promise<void> {
    await this.env.transact(() => this.db.putSync([tenantPrefix(tenant), key], answer));
  }

  removeExpired(before: number): Promise<number> {
    return this.env.transact(() => {
      let removed = 0;
      for (const { key, value } of this.db.getRange({})) {
        if ((value as StoredClaim).created_at < before) {
          this.db.removeSync(key);
          removed += 1;
        }
      }
      return removed;
    });
  }
}
