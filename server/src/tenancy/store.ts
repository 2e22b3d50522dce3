/**
 * The tenancy store: Companies, their environments' settings and API keys.
 * Routes, the CLI and start-up use this interface only; LmdbTenancyStore is
 * the embedded implementation (keys in docs/storage.md).
 */
import type { Db, StoreEnv } from '../store/env.js';
import { LMDB_MAX_KEY_BYTES } from '../store/keys.js';
import { DEFAULT_SETTINGS } from './settings.js';
import { ENVIRONMENTS, type ApiKeyRecord, type Company, type CompanySettings, type Tenant } from './types.js';

export interface TenancyStore {
  getCompany(id: string): Company | undefined;
  listCompanies(): Company[];
  /** Creates the Company; false when the id is taken. */
  createCompany(company: Company): Promise<boolean>;
  putCompany(company: Company): Promise<void>;
  /** The environment's settings (defaults until first changed). */
  getSettings(tenant: Tenant): CompanySettings;
  /** Replaces the settings when their version is still `expectedVersion`; false otherwise. */
  putSettings(tenant: Tenant, settings: CompanySettings, expectedVersion: number): Promise<boolean>;
  getApiKey(key: string): ApiKeyRecord | undefined;
  listApiKeys(companyId?: string): ApiKeyRecord[];
  putApiKey(record: ApiKeyRecord): Promise<void>;
  /** A number that changes with every write of tenancy data, by any process. */
  generation(): number;
}

/** Every environment of every Company: what the background sweeps walk. */
export function everyTenant(tenancy: TenancyStore): Tenant[] {
  return tenancy.listCompanies().flatMap((company) => ENVIRONMENTS.map((environment) => ({ companyId: company.id, environment })));
}

export class LmdbTenancyStore implements TenancyStore {
  // Opened here, outside any transaction (docs/storage.md).
  private readonly companies: Db;
  private readonly settings: Db;
  private readonly apiKeys: Db;
  private readonly meta: Db;

  constructor(private readonly env: StoreEnv) {
    this.companies = env.db('companies');
    this.settings = env.db('settings');
    this.apiKeys = env.db('api_keys');
    this.meta = env.db('tenancy_meta');
  }

  generation(): number {
    return (this.meta.get('generation') as number | undefined) ?? 0;
  }

  /** Runs a write and bumps the generation in the same transaction, so caches in other processes notice. */
  private write<T>(work: () => T): Promise<T> {
    return this.env.transact(() => {
      const result = work();
      this.meta.putSync('generation', this.generation() + 1);
      return result;
    });
  }

  getCompany(id: string): Company | undefined {
    return this.companies.get(id) as Company | undefined;
  }

  listCompanies(): Company[] {
    return [...this.companies.getRange({})].map(({ value }) => value as Company);
  }

  createCompany(company: Company): Promise<boolean> {
    return this.write(() => {
      if (this.companies.get(company.id) !== undefined) return false;
      this.companies.putSync(company.id, company);
      return true;
    });
  }

  async putCompany(company: Company): Promise<void> {
    await this.write(() => this.companies.putSync(company.id, company));
  }

  getSettings(tenant: Tenant): CompanySettings {
    const stored = this.settings.get([tenant.companyId, tenant.environment]) as CompanySettings | undefined;
    return stored ?? DEFAULT_SETTINGS;
  }

  putSettings(tenant: Tenant, settings: CompanySettings, expectedVersion: number): Promise<boolean> {
    return this.write(() => {
      if (this.getSettings(tenant).version !== expectedVersion) return false;
      this.settings.putSync([tenant.companyId, tenant.environment], settings);
      return true;
    });
  }

  getApiKey(key: string): ApiKeyRecord | undefined {
    // Any text a client sends as X-Api-Key lands here: one longer than an LMDB key is no stored key (looked up, it throws).
    if (Buffer.byteLength(key) > LMDB_MAX_KEY_BYTES) return undefined;
    return this.apiKeys.get(key) as ApiKeyRecord | undefined;
  }

  listApiKeys(companyId?: string): ApiKeyRecord[] {
    const all = [...this.apiKeys.getRange({})].map(({ value }) => value as ApiKeyRecord);
    return companyId === undefined ? all : all.filter((k) => k.company_id === companyId);
  }

  async putApiKey(record: ApiKeyRecord): Promise<void> {
    await this.write(() => this.apiKeys.putSync(record.key, record));
  }
}
