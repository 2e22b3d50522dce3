/**
 * Every request reads its API key and settings: this cache keeps them in
 * memory and drops everything when the tenancy generation changes (any write,
 * including the CLI's from another process), so a disabled key is refused on
 * the next request.
 */
import type { TenancyStore } from './store.js';
import type { ApiKeyRecord, Company, CompanySettings, Tenant } from './types.js';

export class CachedTenancyStore implements TenancyStore {
  private seen = -1;
  /**
   * The generation is read at most once per turn of the event loop (one LMDB
   * read per batch of requests, not per request). A write committed by
   * another process is seen from the next turn: a request sent after the
   * CLI returned is read in a turn that began after the commit, except when
   * it lands in a batch already being answered (microseconds under load).
   */
  private checked = false;
  private readonly uncheck = () => {
    this.checked = false;
  };
  /** Only keys that exist: unknown keys sent by anyone must not grow memory. */
  private readonly keys = new Map<string, ApiKeyRecord>();
  private readonly settings = new Map<string, Map<string, CompanySettings>>();
  private readonly companies = new Map<string, Company | undefined>();

  constructor(private readonly inner: TenancyStore) {}

  generation(): number {
    return this.inner.generation();
  }

  private fresh(): void {
    if (this.checked) return;
    this.checked = true;
    setImmediate(this.uncheck);
    const now = this.inner.generation();
    if (now === this.seen) return;
    this.seen = now;
    this.keys.clear();
    this.settings.clear();
    this.companies.clear();
  }

  getApiKey(key: string): ApiKeyRecord | undefined {
    this.fresh();
    let record = this.keys.get(key);
    if (!record) {
      record = this.inner.getApiKey(key);
      if (record) this.keys.set(key, record);
    }
    return record;
  }

  getSettings(tenant: Tenant): CompanySettings {
    this.fresh();
    let byEnvironment = this.settings.get(tenant.companyId);
    if (!byEnvironment) this.settings.set(tenant.companyId, (byEnvironment = new Map()));
    let settings = byEnvironment.get(tenant.environment);
    if (!settings) byEnvironment.set(tenant.environment, (settings = this.inner.getSettings(tenant)));
    return settings;
  }

  getCompany(id: string): Company | undefined {
    this.fresh();
    if (!this.companies.has(id)) this.companies.set(id, this.inner.getCompany(id));
    return this.companies.get(id);
  }

  listCompanies(): Company[] {
    return this.inner.listCompanies();
  }

  listApiKeys(companyId?: string): ApiKeyRecord[] {
    return this.inner.listApiKeys(companyId);
  }

  createCompany(company: Company): Promise<boolean> {
    return this.inner.createCompany(company);
  }

  putCompany(company: Company): Promise<void> {
    return this.inner.putCompany(company);
  }

  putSettings(tenant: Tenant, settings: CompanySettings, expectedVersion: number): Promise<boolean> {
    return this.inner.putSettings(tenant, settings, expectedVersion);
  }

  putApiKey(record: ApiKeyRecord): Promise<void> {
    return this.inner.putApiKey(record);
  }
}
