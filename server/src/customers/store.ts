/**
 * The customer store: records by id and the indexes that find them by code,
 * email, dni and phone (docs/storage.md, "Customers"). Reads are one LMDB get
 * per index hop; writes are synchronous and must run inside `env.transact`,
 * so a route (or a merge) can combine them with other stores in one commit.
 *
 * GET /customers/{value} is Tier 1: its answer is kept rendered (the JSON of
 * customerView) beside the record, rewritten by every put, so the read is one
 * get and no decoding or serializing. Whatever changes that answer must write
 * through put. The process's main thread also keeps answers in memory
 * (CustomerViewCache, registered by `cacheAnswers`).
 */
import { stringifyJson } from '../http/json.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, idFromKey, tenantPrefix } from '../store/keys.js';
import { changeVersionInTransaction, versionToken } from '../store/versioned.js';
import type { Tenant } from '../tenancy/types.js';
import type { CustomerRecord, UniqueKey } from './types.js';
import { CustomerViewCache } from './view-cache.js';
import { customerView } from './view.js';
import { raiseEvent } from '../webhooks/outbox.js';

const UNIQUE_KEYS: readonly UniqueKey[] = ['code', 'email', 'dni'];
/** The keys a request may duplicate (allow_duplicate_email / _dni), and the index kind of their other holders. */
const DUPLICABLE = { email: 'email_duplicate', dni: 'dni_duplicate' } as const;
type Duplicable = keyof typeof DUPLICABLE;
/** An index entry `put` writes for a holder of a code, email or dni: the unique one, or the listing of another holder. */
export type HolderEntry = 'holder' | 'other';
/** The version token kind of customers' status, merged_to and deletion (statusVersion). */
const STATUS_VERSION = 'customer_status';

/** One cache per store environment, shared by every CustomerStore over it. */
const caches = new WeakMap<StoreEnv, CustomerViewCache>();

export class CustomerStore {
  private readonly cache: CustomerViewCache | undefined;

  constructor(private readonly env: StoreEnv) {
    this.cache = caches.get(env);
  }

  /**
   * Keeps up to `entries` rendered answers of this environment in memory
   * (0: none). Call it before building the stores, in the one process
   * that writes customers.
   */
  static cacheAnswers(env: StoreEnv, entries: number): void {
    if (entries > 0) caches.set(env, new CustomerViewCache(entries));
  }

  private get records() {
    return this.env.db('customers');
  }
  private get index() {
    return this.env.db('customer_index');
  }
  private get views() {
    return this.env.db('customer_views');
  }

  /** The record, soft-deleted ones included. */
  get(tenant: Tenant, id: string): CustomerRecord | undefined {
    return this.records.get([tenantPrefix(tenant), idKey(id)]) as CustomerRecord | undefined;
  }

  /** The rendered answer of GET /customers/{value} for a live (not deleted) customer. */
  getView(tenant: Tenant, id: string): string | undefined {
    if (!this.cache) return this.views.get([tenantPrefix(tenant), idKey(id)]) as string | undefined;
    const answers = this.cache.of(tenant);
    let view = answers.get(id);
    if (view === undefined) {
      view = this.views.get([tenantPrefix(tenant), idKey(id)]) as string | undefined;
      if (view !== undefined) answers.remember(id, view);
    }
    return view;
  }

  /**
   * A token that every change of a customer's status or merged_to (merges, unmerges, PATCH status) and every
   * delete (soft or hard) replaces: a realtime cart or a referral compares it inside its write transaction with
   * the one its customer was resolved at, one small get instead of reading the customer again.
   */
  statusVersion(tenant: Tenant): string | undefined {
    return versionToken(this.env, tenant, STATUS_VERSION);
  }

  /**
   * The id of the customer holding this code, email or dni: for a duplicated value the first holder, and once
   * that one lets it go (an update or a delete; a merged customer keeps its own) the remaining holder of lowest id.
   */
  findId(tenant: Tenant, key: UniqueKey, value: string): string | undefined {
    return this.index.get([tenantPrefix(tenant), key, value]) as string | undefined;
  }

  /** Ids of every customer with this phone (phones are not unique). */
  idsByPhone(tenant: Tenant, phone: string): string[] {
    const prefix = [tenantPrefix(tenant), 'phone', phone];
    const ids: string[] = [];
    for (const key of this.index.getKeys({ start: prefix, end: [...prefix, '\uffff'] })) {
      ids.push(idFromKey((key as string[])[3]));
    }
    return ids;
  }

  /** Inside a transaction: writes the record and moves its index entries from `previous`. */
  put(tenant: Tenant, record: CustomerRecord, previous?: CustomerRecord): void {
    const prefix = tenantPrefix(tenant);
    if (previous) this.unindex(tenant, previous, record);
    if (previous && (previous.status !== record.status || previous.merged_to !== record.merged_to || previous.deleted_at !== record.deleted_at)) {
      changeVersionInTransaction(this.env, tenant, STATUS_VERSION);
    }
    for (const key of UNIQUE_KEYS) this.indexHolder(tenant, record, key);
    if (record.phone !== undefined) this.index.putSync([prefix, 'phone', record.phone, idKey(record.id)], '');
    this.records.putSync([prefix, idKey(record.id)], record);
    this.viewChanging(tenant, record.id);
    if (record.deleted_at === undefined) this.views.putSync([prefix, idKey(record.id)], stringifyJson(customerView(record, true)));
    else this.views.removeSync([prefix, idKey(record.id)]);
  }

  /**
   * Inside a transaction, for stores written before the other holders of an email or dni were listed
   * (duplicate-holders.ts): indexes the record's email and dni as `put` does, writing only what is missing; answers
   * the entries it wrote.
   */
  listHolder(tenant: Tenant, record: CustomerRecord): HolderEntry[] {
    return (Object.keys(DUPLICABLE) as Duplicable[]).map((key) => this.indexHolder(tenant, record, key)).filter((entry) => entry !== undefined);
  }

  /**
   * Inside a transaction: indexes the record as a holder of its `key` value: the holder when nobody is, else (email,
   * dni) one of the others, listed so the value passes to one of them when the holder lets it go. Answers the entry
   * it wrote, if any.
   */
  private indexHolder(tenant: Tenant, record: CustomerRecord, key: UniqueKey): HolderEntry | undefined {
    const value = record[key];
    if (value === undefined) return undefined;
    const prefix = tenantPrefix(tenant);
    const holder = this.findId(tenant, key, value);
    if (holder === undefined) {
      this.index.putSync([prefix, key, value], record.id);
      return 'holder';
    }
    if (holder === record.id || key === 'code') return undefined;
    const listed = [prefix, DUPLICABLE[key], value, idKey(record.id)];
    if (this.index.doesExist(listed)) return undefined;
    this.index.putSync(listed, '');
    return 'other';
  }

  /** Inside a transaction: raises the webhook event of a created or changed customer, as GET /customers/{value} answers it once the work is done. */
  raiseChanged(tenant: Tenant, type: 'customer.created' | 'customer.updated', id: string): void {
    raiseEvent(this.env, tenant, type, () => this.views.get([tenantPrefix(tenant), idKey(id)]) as string, () => [id]);
  }

  /** Inside a transaction: removes the record and its index entries (hard delete). */
  remove(tenant: Tenant, record: CustomerRecord): void {
    this.unindex(tenant, record);
    changeVersionInTransaction(this.env, tenant, STATUS_VERSION);
    this.records.removeSync([tenantPrefix(tenant), idKey(record.id)]);
    this.viewChanging(tenant, record.id);
    this.views.removeSync([tenantPrefix(tenant), idKey(record.id)]);
  }

  /** Inside a transaction: the cached answer goes now and stays out until the transaction settles. */
  private viewChanging(tenant: Tenant, id: string): void {
    if (!this.cache) return;
    const answers = this.cache.of(tenant);
    answers.writeStarted(id);
    this.env.afterCommit(() => answers.writeSettled(id));
  }

  /** Drops the index entries of `old` that `next` no longer holds (all of them without `next`). */
  private unindex(tenant: Tenant, old: CustomerRecord, next?: CustomerRecord): void {
    const prefix = tenantPrefix(tenant);
    for (const key of UNIQUE_KEYS) {
      const value = old[key];
      if (value === undefined || value === next?.[key]) continue;
      const held = this.findId(tenant, key, value) === old.id;
      if (key === 'code') {
        if (held) this.index.removeSync([prefix, key, value]);
      } else if (held) {
        this.passOn(tenant, key, value);
      } else {
        this.index.removeSync([prefix, DUPLICABLE[key], value, idKey(old.id)]);
      }
    }
    if (old.phone !== undefined && old.phone !== next?.phone) {
      this.index.removeSync([prefix, 'phone', old.phone, idKey(old.id)]);
    }
  }

  /** The holder lets `value` go: the lowest-id other holder takes the unique entry, or nobody holds it any more. */
  private passOn(tenant: Tenant, key: Duplicable, value: string): void {
    const prefix = tenantPrefix(tenant);
    const others = [prefix, DUPLICABLE[key], value];
    const [next] = this.index.getKeys({ start: others, end: [...others, '\uffff'], limit: 1 });
    if (next === undefined) {
      this.index.removeSync([prefix, key, value]);
      return;
    }
    this.index.removeSync(next);
    this.index.putSync([prefix, key, value], idFromKey((next as string[])[3]));
  }
}
