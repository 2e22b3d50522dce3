/**
 * Records when a customer reaches a new level (won_at, expires_at): called in
 * the transaction that changes the customer's attributes, so GET
 * /customers/{id}/tiers answers since when a level is held.
 */
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { programStanding } from './measured.js';
import { appliesTo } from './standing.js';
import { TierStore } from './store.js';
import { DAY_MS, wireDatetime } from '../http/wire.js';

/** Inside a transaction; `now` is `YYYY-MM-DDThh:mm:ssZ` (cart metrics are measured up to its UTC date). Realtime carts call it too. */
export function recalculateTiers(env: StoreEnv, tenant: Tenant, customer: CustomerRecord, now: string): void {
  const store = new TierStore(env);
  for (const program of store.listPrograms(tenant)) {
    if (!appliesTo(program, customer)) continue;
    const level = programStanding(env, tenant, program, customer, now.slice(0, 10)).current?.level;
    if (level === undefined || store.membership(tenant, customer.id, program.id)?.level === level) continue;
    const expires = program.validity_days === undefined ? undefined : new Date(Date.parse(now) + program.validity_days * DAY_MS);
    store.putMembership(tenant, customer.id, program.id, {
      level,
      won_at: now,
      ...(expires === undefined ? {} : { expires_at: wireDatetime(expires) }),
    });
  }
}
