/** GET /customers/{id}/tiers: the customer's standing in each active tier program of its country or of none. */
import type { ServerContext } from '../context.js';
import { findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { optionalEnum } from '../http/params.js';
import { ok, type Routes } from '../http/types.js';
import { wireInt } from '../http/wire.js';
import { localDate } from '../points/local-date.js';
import { programStanding } from './measured.js';
import { appliesTo } from './standing.js';
import { TierStore } from './store.js';

export function tiersRoutes({ env }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  const tiers = new TierStore(env);
  return {
    'customers.tiers': (req) => {
      const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
      const customer = findCustomer(customers, req.tenant, by, req.params.id, 'id');
      const data = tiers
        .listPrograms(req.tenant)
        .filter((program) => appliesTo(program, customer))
        .map((program) => {
          const { value, current, next, toNext } = programStanding(env, req.tenant, program, customer, localDate(req.now, req.settings.timezone));
          const membership = tiers.membership(req.tenant, customer.id, program.id);
          const held = membership !== undefined && membership.level === current?.level ? membership : undefined;
          return {
            id: wireInt(program.id),
            name: program.name,
            countries: program.countries,
            current_level_name: current?.name ?? null,
            current_level: current?.level ?? 0,
            attribute_value: value,
            won_at: held?.won_at ?? null,
            expires_at: held?.expires_at ?? null,
            ...(next === undefined ? {} : { to_reach_next_level_value: toNext, to_reach_next_level_name: next.name }),
            structure: [...program.levels].sort((a, b) => a.level - b.level),
          };
        });
      return ok({ data });
    },
  };
}
