/**
 * The LMDB databases of customers, associations, merges and tiers, opened at
 * start-up: a database first opened inside a write transaction that aborts
 * (a refused create, say) is unusable afterwards ("dbi out of range"), so none
 * may be opened for the first time inside one. `sequences` is the framework's
 * id counter, which these transactions also use.
 */
import type { StoreEnv } from '../store/env.js';

const DATABASES = [
  'customers', 'customer_views', 'customer_index', 'customer_attribute_definitions', 'cards', 'pending_triggers',
  'associations', 'merges', 'merge_queue', 'tier_programs', 'tier_memberships', 'sequences',
];

export function openCustomerDatabases(env: StoreEnv): void {
  for (const name of DATABASES) env.db(name);
}
