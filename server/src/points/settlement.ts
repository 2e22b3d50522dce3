/**
 * The settlement sweep: at start and every POINTS_SETTLEMENT_INTERVAL_MS, the
 * activations and expirations already due are recorded for every customer of
 * every Company environment, so the Company-wide ledger (GET
 * /points/transactions without a customer) holds them even for customers
 * nobody reads or charges. Settlement stays lazy as well (ledger.ts): between
 * sweeps, a customer's own reads and changes settle it first, and a customer
 * the sweep reaches after them has nothing left to settle.
 *
 * It walks the customers with entries (customer-entries.ts), known or not (a
 * cart may record points for an unknown id); a customer is settled only when
 * its wallet summary says something may be due on the Company's today (one
 * get each); those of a chunk are settled in
 * one short write transaction, and the sweep yields to the event loop between
 * chunks so requests keep being answered. One sweep runs at a time; stopping
 * waits for the chunk in progress.
 */
import { CustomerStore } from '../customers/store.js';
import type { Logger } from '../log.js';
import { startSweep, type Observe } from '../sweeps.js';
import { customersWithEntries } from '../store/customer-entries.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, tenantPrefix } from '../store/keys.js';
import { everyTenant, type TenancyStore } from '../tenancy/store.js';
import { needsSettlement, settleCustomer } from './ledger.js';
import { localDate } from '../calendar/company-days.js';
import { settlementMayBeDue } from './wallet-store.js';

/** Customers read, and at most settled in one write transaction, between two yields. */
const CHUNK = 500;

export interface SweepSources {
  env: StoreEnv;
  tenancy: TenancyStore;
}

/** Settles every customer of every environment with something due at the time of its chunk; returns how many. Stops between chunks once `stopped()`. */
export async function sweepSettlements({ env, tenancy }: SweepSources, stopped: () => boolean = () => false): Promise<number> {
  const customers = new CustomerStore(env);
  let settled = 0;
  for (const tenant of everyTenant(tenancy)) {
    let after: string | undefined;
    for (;;) {
      if (stopped()) return settled;
      // Customers with entries, not customer records: points recorded for an unknown id (a cart's) are settled too.
      const keys = customersWithEntries(env, tenantPrefix(tenant), after, CHUNK);
      if (keys.length === 0) break;
      after = keys[keys.length - 1];
      const ids = keys.map(idFromKey);
      const clock = { now: new Date(), timezone: tenancy.getSettings(tenant).timezone };
      const today = localDate(clock.now, clock.timezone);
      const due = ids.filter((id) => settlementMayBeDue(env, tenant, id, today));
      if (due.length > 0) {
        settled += await env.transact(() => {
          // Checked again in the transaction: a request may have settled the customer meanwhile.
          const now = due.filter((id) => needsSettlement(env, tenant, id, clock));
          for (const id of now) settleCustomer(env, tenant, id, customers.get(tenant, id)?.code ?? null, clock);
          return now.length;
        });
      }
      await new Promise((resume) => setImmediate(resume));
    }
  }
  return settled;
}

/** Sweeps now and every `everyMs` (never two at once); returns a stop function that resolves once a sweep in progress has stopped. */
export function startSettlementSweep(sources: SweepSources, log: Logger, everyMs: number, observe: Observe): () => Promise<void> {
  return startSweep(
    everyMs,
    async (stopped) => {
      const settled = await observe(() => sweepSettlements(sources, stopped));
      if (settled > 0) log.info({ customers: settled }, 'points settled by the sweep');
    },
    (err) => log.error({ err }, 'points settlement sweep failed'),
  );
}
