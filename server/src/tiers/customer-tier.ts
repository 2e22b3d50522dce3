/**
 * The customer's tiers: the evaluator's `customer.tier` fact (the name of the
 * level the customer holds (held.ts) in the first (lowest id) active tier
 * program of its country or of no country; undefined when it holds none), and
 * the program tier entries GET /customers/{id}/tiers answers.
 */
import type { CustomerRecord } from '../customers/types.js';
import type { TallyRequest } from '../http/types.js';
import { wireInt } from '../http/wire.js';
import { localDate } from '../calendar/company-days.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { heldStanding } from './held.js';
import { programStanding } from './measured.js';
import { appliesTo } from './standing.js';
import type { TierStore } from './store.js';

/** `now`: the instant read (cart metrics are measured up to its local date). */
export function customerTier(tiers: TierStore, tenant: Tenant, settings: CompanySettings, customer: CustomerRecord, now: Date): string | undefined {
  for (const program of tiers.listPrograms(tenant)) {
    if (!appliesTo(program, customer, settings)) continue;
    // Without validity_days the level held is the measured one: the cart path reads no membership for it.
    if (program.validity_days === undefined) return programStanding(tiers.env, tenant, program, customer, localDate(now, settings.timezone)).current?.name;
    return heldStanding(tiers, tenant, program, customer, now, settings.timezone).standing.current?.name;
  }
  return undefined;
}

/** The customer's standing in each active tier program of its country or of none (contract: Program tier entry). */
export function customerTiers(tiers: TierStore, req: Pick<TallyRequest, 'tenant' | 'now' | 'settings'>, customer: CustomerRecord) {
  return tiers
    .listPrograms(req.tenant)
    .filter((program) => appliesTo(program, customer, req.settings))
    .map((program) => {
      const { standing, membership: held } = heldStanding(tiers, req.tenant, program, customer, req.now, req.settings.timezone);
      const { value, current, next, toNext } = standing;
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
}
