/**
 * The audit log's retention sweep: at start and every
 * AUDIT_LOG_PRUNE_INTERVAL_MS, every Company environment's entries older than
 * AUDIT_LOG_RETENTION_DAYS are removed, oldest first, in short transactions
 * of CHUNK entries, yielding to the event loop between them (as the points
 * settlement sweep does). One sweep at a time; stopping waits for the chunk
 * in progress.
 */
import { DAY_MS } from '../http/wire.js';
import type { Logger } from '../log.js';
import { startSweep, type Observe } from '../sweeps.js';
import type { StoreEnv } from '../store/env.js';
import { everyTenant, type TenancyStore } from '../tenancy/store.js';
import { pruneEntries } from './log.js';

const CHUNK = 500;

/** Removes the entries older than `retentionDays` (at the sweep's start); returns how many. */
async function pruneAuditLog(env: StoreEnv, tenancy: TenancyStore, retentionDays: number, stopped: () => boolean): Promise<number> {
  const before = Date.now() - retentionDays * DAY_MS;
  let removed = 0;
  for (const tenant of everyTenant(tenancy)) {
    for (;;) {
      if (stopped()) return removed;
      const chunk = await pruneEntries(env, tenant, before, CHUNK);
      removed += chunk;
      await new Promise((resume) => setImmediate(resume));
      if (chunk < CHUNK) break;
    }
  }
  return removed;
}

/** Prunes now and every `everyMs` (never two at once); returns a stop function that resolves once a sweep in progress has stopped. */
export function startAuditRetention(env: StoreEnv, tenancy: TenancyStore, log: Logger, retentionDays: number, everyMs: number, observe: Observe): () => Promise<void> {
  return startSweep(
    everyMs,
    async (stopped) => {
      const removed = await observe(() => pruneAuditLog(env, tenancy, retentionDays, stopped));
      if (removed > 0) log.info({ entries: removed }, 'audit log entries past retention removed');
    },
    (err) => log.error({ err }, 'audit log retention sweep failed'),
  );
}
