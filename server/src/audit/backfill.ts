/**
 * Stores written before `audit_log_targets` hold entries without their index
 * keys; the server indexes them when it opens the store, before any request
 * (docs/audit-log.md, Storage).
 */
import type { Key, StoreEnv } from '../store/env.js';
import { migrations } from '../store/migrations.js';
import { AUDIT_LOG, AUDIT_LOG_TARGETS, targetKey, type AuditEntry } from './log.js';

/** Its entry in `migrations`: the `audit_log` key the next batch starts at, or DONE. */
export const PROGRESS = 'audit_log_targets';
const DONE = 'done';

/**
 * Walks every entry of `audit_log` in key order and puts the index key of each that has a target, `batch`
 * entries a transaction; each transaction records where the next one starts, so a restart after a crash goes
 * on from there, and putting a key again changes nothing. Once done, a start reads one key. Returns the entries
 * indexed.
 */
export async function indexAuditTargets(env: StoreEnv, batch = 10_000): Promise<number> {
  if (migrations(env).get(PROGRESS) === DONE) return 0;
  let indexed = 0;
  for (;;) {
    const { count, done } = await env.transact(() => indexSome(env, batch));
    indexed += count;
    if (done) return indexed;
  }
}

function indexSome(env: StoreEnv, batch: number): { count: number; done: boolean } {
  const index = env.db(AUDIT_LOG_TARGETS);
  const next = migrations(env).get(PROGRESS) as Key[] | undefined;
  // One entry more than the batch: where the next batch starts.
  const entries = [...env.db(AUDIT_LOG).getRange({ start: next, limit: batch + 1 })];
  let count = 0;
  for (const { key, value } of entries.slice(0, batch)) {
    const [tenant, entryKey] = key as string[];
    const { target } = value as AuditEntry;
    if (target === null) continue;
    index.putSync(targetKey(tenant, target, entryKey), '');
    count++;
  }
  const done = entries.length <= batch;
  migrations(env).putSync(PROGRESS, done ? DONE : entries[batch].key);
  return { count, done };
}
