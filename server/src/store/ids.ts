/**
 * Server-allocated int64 ids (associations, merges, ...): one counter per
 * tenant and sequence, incremented inside the caller's write transaction so
 * an id is never handed out twice, even across processes.
 */
import type { Tenant } from '../tenancy/types.js';
import type { StoreEnv } from './env.js';
import { tenantPrefix } from './keys.js';

const INT64_MAX = 9223372036854775807n;

/** Call inside `env.transact`. Returns the next id (1, 2, ...) as a decimal string. */
export function allocateId(env: StoreEnv, tenant: Tenant, sequence: string): string {
  return step(env, tenant, sequence, 0n, 1n);
}

/** The largest integer JavaScript's JSON.parse reads exactly (Number.MAX_SAFE_INTEGER). */
export const JS_SAFE_MAX = 9007199254740991n;

/**
 * Call inside `env.transact`. Ids counted down from `top` (9223372036854775807 unless given), for records
 * whose ids clients also choose (carts, customers): a client numbering its own from 1 never meets one the
 * server gave.
 */
export function allocateIdFromTop(env: StoreEnv, tenant: Tenant, sequence: string, top = INT64_MAX): string {
  return step(env, tenant, `${sequence}:from_top`, top + 1n, -1n);
}

/** The last id `allocateId` handed out for the sequence (undefined before the first). */
export function lastAllocatedId(env: StoreEnv, tenant: Tenant, sequence: string): string | undefined {
  return env.db('sequences').get([tenantPrefix(tenant), sequence]) as string | undefined;
}

function step(env: StoreEnv, tenant: Tenant, sequence: string, start: bigint, by: bigint): string {
  const db = env.db('sequences');
  const key = [tenantPrefix(tenant), sequence];
  const stored = db.get(key) as string | undefined;
  const next = (stored === undefined ? start : BigInt(stored)) + by;
  db.putSync(key, next.toString());
  return next.toString();
}
