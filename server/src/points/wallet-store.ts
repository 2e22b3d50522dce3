/**
 * Where the wallet lives: the buckets a points transaction granted are one
 * record, indexed by spending order (transactions holding available points,
 * by available_to then available_from) and by activation date (transactions
 * holding pending points), beside a summary of the customer's points. An
 * operation loads only the transactions it needs (those due for activation
 * or expiry, the first ones in spending order, one named transaction) into a
 * WalletView, runs the pure bookkeeping of wallet.ts on their buckets and
 * writes back what changed: a customer with years of purchases costs the
 * same per cart as a new one, and a cart that earns points from five
 * campaigns writes one record and one index entry, not five of each.
 *
 * Keys (kinds of customer entries, store/customer-entries.ts): `points_tx_buckets` [tenant, customer, tx] -> Bucket[] (sorted by campaign, from, to);
 * `points_available_txs` [tenant, customer, to|'~', from, tx] -> null;
 * `points_pending_txs` [tenant, customer, due (`pendingDue`), tx] -> null;
 * `points_wallets` [tenant, customer] -> Summary.
 */
import { addToLocalDate } from '@tally/engine';
import { customerEntries } from '../store/customer-entries.js';
import type { Key, StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { Balance } from './types.js';
import { balanceOf, type Bucket, type Wallet } from './wallet.js';

/** Sums over every bucket of the customer (available without the debt). */
export interface Summary {
  available: number;
  pending: number;
  debt: number;
  /**
   * When the next settlement can be due, so that reads skip the scans of the
   * indexes until then: the earliest date a pending bucket is due (its
   * available_from, or the day after an earlier available_to: `pendingDue`)
   * and the earliest available_to of an expiring one (null: none; absent in a
   * summary written before these fields: unknown, scan).
   */
  first_pending_from?: string | null;
  first_available_to?: string | null;
}

// Kinds of customer entries (store/customer-entries.ts), named as the databases they were.
const BUCKETS = 'points_tx_buckets';
const AVAILABLE = 'points_available_txs';
const PENDING = 'points_pending_txs';
const SUMMARIES = 'points_wallets';
type Index = typeof AVAILABLE | typeof PENDING;
/** The layout before buckets were grouped by transaction: one record and one index entry per bucket (migrated at start). */
const BUCKETS_V1 = 'points_buckets';
const INDEXES_V1 = ['points_available', 'points_pending'];
const EMPTY: Summary = { available: 0, pending: 0, debt: 0, first_pending_from: null, first_available_to: null };
const NEVER = '~'; // sorts after every date: never-expiring points are spent last

type Part = string;

function identityOf(b: Bucket): string {
  return `${idKey(b.tx)}/${b.campaign_id ?? ''}/${b.from}/${b.to ?? ''}`;
}

function compareParts(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A transaction's buckets in a stable order (the order the per-bucket index kept): by campaign, then dates. */
function byCampaignAndDates(a: Bucket, b: Bucket): number {
  return compareParts(a.campaign_id ?? '', b.campaign_id ?? '') || compareParts(a.from, b.from) || compareParts(a.to ?? '', b.to ?? '');
}

/**
 * When a pending bucket is next due: at its available_from, or, when its available_to comes first (a fixed expiry
 * before a relative activation), the day after available_to, when it expires without ever activating.
 */
function pendingDue(b: Bucket): string {
  return b.to !== null && b.to < b.from ? addToLocalDate(b.to, 1, 'days') : b.from;
}

/** The index entry of a bucket holding points, without the [tenant, customer] prefix (null: it holds none). */
function indexEntry(b: Bucket): { db: Index; key: Part[] } | null {
  if (b.remaining <= 0) return null;
  const tx = idKey(b.tx);
  return b.active ? { db: AVAILABLE, key: [b.to ?? NEVER, b.from, tx] } : { db: PENDING, key: [pendingDue(b), tx] };
}

/** The index entries of a transaction's buckets, by `db/key` (buckets with the same dates share one). */
function indexEntries(buckets: readonly Bucket[]): Map<string, { db: Index; key: Part[] }> {
  const entries = new Map<string, { db: Index; key: Part[] }>();
  for (const b of buckets) {
    const entry = indexEntry(b);
    if (entry) entries.set(`${entry.db}/${entry.key.join('/')}`, entry);
  }
  return entries;
}

/** Whether a bucket is still held: pending ones are, available ones while they hold points. */
function isHeld(b: Bucket): boolean {
  return !b.active || b.remaining > 0;
}

/** Whether an index may hold due buckets, from its first date (null: empty; undefined: unknown). */
function mayHoldDue(first: string | null | undefined, due: (date: string) => boolean): boolean {
  return first === undefined || (first !== null && due(first));
}

/** Whether the customer's summary says an activation or expiration may be due on `today` (no wallet: none). */
export function settlementMayBeDue(env: StoreEnv, tenant: Tenant, customerId: string, today: string): boolean {
  const summary = customerEntries(env, SUMMARIES).get([tenantPrefix(tenant), idKey(customerId)]) as Summary | undefined;
  if (!summary) return false;
  return mayHoldDue(summary.first_pending_from, (date) => date <= today) || mayHoldDue(summary.first_available_to, (date) => date < today);
}

export class WalletView {
  private readonly prefix: string;
  private readonly cust: string;
  private readonly summary: Summary;
  /** The loaded buckets as they were, by identity. */
  private readonly before = new Map<string, Bucket>();
  /** The transactions whose buckets are loaded (idKey). */
  private readonly loaded = new Set<string>();
  /** The loaded part of the wallet, with the customer's debt: what wallet.ts works on. */
  wallet: Wallet;
  /** Whether `save` removed an index entry (the summary's first dates are then read again). */
  private unindexed = false;

  constructor(
    private readonly env: StoreEnv,
    tenant: Tenant,
    customerId: string,
  ) {
    this.prefix = tenantPrefix(tenant);
    this.cust = idKey(customerId);
    this.summary = (customerEntries(env, SUMMARIES).get([this.prefix, this.cust]) as Summary | undefined) ?? EMPTY;
    this.wallet = { buckets: [], debt: this.summary.debt };
  }

  private stored(tx: Part): Bucket[] {
    return (customerEntries(this.env, BUCKETS).get([this.prefix, this.cust, tx]) as Bucket[] | undefined) ?? [];
  }

  /** Loads the buckets of these transactions (idKey), each once. */
  private load(txs: Iterable<Part>): void {
    for (const tx of txs) {
      if (this.loaded.has(tx)) continue;
      this.loaded.add(tx);
      for (const b of this.stored(tx)) {
        this.before.set(identityOf(b), b);
        this.wallet.buckets.push({ ...b });
      }
    }
  }

  private range(db: Index, from: Key[], to: Key[]): Part[][] {
    const start = [this.prefix, this.cust, ...from];
    const end = [this.prefix, this.cust, ...to];
    return [...customerEntries(this.env, db).getKeys({ start, end })].map((key) => (key as Part[]).slice(2));
  }

  /** Buckets due on `today`: pending ones whose available_from has come (or available_to passed), available ones past available_to. */
  loadDue(today: string): this {
    const { first_pending_from: from, first_available_to: to } = this.summary;
    if (mayHoldDue(from, (date) => date <= today)) this.load(this.range(PENDING, [], [`${today}\uffff`]).map(([, tx]) => tx));
    if (mayHoldDue(to, (date) => date < today)) this.load(this.range(AVAILABLE, [], [today]).map(([, , tx]) => tx));
    return this;
  }

  /** Available buckets in spending order until `eligible` ones hold `points` (all of them when points is Infinity). */
  loadSpendable(points: number, eligible: (b: Bucket) => boolean = () => true): this {
    let held = 0;
    // The loaded versions count (a settlement may already have changed or removed them), looked up by transaction:
    // scanning every loaded bucket per index entry made a long history quadratic (10,000 buckets: 8 s a transfer).
    const byTx = new Map<Part, Bucket[]>();
    for (const b of this.wallet.buckets) {
      const same = byTx.get(idKey(b.tx));
      if (same) same.push(b);
      else byTx.set(idKey(b.tx), [b]);
    }
    for (const key of customerEntries(this.env, AVAILABLE).getKeys(under([this.prefix, this.cust]))) {
      if (held >= points) break;
      const [to, from, tx] = (key as Part[]).slice(2);
      if (!byTx.has(tx)) {
        const first = this.wallet.buckets.length;
        this.load([tx]);
        byTx.set(tx, this.wallet.buckets.slice(first));
      }
      for (const b of byTx.get(tx)!) {
        if (b.active && b.from === from && (b.to ?? NEVER) === to && eligible(b)) held += b.remaining;
      }
    }
    return this;
  }

  /** The buckets a transaction granted. */
  loadTransaction(tx: string): this {
    this.load([idKey(tx)]);
    return this;
  }

  /** Available buckets expiring from `first` through `last` (dates): the stored ones, and the loaded ones as they are now. */
  expiring(first: string, last: string): Bucket[] {
    const stored = this.range(AVAILABLE, [first], [`${last}\uffff`]).flatMap(([to, from, tx]) =>
      this.loaded.has(tx) ? [] : this.stored(tx).filter((b) => b.active && b.remaining > 0 && b.to === to && b.from === from),
    );
    const loaded = this.wallet.buckets.filter((b) => b.active && b.remaining > 0 && b.to !== null && b.to >= first && b.to <= last);
    return [...stored, ...loaded];
  }

  /** The customer's balance, with the loaded part as it is now (or as `loaded`, the loaded buckets settled). */
  balance(loaded: Wallet = this.wallet): Balance {
    const loadedBefore = balanceOf({ buckets: [...this.before.values()], debt: 0 });
    const loadedNow = balanceOf(loaded);
    const available = this.summary.available - loadedBefore.score_available + loadedNow.score_available;
    const pending = this.summary.pending - loadedBefore.pending + loadedNow.pending;
    return { score: available + pending, score_available: available, pending };
  }

  /** The first date of an index (PENDING: when due, `pendingDue`; AVAILABLE: available_to, '~' for none), or null when empty. */
  private firstDate(db: Index): string | null {
    for (const key of customerEntries(this.env, db).getKeys({ ...under([this.prefix, this.cust]), limit: 1 })) {
      const date = (key as Part[])[2];
      return date === NEVER ? null : date;
    }
    return null;
  }

  /**
   * Inside `env.transact`: writes back the transactions whose buckets changed (a new one, a loaded one),
   * their index entries, and the summary. A transaction's record holds all its buckets, so only loaded
   * transactions and new ones are written.
   */
  save(): void {
    const now = groupByTransaction(this.wallet.buckets.filter(isHeld));
    const was = groupByTransaction(this.before.values());
    for (const tx of new Set([...was.keys(), ...now.keys()])) {
      const old = was.get(tx) ?? [];
      const buckets = now.get(tx) ?? [];
      if (sameBuckets(old, buckets)) continue;
      const key = [this.prefix, this.cust, tx];
      if (buckets.length > 0) customerEntries(this.env, BUCKETS).putSync(key, buckets.sort(byCampaignAndDates));
      else customerEntries(this.env, BUCKETS).removeSync(key);
      const oldEntries = indexEntries(old);
      const newEntries = indexEntries(buckets);
      for (const [id, entry] of oldEntries) {
        if (newEntries.has(id)) continue;
        customerEntries(this.env, entry.db).removeSync([this.prefix, this.cust, ...entry.key]);
        this.unindexed = true;
      }
      // Builds before pendingDue indexed every pending bucket at its available_from: such an entry goes with its bucket.
      for (const b of old) if (!b.active && pendingDue(b) !== b.from) customerEntries(this.env, PENDING).removeSync([this.prefix, this.cust, b.from, tx]);
      for (const [id, entry] of newEntries) if (!oldEntries.has(id)) customerEntries(this.env, entry.db).putSync([this.prefix, this.cust, ...entry.key], null);
    }
    const balance = this.balance();
    const summary: Summary = {
      available: balance.score_available + this.wallet.debt,
      pending: balance.pending,
      debt: this.wallet.debt,
      ...this.firstDates(this.wallet.buckets),
    };
    customerEntries(this.env, SUMMARIES).putSync([this.prefix, this.cust], summary);
  }

  /**
   * The summary's first dates after `save` wrote `buckets`: while index entries were only added, the earliest of
   * the old date and the new buckets' dates; once one was removed (or the old date is unknown), read from the indexes.
   */
  private firstDates(buckets: Iterable<Bucket>): Pick<Summary, 'first_pending_from' | 'first_available_to'> {
    const { first_pending_from: from, first_available_to: to } = this.summary;
    if (this.unindexed || from === undefined || to === undefined) return { first_pending_from: this.firstDate(PENDING), first_available_to: this.firstDate(AVAILABLE) };
    let pendingFrom = from;
    let availableTo = to;
    for (const b of buckets) {
      if (b.remaining <= 0) continue;
      if (!b.active && (pendingFrom === null || pendingDue(b) < pendingFrom)) pendingFrom = pendingDue(b);
      if (b.active && b.to !== null && (availableTo === null || b.to < availableTo)) availableTo = b.to;
    }
    return { first_pending_from: pendingFrom, first_available_to: availableTo };
  }
}

function groupByTransaction(buckets: Iterable<Bucket>): Map<Part, Bucket[]> {
  const groups = new Map<Part, Bucket[]>();
  for (const b of buckets) {
    const tx = idKey(b.tx);
    const group = groups.get(tx);
    if (group) group.push(b);
    else groups.set(tx, [b]);
  }
  return groups;
}

/** Whether a transaction's buckets are unchanged (the same buckets, each with the same points and state). */
function sameBuckets(old: readonly Bucket[], now: readonly Bucket[]): boolean {
  if (old.length !== now.length) return false;
  const before = new Map(old.map((b) => [identityOf(b), b]));
  return now.every((b) => {
    const o = before.get(identityOf(b));
    return o !== undefined && o.remaining === b.remaining && o.active === b.active;
  });
}

/**
 * Inside `env.transact`: moves a customer's buckets of these transactions to
 * another customer (a merge, an unmerge), with the debt when asked. Returns
 * the points moved (available net of the debt, and pending).
 */
export function moveBuckets(env: StoreEnv, tenant: Tenant, txs: ReadonlySet<string>, from: string, to: string, withDebt: boolean): Omit<Balance, 'score'> {
  const source = new WalletView(env, tenant, from);
  for (const tx of txs) source.loadTransaction(tx);
  const moving = source.wallet.buckets;
  const debt = withDebt ? source.wallet.debt : 0;
  const moved = balanceOf({ buckets: moving, debt });
  const target = new WalletView(env, tenant, to);
  target.wallet.buckets.push(...moving.map((b) => ({ ...b })));
  target.wallet.debt += debt;
  source.wallet.buckets = [];
  source.wallet.debt -= debt;
  source.save();
  target.save();
  return { score_available: moved.score_available, pending: moved.pending };
}

/** Inside `env.transact`: removes a customer's wallet (a customer delete). */
export function removeWallet(env: StoreEnv, tenant: Tenant, customerId: string): void {
  const prefix = tenantPrefix(tenant);
  const cust = idKey(customerId);
  for (const name of [BUCKETS, AVAILABLE, PENDING] as const) {
    for (const key of customerEntries(env, name).getKeys(under([prefix, cust]))) customerEntries(env, name).removeSync(key);
  }
  customerEntries(env, SUMMARIES).removeSync([prefix, cust]);
}

/**
 * Moves wallets stored one record per bucket (the layout before buckets were grouped by transaction) into
 * one record per transaction, and empties the old databases, in one transaction. The server runs it when
 * it opens the store, before any request; once done it finds nothing to move. Returns the buckets moved.
 */
export async function migrateWalletLayout(env: StoreEnv): Promise<number> {
  const old = env.existingDb(BUCKETS_V1);
  if (!old || old.getKeysCount({ limit: 1 }) === 0) return 0;
  const oldIndexes = INDEXES_V1.map((name) => env.existingDb(name)).filter((db) => db !== undefined);
  return env.transact(() => {
    // Read everything first: the old records are removed after, not while a cursor walks them.
    const entries = [...old.getRange({})];
    // Old keys begin [tenant, customer, tx]: the new record's key.
    const transactions = new Map<string, { key: Part[]; buckets: Bucket[] }>();
    for (const { key, value } of entries) {
      const owner = (key as Part[]).slice(0, 3);
      const id = owner.join('\u0000');
      const group = transactions.get(id);
      if (group) group.buckets.push(value as Bucket);
      else transactions.set(id, { key: owner, buckets: [value as Bucket] });
    }
    for (const { key: [tenant, customer, tx], buckets } of transactions.values()) {
      customerEntries(env, BUCKETS).putSync([tenant, customer, tx], buckets.sort(byCampaignAndDates));
      for (const entry of indexEntries(buckets).values()) customerEntries(env, entry.db).putSync([tenant, customer, ...entry.key], null);
    }
    for (const db of [old, ...oldIndexes]) for (const key of [...db.getKeys({})]) db.removeSync(key);
    return entries.length;
  });
}
