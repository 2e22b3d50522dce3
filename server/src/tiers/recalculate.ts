/**
 * Records when a customer reaches a new level (won_at, expires_at): called in
 * the transaction that changes the customer's attributes, so GET
 * /customers/{id}/tiers answers since when a level is held.
 */
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { programStanding } from './measured.js';
import { appliesTo } from './standing.js';
import { TierStore } from './store.js';
import { wireDatetime } from '../http/wire.js';
import { daysLater, localDate } from '../calendar/company-days.js';

/**
 * Inside a transaction; `now` is `YYYY-MM-DDThh:mm:ssZ`. Cart metrics are kept by the Company's local date, so
 * they are measured up to its local today, as reads and carts measure them; a level's validity_days are its calendar
 * days (expires_at at the local time it was won). Realtime carts call it too.
 */
export function recalculateTiers(env: StoreEnv, tenant: Tenant, customer: CustomerRecord, now: string, settings: CompanySettings): void {
  const store = new TierStore(env);
  const { timezone } = settings;
  const today = localDate(new Date(now), timezone);
  for (const program of store.listPrograms(tenant)) {
    if (!appliesTo(program, customer, settings)) continue;
    const level = programStanding(env, tenant, program, customer, today).current?.level;
    if (level === undefined || store.membership(tenant, customer.id, program.id)?.level === level) continue;
    const expires = program.validity_days === undefined ? undefined : daysLater(new Date(now), program.validity_days, timezone);
    store.putMembership(tenant, customer.id, program.id, {
      level,
      won_at: now,
      ...(expires === undefined ? {} : { expires_at: wireDatetime(expires) }),
    });
  }
}
