/**
 * Stores written before 2026-11-27 index only the first holder of a duplicated email or dni: the other holders
 * (allow_duplicate_email / _dni) are not listed in `customer_index`, so when the indexed holder lets the value go
 * it is released instead of passing to the remaining holder of lowest id. This lists them once, when the server
 * opens the store (docs/storage.md, "Customers").
 */
import type { Key, StoreEnv } from '../store/env.js';
import { tenantPrefix, under } from '../store/keys.js';
import { migrations } from '../store/migrations.js';
import type { Tenant } from '../tenancy/types.js';
import { openCustomerDatabases } from './databases.js';
import { CustomerStore } from './store.js';
import type { CustomerRecord } from './types.js';

/** Its entry in `migrations`: when it finished. */
const HOLDERS_LISTED = 'duplicate_holders';

export interface HoldersListed {
  /** Holders that were not listed and now are. */
  listed: number;
  /** Values released by an older store while customers still held them: the holder of lowest id now holds each. */
  held: number;
}

/**
 * Indexes every customer's email and dni of `tenants` as `CustomerStore.put` does, writing only what is missing,
 * `batch` customers a transaction; then marks the store, so a later start does one get and nothing more. A
 * restart after a crash scans again from the start: the batches already committed write nothing.
 */
export async function migrateDuplicateHolders(env: StoreEnv, tenants: readonly Tenant[], batch = 10_000): Promise<HoldersListed> {
  const done: HoldersListed = { listed: 0, held: 0 };
  if (migrations(env).doesExist(HOLDERS_LISTED)) return done;
  // Outside any transaction (databases.ts says why).
  openCustomerDatabases(env);
  const store = new CustomerStore(env);
  const records = env.db('customers');
  for (const tenant of tenants) {
    const range = under([tenantPrefix(tenant)]);
    let start: Key[] = range.start;
    for (;;) {
      // Read inside the transaction: the records and the index entries checked against them are one snapshot.
      const { read, last, entries } = await env.transact(() => {
        const some = [...records.getRange({ start, end: range.end, limit: batch })];
        return {
          read: some.length,
          last: some.at(-1)?.key as Key[] | undefined,
          entries: some.flatMap(({ value }) => store.listHolder(tenant, value as CustomerRecord)),
        };
      });
      for (const entry of entries) done[entry === 'other' ? 'listed' : 'held'] += 1;
      if (read < batch || last === undefined) break;
      start = under(last).end;
    }
  }
  await env.transact(() => migrations(env).putSync(HOLDERS_LISTED, new Date().toISOString()));
  return done;
}
