/**
 * Merges, the unmerge log and the queue of asynchronous merges
 * (docs/storage.md, "Merges"). Writes run inside `env.transact`. The queue is
 * keyed outside any tenant so start-up can resume every pending merge.
 */
import type { DeferredAudit } from '../audit/context.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { MergeRecord, UnmergeLogEntry } from './types.js';

export interface QueuedMerge {
  tenant: Tenant;
  merge_id: string;
  /** The transfer-new's audit context: its completion is recorded as the request (absent: queued before it was kept). */
  audit?: DeferredAudit;
}

export class MergeStore {
  constructor(private readonly env: StoreEnv) {}

  private get db() {
    return this.env.db('merges');
  }
  private get queue() {
    return this.env.db('merge_queue');
  }

  get(tenant: Tenant, id: string): MergeRecord | undefined {
    return this.db.get([tenantPrefix(tenant), 'merge', idKey(id)]) as MergeRecord | undefined;
  }

  /** Inside a transaction: a new merge with the next id. */
  create(tenant: Tenant, fields: Omit<MergeRecord, 'id'>): MergeRecord {
    const merge = { id: allocateId(this.env, tenant, 'merge'), ...fields };
    this.put(tenant, merge);
    return merge;
  }

  put(tenant: Tenant, merge: MergeRecord): void {
    this.db.putSync([tenantPrefix(tenant), 'merge', idKey(merge.id)], merge);
  }

  /** Inside a transaction. */
  logUnmerge(tenant: Tenant, entry: Omit<UnmergeLogEntry, 'id'>): UnmergeLogEntry {
    const logged = { id: allocateId(this.env, tenant, 'unmerge'), ...entry };
    this.db.putSync([tenantPrefix(tenant), 'unmerge', idKey(logged.id)], logged);
    return logged;
  }

  unmergeLog(tenant: Tenant): UnmergeLogEntry[] {
    const prefix = [tenantPrefix(tenant), 'unmerge'];
    return [...this.db.getRange({ start: prefix, end: [...prefix, '\uffff'] })].map(({ value }) => value as UnmergeLogEntry);
  }

  /** Inside a transaction: queues an asynchronous merge, with the request's audit context. */
  enqueue(tenant: Tenant, mergeId: string, audit: DeferredAudit | undefined): void {
    this.queue.putSync([tenantPrefix(tenant), idKey(mergeId)], { tenant, merge_id: mergeId, ...(audit ? { audit } : {}) } satisfies QueuedMerge);
  }

  /** The queued merge `mergeId`; undefined once completed or given up. */
  queuedMerge(tenant: Tenant, mergeId: string): QueuedMerge | undefined {
    return this.queue.get([tenantPrefix(tenant), idKey(mergeId)]) as QueuedMerge | undefined;
  }

  dequeue(tenant: Tenant, mergeId: string): void {
    this.queue.removeSync([tenantPrefix(tenant), idKey(mergeId)]);
  }

  /** The pending transfer-new merges into `customerId` (the queue holds only merges not yet completed or given up). */
  pendingInto(tenant: Tenant, customerId: string): MergeRecord[] {
    return [...this.queue.getRange(under([tenantPrefix(tenant)]))]
      .map(({ value }) => this.get(tenant, (value as QueuedMerge).merge_id))
      .filter((merge): merge is MergeRecord => merge?.status === 'pending' && merge.new_customer_id === customerId);
  }

  queued(): QueuedMerge[] {
    return [...this.queue.getRange({})].map(({ value }) => value as QueuedMerge);
  }
}
