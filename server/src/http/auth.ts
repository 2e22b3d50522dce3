/**
 * Authentication (contract, Authentication): X-Api-Key, X-Api-Secret and
 * X-Api-Version 1. Any failure is the same 403 `{"message":"Forbidden"}`,
 * whether the key is unknown, disabled, or the secret or version is wrong.
 */
import type { TenancyStore } from '../tenancy/store.js';
import { secretMatches } from '../tenancy/secrets.js';
import type { ApiKeyRecord, ApiKeyView, Tenant } from '../tenancy/types.js';

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

/** What a stored key grants: its view for routes (without the secret hash) and its tenant. */
export interface Principal {
  view: ApiKeyView;
  tenant: Tenant;
}

const principals = new WeakMap<ApiKeyRecord, Principal>();

/** One Principal per stored record (records are cached), so requests allocate none. */
export function principalOf(record: ApiKeyRecord): Principal {
  let principal = principals.get(record);
  if (!principal) {
    const { secret_hash: _hidden, ...view } = record;
    principal = {
      view: Object.freeze(view),
      tenant: Object.freeze({ companyId: record.company_id, environment: record.environment }),
    };
    principals.set(record, principal);
  }
  return principal;
}
