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
 * A Company's own key sets its environment's budgets within the contract's, never past them (part 1, Limits: "rate
 * tiers apply to all API keys"): the limited party lifting its own limit would protect nothing on a server several
 * Companies share. The operator raises them (`tally company update --settings`, or a key's `--rate-limits`, which wins).
 */
function checkOwnRateLimits(limits: unknown): void {
  if (limits === null || typeof limits !== 'object') return; // the schema says what it must be
  for (const [name, limit] of Object.entries(limits)) {
    if (!Object.hasOwn(DEFAULT_RATE_LIMITS, name) || (typeof limit !== 'number' && typeof limit !== 'bigint')) continue;
    const most = DEFAULT_RATE_LIMITS[name as keyof RateLimits];
    if (!(Number.isInteger(Number(limit)) && limit >= 1 && limit <= most)) {
      throw invalidRequest(`rate_limits.${name}`, `${mustBeIn('integer', { minimum: 1, maximum: most })}: the operator raises a budget past the contract's (tally company update --settings)`);
    }
  }
}

export function companyRoutes({ tenancy, duplicates }: ServerContext): Routes {
  return {
    // Synchronous: the settings and the Company are in memory (docs/http.md).
    'company.get': (req) => ok(companyView(tenancy, req)),

    'company.update': (req) =>
      duplicates.suppress(req, 'company', async () => {
        // Before the schema, whose bounds (the operator's, 2147483647) would name another range.
        checkOwnRateLimits(req.body.rate_limits);
        const next = await changeSettings(tenancy, req.tenant, validate('company.update', req.body));
        return ok(companyView(tenancy, req, next));
      }),
  };
}
