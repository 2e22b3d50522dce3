/**
 * Stores written before `audit_log_targets` hold entries without their index
 * keys; the server indexes them when it opens the store, before any request
 * (docs/audit-log.md, Storage).
 */
import type { StoreEnv } from '../store/env.js';
import { buildIndex } from '../store/migrations.js';
import { AUDIT_LOG, AUDIT_LOG_TARGETS, targetKey, type AuditEntry } from './log.js';

/** Its entry in `migrations`: the `audit_log` key the next batch starts at, or "done". */
export const PROGRESS = 'audit_log_targets';

/** Puts the index key of every entry with a target, `batch` entries a transaction (`buildIndex`). Returns the entries indexed. */
export function indexAuditTargets(env: StoreEnv, batch?: number): Promise<number> {
  const index = env.db(AUDIT_LOG_TARGETS);
  return buildIndex(env, {
    source: AUDIT_LOG,
    progress: PROGRESS,
    index(key, value) {
      const { target } = value as AuditEntry;
      if (target === null) return false;
      const [tenant, entryKey] = key as string[];
      index.putSync(targetKey(tenant, target, entryKey), '');
      return true;
    },
  }, batch);
}
