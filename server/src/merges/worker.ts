/**
 * Asynchronous completion of POST /customers/transfer-new. The request queues
 * the merge durably (merge_queue) in the transaction that makes the old
 * customer merging; the worker completes it after `delayMs` in its own
 * transaction and dequeues it. At start-up every queued merge is resumed, so
 * a merge survives a restart (or a crash) between the two transactions.
 * A merge given up (the new customer deleted or merged meanwhile) ends the
 * request's duplicate-suppression window: the old customer changed since.
 */
import { runRecorded } from '../audit/context.js';
import { CustomerStore } from '../customers/store.js';
import type { DuplicateSuppressor } from '../http/duplicates.js';
import type { Logger } from '../log.js';
import type { Observe } from '../sweeps.js';
import type { StoreEnv } from '../store/env.js';
import type { TenancyStore } from '../tenancy/store.js';
import type { Tenant } from '../tenancy/types.js';
import { completeMerge } from './merge.js';
import type { MergeStore } from './store.js';
import { wireDatetime } from '../http/wire.js';

export class MergeWorker {
  constructor(
    private readonly env: StoreEnv,
    private readonly tenancy: TenancyStore,
    private readonly merges: MergeStore,
    private readonly log: Logger,
    private readonly delayMs: number,
    private readonly duplicates: DuplicateSuppressor,
    /** Each completion a background run (the metrics' `merges`): items, the merges completed. */
    private readonly observe: Observe,
  ) {}

  schedule(tenant: Tenant, mergeId: string): void {
    // unref: a pending merge never holds the process open; it stays queued for the next start.
    setTimeout(() => void this.run(tenant, mergeId), this.delayMs).unref();
  }

  resumeQueued(): void {
    for (const queued of this.merges.queued()) this.schedule(queued.tenant, queued.merge_id);
  }

  private async run(tenant: Tenant, mergeId: string): Promise<void> {
    try {
      await this.observe(() => this.complete(tenant, mergeId));
    } catch (err) {
      this.log.error({ err, merge: mergeId }, 'asynchronous merge failed; it stays queued for the next start');
    }
  }

  /** Completes the merge, or records it failed; answers 1 when it was completed. */
  private async complete(tenant: Tenant, mergeId: string): Promise<number> {
    // The settings when it completes, as a request's are when it is served.
    const settings = this.tenancy.getSettings(tenant);
    let completed = 0;
    // Recorded as the request that queued it (another entry of its operation), after a restart too.
    const failed = await runRecorded(this.merges.queuedMerge(tenant, mergeId)?.audit, () => this.env.transact(() => {
      const merge = this.merges.get(tenant, mergeId);
      this.merges.dequeue(tenant, mergeId);
      if (merge?.status !== 'pending') return undefined;
      const customers = new CustomerStore(this.env);
      const now = wireDatetime(new Date());
      const target = customers.get(tenant, merge.new_customer_id);
      if (!target || target.deleted_at !== undefined || target.status === 'merged' || target.status === 'merging') {
        // The new customer changed since the request: the old customer is released as it was (an inactive one stays
        // inactive), the merge recorded as failed.
        const old = customers.get(tenant, merge.old_customer_id)!;
        customers.put(tenant, { ...old, status: merge.old_status ?? 'active', updated_at: now }, old);
        this.merges.put(tenant, { ...merge, status: 'failed', completed_at: now });
        return old.id;
      }
      completeMerge(this.env, customers, this.merges, { tenant, settings, now }, merge);
      completed = 1;
      return undefined;
    }));
    // Otherwise an identical transfer-new would be answered success again, and nothing done.
    if (failed !== undefined) this.duplicates.changed(tenant, `customer:${failed}`);
    return completed;
  }
}
