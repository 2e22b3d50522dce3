/**
 * Authentication (contract, Authentication): X-Api-Key, X-Api-Secret and
 * X-Api-Version 1. Any failure is the same 403 `{"message":"Forbidden"}`,
 * whether the key is unknown, disabled, or the secret or version is wrong.
 */
import type { TenancyStore } from '../tenancy/store.js';
import { secretMatches, UNKNOWN_KEY_HASH } from '../tenancy/secrets.js';
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

/** Whether the secret is checked at all: a key, its secret and the right version (otherwise 403 at once). */
export function checksSecret(c: Credentials): c is Required<Credentials> {
  return c.key !== undefined && c.secret !== undefined && c.version === API_VERSION;
}

/**
 * The enabled key these credentials prove, or undefined. `matches` is the secret check (tests count its calls).
 * The secret is hashed and compared whatever the key: a disabled key's stored hash, an unknown key's
 * UNKNOWN_KEY_HASH, so timing tells neither an unknown key nor a disabled one from a wrong secret.
 */
export function authenticate(c: Credentials, tenancy: TenancyStore, matches = secretMatches): ApiKeyRecord | undefined {
  if (!checksSecret(c)) return undefined;
  const record = tenancy.getApiKey(c.key);
  const proven = matches(c.secret, record?.secret_hash ?? UNKNOWN_KEY_HASH);
  return proven && record?.enabled ? record : undefined;
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
