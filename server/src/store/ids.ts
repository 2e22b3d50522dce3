/**
 * Server-allocated int64 ids (associations, merges, ...): one counter per
 * tenant and sequence, incremented inside the caller's write transaction so
 * an id is never handed out twice, even across processes.
 */
import type { Tenant } from '../tenancy/types.js';
import type { StoreEnv } from './env.js';
import { tenantPrefix } from './keys.js';

/** Call inside `env.transact`. Returns the next id as a decimal string. */
export function allocateId(env: StoreEnv, tenant: Tenant, sequence: string): string {
  const db = env.db('sequences');
  const key = [tenantPrefix(tenant), sequence];
  const next = BigInt((db.get(key) as string | undefined) ?? '0') + 1n;
  db.putSync(key, next.toString());
  return next.toString();
}
