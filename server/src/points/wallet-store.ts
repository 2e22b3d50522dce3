/**
 * Where the wallet lives: each bucket is its own record, indexed by spending
 * order (available buckets, by available_to then available_from) and by
 * activation date (pending buckets), beside a summary of the customer's
 * points. An operation loads only the buckets it needs (those due for
 * activation or expiry, the first ones in spending order, one transaction's)
 * into a WalletView, runs the pure bookkeeping of wallet.ts on them and
 * writes back what changed: a customer with years of purchases costs the
 * same per cart as a new one.
 *
 * Keys: `points_buckets` [tenant, customer, tx, campaign, from, to] -> Bucket;
 * `points_available` [tenant, customer, to|'~', from, tx, campaign, from, to] -> null;
 * `points_pending` [tenant, customer, from, tx, campaign, from, to] -> null;
 * `points_wallets` [tenant, customer] -> Summary.
 */
import type { Key, StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
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
   * indexes until then: the earliest available_from of a pending bucket and
   * the earliest available_to of an expiring one (null: none; absent in a
   * summary written before these fields: unknown, scan).
   */
  first_pending_from?: string | null;
  first_available_to?: string | null;
}

const BUCKETS = 'points_buckets';
const AVAILABLE = 'points_available';
const PENDING = 'points_pending';
const SUMMARIES = 'points_wallets';
const EMPTY: Summary = { available: 0, pending: 0, debt: 0, first_pending_from: null, first_available_to: null };
/** Opened when the routes are built (docs/storage.md: never first in a transaction that may abort). */
export const WALLET_DATABASES = [BUCKETS, AVAILABLE, PENDING, SUMMARIES];
const NEVER = '~'; // sorts after every date: never-expiring points are spent last

type Part = string;

function identity(b: Bucket): Part[] {
  return [idKey(b.tx), b.campaign_id ?? '', b.from, b.to ?? ''];
}

function identityOf(b: Bucket): string {
  return identity(b).join('/');
}

/** Whether an index may hold due buckets, from its first date (null: empty; undefined: unknown). */
function mayHoldDue(first: string | null | undefined, due: (date: string) => boolean): boolean {
  return first === undefined || (first !== null && due(first));
}

export class WalletView {
  private readonly prefix: string;
  private readonly cust: string;
  private readonly summary: Summary;
  /** The loaded buckets as they were, by identity. */
  private readonly before = new Map<string, Bucket>();
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
    this.summary = (env.db(SUMMARIES).get([this.prefix, this.cust]) as Summary | undefined) ?? EMPTY;
    this.wallet = { buckets: [], debt: this.summary.debt };
  }

  private load(keys: Iterable<Part[]>): void {
    for (const key of keys) {
      const b = this.env.db(BUCKETS).get([this.prefix, this.cust, ...key]) as Bucket | undefined;
      if (!b || this.before.has(identityOf(b))) continue;
      this.before.set(identityOf(b), b);
      this.wallet.buckets.push({ ...b });
    }
  }

  private range(db: string, from: Key[], to: Key[]): Part[][] {
    const start = [this.prefix, this.cust, ...from];
    const end = [this.prefix, this.cust, ...to];
    return [...this.env.db(db).getKeys({ start, end })].map((key) => (key as Part[]).slice(2));
  }

  /** Buckets due on `today`: pending ones whose available_from has come, available ones past available_to. */
  loadDue(today: string): this {
    const { first_pending_from: from, first_available_to: to } = this.summary;
    if (mayHoldDue(from, (date) => date <= today)) this.load(this.range(PENDING, [], [`${today}\uffff`]).map((k) => k.slice(1)));
    if (mayHoldDue(to, (date) => date < today)) this.load(this.range(AVAILABLE, [], [today]).map((k) => k.slice(2)));
    return this;
  }

  /** Available buckets in spending order until `eligible` ones hold `points` (all of them when points is Infinity). */
  loadSpendable(points: number, eligible: (b: Bucket) => boolean = () => true): this {
    let held = 0;
    for (const key of this.env.db(AVAILABLE).getKeys({ start: [this.prefix, this.cust], end: [this.prefix, this.cust, Buffer.from([0xff])] })) {
      if (held >= points) break;
      const parts = (key as Part[]).slice(4);
      const b = this.env.db(BUCKETS).get([this.prefix, this.cust, ...parts]) as Bucket | undefined;
      if (!b) continue;
      this.load([parts]);
      // The loaded version counts: a settlement may already have changed or removed it.
      const loaded = this.wallet.buckets.find((x) => identityOf(x) === identityOf(b));
      if (loaded && loaded.active && eligible(loaded)) held += loaded.remaining;
    }
    return this;
  }

  /** The buckets a transaction granted. */
  loadTransaction(tx: string): this {
    this.load(this.range(BUCKETS, [idKey(tx)], [idKey(tx), Buffer.from([0xff])]));
    return this;
  }

  /** Available buckets expiring from `first` through `last` (dates): the stored ones, and the loaded ones as they are now. */
  expiring(first: string, last: string): Bucket[] {
    const stored = this.range(AVAILABLE, [first], [`${last}\uffff`]).flatMap((k) => {
      const b = this.env.db(BUCKETS).get([this.prefix, this.cust, ...k.slice(2)]) as Bucket | undefined;
      return b && !this.before.has(identityOf(b)) ? [b] : [];
    });
    const loaded = this.wallet.buckets.filter((b) => b.active && b.remaining > 0 && b.to !== null && b.to >= first && b.to <= last);
    return [...stored, ...loaded];
  }

  /** The customer's balance, with the loaded part as it is now. */
  balance(): Balance {
    const loadedBefore = balanceOf({ buckets: [...this.before.values()], debt: 0 });
    const loadedNow = balanceOf(this.wallet);
    const available = this.summary.available - loadedBefore.score_available + loadedNow.score_available;
    const pending = this.summary.pending - loadedBefore.pending + loadedNow.pending;
    return { score: available + pending, score_available: available, pending };
  }

  /** The first date of an index (PENDING: available_from; AVAILABLE: available_to, '~' for none), or null when empty. */
  private firstDate(db: string): string | null {
    for (const key of this.env.db(db).getKeys({ start: [this.prefix, this.cust], end: [this.prefix, this.cust, Buffer.from([0xff])], limit: 1 })) {
      const date = (key as Part[])[2];
      return date === NEVER ? null : date;
    }
    return null;
  }

  private index(b: Bucket, put: boolean): void {
    if (b.remaining <= 0) return;
    if (!put) this.unindexed = true;
    const key = b.active ? [this.prefix, this.cust, b.to ?? NEVER, b.from, ...identity(b)] : [this.prefix, this.cust, b.from, ...identity(b)];
    const db = this.env.db(b.active ? AVAILABLE : PENDING);
    if (put) db.putSync(key, null);
    else db.removeSync(key);
  }

  /** Inside `env.transact`: writes back the buckets that changed, the new ones, and the summary. */
  save(): void {
    const after = new Map(this.wallet.buckets.map((b) => [identityOf(b), b]));
    for (const [id, old] of this.before) {
      const now = after.get(id);
      if (now && now.remaining === old.remaining && now.active === old.active) continue;
      this.index(old, false);
      if (!now || (now.active && now.remaining <= 0)) this.env.db(BUCKETS).removeSync([this.prefix, this.cust, ...identity(old)]);
    }
    for (const [id, b] of after) {
      const old = this.before.get(id);
      if (old && old.remaining === b.remaining && old.active === b.active) continue;
      if (b.active && b.remaining <= 0) continue;
      this.env.db(BUCKETS).putSync([this.prefix, this.cust, ...identity(b)], b);
      this.index(b, true);
    }
    const balance = this.balance();
    const summary: Summary = {
      available: balance.score_available + this.wallet.debt,
      pending: balance.pending,
      debt: this.wallet.debt,
      ...this.firstDates(after.values()),
    };
    this.env.db(SUMMARIES).putSync([this.prefix, this.cust], summary);
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
      if (!b.active && (pendingFrom === null || b.from < pendingFrom)) pendingFrom = b.from;
      if (b.active && b.to !== null && (availableTo === null || b.to < availableTo)) availableTo = b.to;
    }
    return { first_pending_from: pendingFrom, first_available_to: availableTo };
  }
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
  for (const name of [BUCKETS, AVAILABLE, PENDING]) {
    for (const key of env.db(name).getKeys({ start: [prefix, cust], end: [prefix, cust, Buffer.from([0xff])] })) env.db(name).removeSync(key);
  }
  env.db(SUMMARIES).removeSync([prefix, cust]);
}
