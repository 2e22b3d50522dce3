/** GET and PATCH /company: the calling key's Company environment settings. */
import type { ServerContext } from '../context.js';
import { invalidRequest, mustBeIn } from '../http/errors.js';
import { DEFAULT_RATE_LIMITS } from '../http/rate-limit.js';
import { ok, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { changeSettings } from './admin.js';
import type { TenancyStore } from './store.js';
import type { RateLimits } from './types.js';

function companyView(tenancy: TenancyStore, req: TallyRequest, settings = req.settings) {
  const company = tenancy.getCompany(req.tenant.companyId);
  return {
    id: req.tenant.companyId,
    name: company?.name ?? req.tenant.companyId,
    environment: req.tenant.environment,
    ...settings,
    audiences: settings.audiences.map((audience) => ({ ...audience, id: wireInt(audience.id) })),
  };
}

/**
 * A Company's own key may lower its environment's budgets, never raise them past the contract's (part 1, Limits: "rate
 * tiers apply to all API keys"): the limited party lifting its own limit would protect nothing on a server several
 * Companies share. The operator raises them (`tally company update --settings`, a key's `--rate-limits`).
 */
function checkOwnRateLimits(limits: RateLimits): void {
  for (const [name, limit] of Object.entries(limits) as [keyof RateLimits, number][]) {
    if (limit > DEFAULT_RATE_LIMITS[name]) {
      throw invalidRequest(`rate_limits.${name}`, `${mustBeIn('integer', { minimum: 1, maximum: DEFAULT_RATE_LIMITS[name] })}: the operator raises a budget past the contract's (tally company update --settings)`);
    }
  }
}

export function companyRoutes({ tenancy, duplicates }: ServerContext): Routes {
  return {
    // Synchronous: the settings and the Company are in memory (docs/http.md).
    'company.get': (req) => ok(companyView(tenancy, req)),

    'company.update': (req) =>
      duplicates.suppress(req, 'company', async () => {
        const patch = validate('company.update', req.body);
        checkOwnRateLimits(patch.rate_limits ?? {});
        const next = await changeSettings(tenancy, req.tenant, patch);
        return ok(companyView(tenancy, req, next));
      }),
  };
}
