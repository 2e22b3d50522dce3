/**
 * The customer's tier as the evaluator's `customer.tier` fact: the name of the
 * level the customer holds in the first (lowest id) active tier program of its
 * country or of no country; undefined when it holds none.
 */
import type { CustomerRecord } from '../customers/types.js';
import type { Tenant } from '../tenancy/types.js';
import { appliesTo, standing } from './standing.js';
import type { TierStore } from './store.js';

export function customerTier(tiers: TierStore, tenant: Tenant, customer: CustomerRecord): string | undefined {
  for (const program of tiers.listPrograms(tenant)) {
    if (appliesTo(program, customer)) return standing(program, customer).current?.name;
  }
  return undefined;
}
