/**
 * Start-up bootstrap (issue 3). With TALLY_BOOTSTRAP_KEY and _SECRET: make
 * sure the sandbox Company `default` exists, and the key, created enabled when
 * absent. A key the operator disabled stays disabled, secret and all
 * (authentication rule 6: a leaked key is disabled and replaced, never revived
 * by a restart); an enabled one takes the environment's secret. Without them,
 * on an empty store: create `default` with a random sandbox key and print key
 * and secret once.
 */
import { announcements, type Logger } from '../log.js';
import { createApiKey, createCompany } from './admin.js';
import { hashSecret } from './secrets.js';
import type { TenancyStore } from './store.js';

export const BOOTSTRAP_COMPANY = 'default';

export async function bootstrap(
  tenancy: TenancyStore,
  config: { bootstrapKey?: string; bootstrapSecret?: string },
  log: Logger,
  now: Date,
): Promise<void> {
  const { bootstrapKey: key, bootstrapSecret: secret } = config;
  if (key !== undefined && secret !== undefined) {
    if (!tenancy.getCompany(BOOTSTRAP_COMPANY)) await createCompany(tenancy, BOOTSTRAP_COMPANY, 'Default', now);
    const existing = tenancy.getApiKey(key);
    if (!existing) {
      await createApiKey(tenancy, { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox', key, secret, system: true, description: 'bootstrap' }, now);
    } else if (!existing.enabled) {
      log.warn({ key }, 'TALLY_BOOTSTRAP_KEY names a disabled key: left disabled (`tally key enable` enables it; a new TALLY_BOOTSTRAP_KEY replaces it)');
    } else if (existing.secret_hash !== hashSecret(secret)) {
      // The environment defines the key: a secret replaced there (a leak) must stop working, not the one clients get from it.
      await tenancy.putApiKey({ ...existing, secret_hash: hashSecret(secret) });
      log.warn({ key }, 'the bootstrap key\'s secret is now TALLY_BOOTSTRAP_SECRET\'s: the one it had is refused');
    }
    return;
  }
  if (tenancy.listCompanies().length > 0) return;
  await createCompany(tenancy, BOOTSTRAP_COMPANY, 'Default', now);
  const created = await createApiKey(
    tenancy,
    { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox', description: 'first key, created at start-up' },
    now,
  );
  // Whatever LOG_LEVEL says: only the secret's hash is stored, so a quieter level (warn, silent) lost it for good.
  announcements(log).info({ company: BOOTSTRAP_COMPANY, environment: 'sandbox', key: created.key, secret: created.secret }, 'created the first API key; the secret is shown only now');
}
