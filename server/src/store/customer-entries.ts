/**
 * A customer's entries, clustered: the indexes a realtime cart writes for its
 * customer (the customer's carts and points transactions, the buckets those
 * hold, their spending and activation order, the wallet summary) live in one
 * database keyed [tenant, customer, kind, ...], not one database each. A
 * customer with a short history (most real customers) then has all of them
 * in one or two pages, and a cart rewrites those instead of a leaf and a
 * branch page in each of six databases (docs/storage.md; bench/README.md,
 * twelfth session).
 *
 * Each kind keeps the keys it had as a database of its own, [tenant,
 * customer, ...rest]: `customerEntries(env, kind)` inserts its tag after the
 * customer and takes it out of the keys it returns, so code reads and writes
 * a kind as it did its database. Every range a kind is read by starts with
 * [tenant, customer].
 */
import type { Db, Key, StoreEnv } from './env.js';

export const CUSTOMER_ENTRIES = 'customer_entries';

/** The kinds of entry, named as the databases that held them before (moved at start), and their tag in the key. */
const TAGS = {
  customer_carts: 'c',
  points_by_customer: 't',
  points_tx_buckets: 'b',
  points_available_txs: 'a',
  points_pending_txs: 'p',
  points_wallets: 'w',
} as const;

export type CustomerEntryKind = keyof typeof TAGS;

export interface KeyRange {
  start: Key[];
  end: Key[];
  limit?: number;
}

/** What a kind of entry offers of an lmdb-js database, with the kind's own keys. */
export interface CustomerEntries {
  get(key: Key[]): unknown;
  putSync(key: Key[], value: unknown): void;
  removeSync(key: Key[]): void;
  getKeys(range: KeyRange): Iterable<Key[]>;
  getRange(range: KeyRange): Iterable<{ key: Key[]; value: unknown }>;
}

const views = new WeakMap<StoreEnv, Map<CustomerEntryKind, CustomerEntries>>();

/** One kind of a customer's entries. Keys are [tenant, customer, ...]; inside `env.transact` for writes. */
export function customerEntries(env: StoreEnv, kind: CustomerEntryKind): CustomerEntries {
  let ofEnv = views.get(env);
  if (!ofEnv) views.set(env, (ofEnv = new Map()));
  let view = ofEnv.get(kind);
  if (!view) ofEnv.set(kind, (view = entriesOf(env, TAGS[kind])));
  return view;
}

function entriesOf(env: StoreEnv, tag: string): CustomerEntries {
  // Looked up per call: env.db forgets a database first opened by a transaction that aborted.
  const db = () => env.db(CUSTOMER_ENTRIES);
  const stored = (key: Key[]): Key[] => [key[0], key[1], tag, ...key.slice(2)];
  const own = (key: Key): Key[] => {
    const parts = key as Key[];
    return [parts[0], parts[1], ...parts.slice(3)];
  };
  const storedRange = (range: KeyRange) => ({ ...range, start: stored(range.start), end: stored(range.end) });
  return {
    get: (key) => db().get(stored(key)),
    putSync: (key, value) => db().putSync(stored(key), value),
    removeSync: (key) => db().removeSync(stored(key)),
    *getKeys(range) {
      for (const key of db().getKeys(storedRange(range))) yield own(key);
    },
    *getRange(range) {
      for (const { key, value } of db().getRange(storedRange(range))) yield { key: own(key), value };
    },
  };
}

/**
 * Moves the entries of stores written before the clustering (one database per kind) into `customer_entries`,
 * `batch` entries a transaction (each one moves its entries and removes them from the old database, so a
 * restart after a crash goes on where it stopped). The server runs it when it opens the store, before any
 * request; once done it finds nothing to move. Returns the entries moved.
 */
export async function migrateCustomerEntries(env: StoreEnv, batch = 10_000): Promise<number> {
  let moved = 0;
  for (const kind of Object.keys(TAGS) as CustomerEntryKind[]) {
    const old = env.existingDb(kind);
    if (!old) continue;
    const entries = customerEntries(env, kind);
    for (;;) {
      const count = await env.transact(() => moveSome(old, entries, batch));
      moved += count;
      if (count < batch) break;
    }
  }
  return moved;
}

function moveSome(old: Db, entries: CustomerEntries, batch: number): number {
  // Read first: the old entries are removed after, not while a cursor walks them.
  const some = [...old.getRange({ limit: batch })];
  for (const { key, value } of some) {
    entries.putSync(key as Key[], value);
    old.removeSync(key);
  }
  return some.length;
}
