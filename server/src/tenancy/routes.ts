/** GET and PATCH /company: the calling key's Company environment settings. */
import type { ServerContext } from '../context.js';
import { ok, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { changeSettings } from './admin.js';
import type { TenancyStore } from './store.js';

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

export function companyRoutes({ tenancy, duplicates }: ServerContext): Routes {
  return {
    // Synchronous: the settings and the Company are in memory (docs/http.md).
    'company.get': (req) => ok(companyView(tenancy, req)),

    'company.update': (req) =>
      duplicates.suppress(req, 'company', async () => {
        const next = await changeSettings(tenancy, req.tenant, validate('company.update', req.body));
        return ok(companyView(tenancy, req, next));
      }),
  };
}
