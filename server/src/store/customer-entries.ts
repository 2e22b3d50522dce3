/**
 * A customer's entries, clustered: the records a realtime cart writes for its
 * customer (the customer's carts and points transactions, the buckets those
 * hold, their spending and activation order, the wallet summary, the daily
 * metrics challenges and tiers measure, challenge progress) live in one
 * database keyed [tenant, customer, kind, ...], not one database each. A
 * customer with a short history (most real customers) then has all of them
 * in one or two pages, and a cart rewrites those instead of a leaf and a
 * branch page in each of seven databases (docs/storage.md; bench/README.md,
 * twelfth and thirteenth sessions).
 *
 * Each kind keeps the keys it had as a database of its own, [tenant,
 * customer, ...rest]: `customerEntries(env, kind)` inserts its tag after the
 * customer and takes it out of the keys it returns, so code reads and writes
 * a kind as it did its database. Every range a kind is read by starts with
 * [tenant, customer].
 */
import type { Db, Key, StoreEnv } from './env.js';

export const CUSTOMER_ENTRIES = 'customer_entries';

/**
 * The kinds of entry and their tag in the key. The points and carts kinds are named as the databases that
 * held them before; the challenge kinds were the sections of one database (`SECTIONED`). Both are moved at start.
 */
const TAGS = {
  customer_carts: 'c',
  points_by_customer: 't',
  points_tx_buckets: 'b',
  points_available_txs: 'a',
  points_pending_txs: 'p',
  points_wallets: 'w',
  challenge_daily: 'd',
  challenge_progress: 'g',
} as const;

/** Databases that held several kinds, keyed [tenant, section, customer, ...rest]: the kind of each section. */
const SECTIONED: Record<string, Record<string, CustomerEntryKind>> = {
  challenge_customers: { daily: 'challenge_daily', progress: 'challenge_progress' },
};

export type CustomerEntryKind = keyof typeof TAGS;

export interface KeyRange {
  start: Key[];
  end: Key[];
  limit?: number;
}

/** What a kind of entry offers of an lmdb-js database, with the kind's own keys. */
export interface CustomerEntries {
  /** The kind (page tokens name it). */
  readonly name: CustomerEntryKind;
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
  if (!view) ofEnv.set(kind, (view = entriesOf(env, kind)));
  return view;
}

function entriesOf(env: StoreEnv, kind: CustomerEntryKind): CustomerEntries {
  const tag = TAGS[kind];
  // Looked up per call: env.db forgets a database first opened by a transaction that aborted.
  const db = () => env.db(CUSTOMER_ENTRIES);
  const stored = (key: Key[]): Key[] => [key[0], key[1], tag, ...key.slice(2)];
  const own = (key: Key): Key[] => {
    const parts = key as Key[];
    return [parts[0], parts[1], ...parts.slice(3)];
  };
  const storedRange = (range: KeyRange) => ({ ...range, start: stored(range.start), end: stored(range.end) });
  return {
    name: kind,
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
 * Up to `limit` customers (their key part) with entries in the environment of `tenant` (a tenant prefix), after
 * the customer `after`, in key order: a known customer or not (a cart may name an unknown id). A skip scan, one
 * seek a customer, whatever its number of entries.
 */
export function customersWithEntries(env: StoreEnv, tenant: string, after: string | undefined, limit: number): string[] {
  const db = env.db(CUSTOMER_ENTRIES);
  const beyond = Buffer.from([0xff]);
  const end = [tenant, beyond];
  const found: string[] = [];
  let start: Key[] = after === undefined ? [tenant] : [tenant, after, beyond];
  while (found.length < limit) {
    const [key] = db.getKeys({ start, end, limit: 1 });
    if (key === undefined) break;
    const customer = (key as string[])[1];
    found.push(customer);
    start = [tenant, customer, beyond];
  }
  return found;
}

/** Where an entry of an older store's database goes: its kind and its key as the kind sees it. */
type Destination = (key: Key[]) => [CustomerEntryKind, Key[]];

/**
 * Moves the entries of stores written before the clustering (one database per kind, or per set of kinds:
 * `SECTIONED`) into `customer_entries`, `batch` entries a transaction (each one moves its entries and removes
 * them from the old database, so a restart after a crash goes on where it stopped). The server runs it when it
 * opens the store, before any request; once done it finds nothing to move. Returns the entries moved.
 */
export async function migrateCustomerEntries(env: StoreEnv, batch = 10_000): Promise<number> {
  const sources: [string, Destination][] = [
    ...(Object.keys(TAGS) as CustomerEntryKind[]).map((kind): [string, Destination] => [kind, (key) => [kind, key]]),
    ...Object.entries(SECTIONED).map(([name, kinds]): [string, Destination] => [
      name,
      (key) => {
        const [tenant, section, ...rest] = key;
        // An unknown section stops the start: left in place, it would be read again by every batch.
        if (typeof section !== 'string' || !(section in kinds)) throw new Error(`customer entries: no kind for the key ${JSON.stringify(key)} of ${name}`);
        return [kinds[section], [tenant, ...rest]];
      },
    ]),
  ];
  let moved = 0;
  for (const [name, destination] of sources) {
    const old = env.existingDb(name);
    if (!old) continue;
    for (;;) {
      const count = await env.transact(() => moveSome(env, old, destination, batch));
      moved += count;
      if (count < batch) break;
    }
  }
  return moved;
}

function moveSome(env: StoreEnv, old: Db, destination: Destination, batch: number): number {
  // Read first: the old entries are removed after, not while a cursor walks them.
  const some = [...old.getRange({ limit: batch })];
  for (const { key, value } of some) {
    const [kind, kindKey] = destination(key as Key[]);
    customerEntries(env, kind).putSync(kindKey, value);
    old.removeSync(key);
  }
  return some.length;
}
