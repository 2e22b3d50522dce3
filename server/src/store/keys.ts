/**
 * Key layout shared by every resource (docs/storage.md). Keys are arrays in
 * lmdb's ordered-binary encoding; each record of a Company's environment
 * starts with the tenant prefix, so environments never see each other's data.
 */
import type { Tenant } from '../tenancy/types.js';
import type { Key } from './env.js';

/** lmdb-js's largest key, in bytes (its `maxKeySize`, absent from its typings). */
export const LMDB_MAX_KEY_BYTES = 1978;

export function tenantPrefix(tenant: Tenant): string {
  return `${tenant.companyId}/${tenant.environment}`;
}

/**
 * An int64 id (canonical decimal string) as a key part that sorts
 * numerically: zero-padded to 19 digits.
 */
export function idKey(id: string): string {
  return id.padStart(19, '0');
}

const INT64_MAX = 9223372036854775807n;

/** An int64 id as a key part that sorts the newest (highest) id first. */
export function newestFirstKey(id: string): string {
  return idKey((INT64_MAX - BigInt(id)).toString());
}

/** The inverse of idKey. */
export function idFromKey(key: string): string {
  return key.replace(/^0+/, '');
}

/** Every key that starts with `prefix` (lmdb orders array keys part by part). */
export function under(prefix: Key[]): { start: Key[]; end: Key[] } {
  return { start: prefix, end: [...prefix, Buffer.from([0xff])] };
}
