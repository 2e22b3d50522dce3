/**
 * Authentication (contract, Authentication): X-Api-Key, X-Api-Secret and
 * X-Api-Version 1. Any failure is the same 403 `{"message":"Forbidden"}`,
 * whether the key is unknown, disabled, or the secret or version is wrong.
 */
import type { TenancyStore } from '../tenancy/store.js';
import { secretMatches } from '../tenancy/secrets.js';
import type { ApiKeyRecord } from '../tenancy/types.js';

export const API_VERSION = '1';

export interface Credentials {
  key?: string;
  secret?: string;
  version?: string;
}

export function hasCredentials(c: Credentials): boolean {
  return c.key !== undefined || c.secret !== undefined || c.version !== undefined;
}

/** The enabled key these credentials prove, or undefined. */
export function authenticate(c: Credentials, tenancy: TenancyStore): ApiKeyRecord | undefined {
  if (c.key === undefined || c.secret === undefined || c.version !== API_VERSION) return undefined;
  const record = tenancy.getApiKey(c.key);
  if (!record) return undefined;
  // Compare even for a disabled key, so timing does not tell enabled from disabled.
  const matches = secretMatches(c.secret, record.secret_hash);
  return matches && record.enabled ? record : undefined;
}
