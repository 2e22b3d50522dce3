/** GET /customers/{id}/tiers: the customer's standing in each active tier program of its country or of none. */
import type { ServerContext } from '../context.js';
import { findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { optionalEnum } from '../http/params.js';
import { ok, type Routes } from '../http/types.js';
import { customerTiers } from './customer-tier.js';
import { TierStore } from './store.js';

export function tiersRoutes({ env }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  const tiers = new TierStore(env);
  return {
    'customers.tiers': (req) => {
      const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
      const customer = findCustomer(customers, req.tenant, by, req.params.id, 'id');
      return ok({ data: customerTiers(tiers, req, customer) });
    },
  };
}
