/**
 * Company and API key management, shared by the CLI and start-up bootstrap.
 * Errors are TallyError so the CLI reports them like the API does.
 */
import { isDeepStrictEqual } from 'node:util';
import { TallyError } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import { toSlug, wireDatetime } from '../http/wire.js';
import { hashSecret, newApiKey, newSecret } from './secrets.js';
import type { CompanyUpdate } from '../wire/types.js';
import { applySettingsPatch } from './settings.js';
import type { TenancyStore } from './store.js';
import {
  ENVIRONMENTS,
  type ApiKeyRecord,
  type ApiKeyView,
  type Company,
  type CompanySettings,
  type Environment,
  type RateLimits,
  type Tenant,
} from './types.js';

export function toView({ secret_hash: _hidden, ...view }: ApiKeyRecord): ApiKeyView {
  return view;
}

export function parseEnvironment(value: string): Environment {
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw invalidRequest('environment', `must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return value as Environment;
}

/** Every key of a Company's data starts with its id, and LMDB keys are bounded (about 1,900 bytes): ids stay short. */
const COMPANY_ID_MAX = 64;

export async function createCompany(tenancy: TenancyStore, id: string, name: string, now: Date): Promise<Company> {
  if (toSlug(id) === undefined || id.length > COMPANY_ID_MAX) {
    throw invalidRequest('id', `must be a slug (letters, digits, underscores, hyphens) of at most ${COMPANY_ID_MAX} characters`);
  }
  const company: Company = { id, name, created_at: wireDatetime(now) };
  if (!(await tenancy.createCompany(company))) throw new TallyError('duplicate_id', `company ${id} already exists`, 'id');
  return company;
}

export function requireCompany(tenancy: TenancyStore, id: string): Company {
  const company = tenancy.getCompany(id);
  if (!company) throw new TallyError('company_not_found', `company ${id} does not exist`, 'company');
  return company;
}

export async function updateCompany(
  tenancy: TenancyStore,
  id: string,
  change: { name?: string; environment: Environment; settings?: CompanyUpdate },
) {
  const company = requireCompany(tenancy, id);
  const tenant = { companyId: id, environment: change.environment };
  // Checked before the name is written: a refused patch (a default_language outside languages) renamed the Company.
  if (change.settings) applySettingsPatch(tenancy.getSettings(tenant), change.settings);
  if (change.name !== undefined) await tenancy.putCompany({ ...company, name: change.name });
  if (change.settings) await changeSettings(tenancy, tenant, change.settings);
  return { ...requireCompany(tenancy, id), environment: change.environment, ...tenancy.getSettings(tenant) };
}

/** Applies a settings patch (PATCH /company, the CLI): 409 conflict when another write changed the settings meanwhile. */
export async function changeSettings(tenancy: TenancyStore, tenant: Tenant, patch: CompanyUpdate): Promise<CompanySettings> {
  const current = tenancy.getSettings(tenant);
  const next = applySettingsPatch(current, patch);
  // A patch of the values held writes nothing: a new version makes every cart thread compile the Company's program again.
  if (isDeepStrictEqual({ ...next, version: current.version }, current)) return current;
  if (!(await tenancy.putSettings(tenant, next, current.version))) {
    throw new TallyError('conflict', 'settings were changed concurrently; read them again and retry');
  }
  return next;
}

export interface NewKey {
  companyId: string;
  environment: Environment;
  description?: string;
  /** Given by bootstrap; generated otherwise. */
  key?: string;
  secret?: string;
  system?: boolean;
  rateLimits?: RateLimits;
}

/** Creates an enabled key; the secret is returned this once and only its hash is stored. */
export async function createApiKey(tenancy: TenancyStore, spec: NewKey, now: Date): Promise<ApiKeyView & { secret: string }> {
  requireCompany(tenancy, spec.companyId);
  const key = spec.key ?? newApiKey();
  if (tenancy.getApiKey(key)) throw new TallyError('duplicate_id', `key ${key} already exists`, 'key');
  const secret = spec.secret ?? newSecret();
  const record: ApiKeyRecord = {
    key,
    company_id: spec.companyId,
    environment: spec.environment,
    secret_hash: hashSecret(secret),
    description: spec.description ?? '',
    enabled: true,
    system: spec.system ?? false,
    rate_limits: spec.rateLimits ?? {},
    created_at: wireDatetime(now),
  };
  await tenancy.putApiKey(record);
  return { ...toView(record), secret };
}

export async function updateApiKey(
  tenancy: TenancyStore,
  key: string,
  change: { enabled?: boolean; rateLimits?: RateLimits; description?: string },
): Promise<ApiKeyView> {
  const record = tenancy.getApiKey(key);
  if (!record) throw new TallyError('key_not_found', `key ${key} does not exist`, 'key');
  const next: ApiKeyRecord = {
    ...record,
    enabled: change.enabled ?? record.enabled,
    description: change.description ?? record.description,
    rate_limits: change.rateLimits ? { ...record.rate_limits, ...change.rateLimits } : record.rate_limits,
  };
  await tenancy.putApiKey(next);
  return toView(next);
}
