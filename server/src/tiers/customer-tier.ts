/**
 * The customer's tier as the evaluator's `customer.tier` fact: the name of the
 * level the customer holds in the first (lowest id) active tier program of its
 * country or of no country; undefined when it holds none.
 */
import type { CustomerRecord } from '../customers/types.js';
import type { Tenant } from '../tenancy/types.js';
import { programStanding } from './measured.js';
import { appliesTo } from './standing.js';
import type { TierStore } from './store.js';

/** `today`: the Company's local date (cart metrics are measured up to it). */
export function customerTier(tiers: TierStore, tenant: Tenant, customer: CustomerRecord, today: string): string | undefined {
  for (const program of tiers.listPrograms(tenant)) {
    if (appliesTo(program, customer)) return programStanding(tiers.env, tenant, program, customer, today).current?.name;
  }
  return undefined;
}
