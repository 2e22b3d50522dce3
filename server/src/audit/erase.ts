/**
 * Erasure (docs/audit-log.md, Erasure): when a customer's personal data is
 * erased, the entries that recorded it keep their skeleton (who, when, which
 * operation on which record) and lose the rest: the body, and the path values
 * that named the customer other than by its id (a code). A target's entries
 * are read through `audit_log_targets`, so the cost is their number, not the
 * log's size.
 */
import { OPERATIONS, type OperationSpec } from '../http/operations.js';
import { toInt64 } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { AUDIT_LOG, AUDIT_LOG_MENTIONS, AUDIT_LOG_TARGETS, REDACTED, targetKey, type AuditEntry, type Redaction } from './log.js';

const SPECS: Readonly<Record<string, OperationSpec>> = OPERATIONS;

/** A path segment as sent, decoded (undefined when it cannot be). */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The path with each value of a path parameter that does not read as customer `id` replaced by "[redacted]":
 * `/customers/c-ana` (by code) is `/customers/[redacted]`, `/customers/41/cards` stays. Literal segments stay.
 */
export function redactedPath(path: string | null, operation: string, id: string): string | null {
  const spec = SPECS[operation];
  if (path === null || spec === undefined) return path;
  const sent = path.split('/');
  const template = [spec.path, ...(spec.aliases ?? [])].map((each) => each.split('/')).find((each) => each.length === sent.length);
  // The router matched one of these; a path that fits none keeps no segment after the resource.
  if (template === undefined) return sent.map((segment, i) => (i < 2 ? segment : REDACTED)).join('/');
  return sent.map((segment, i) => (template[i].startsWith('{') && toInt64(decoded(segment)) !== id ? REDACTED : segment)).join('/');
}

export interface RedactOptions {
  /** Only the entries it keeps (default: all of the target's). */
  only?: (entry: AuditEntry) => boolean;
  /** Moves the entries to this target (their index key too): for a target that itself names the person (`card:<number>`). */
  retarget?: string;
}

/**
 * Inside a transaction: the tenant's entries of `target` lose what they recorded of customer `id` (body, path
 * values naming it other than by id). An entry redacted already keeps its first redaction.
 */
export function redactEntries(env: StoreEnv, tenant: Tenant, target: string, id: string, redaction: Redaction, options: RedactOptions = {}): void {
  const prefix = tenantPrefix(tenant);
  const log = env.db(AUDIT_LOG);
  const index = env.db(AUDIT_LOG_TARGETS);
  // Read whole before writing: the writes below may move keys of this very range.
  const keys = [...index.getKeys(under([prefix, target]))] as string[][];
  for (const [, , entryKey] of keys) {
    const entry = log.get([prefix, entryKey]) as AuditEntry | undefined;
    if (entry === undefined || (options.only !== undefined && !options.only(entry))) continue;
    const moved = options.retarget ?? target;
    log.putSync([prefix, entryKey], { ...redacted(entry, id, redaction), target: moved });
    if (moved !== target) {
      index.removeSync(targetKey(prefix, target, entryKey));
      index.putSync(targetKey(prefix, moved, entryKey), '');
    }
  }
}

/**
 * Inside a transaction: the tenant's entries whose request named customer `id` besides their target (a redeem's,
 * a play's `customer_code`) lose what they recorded, as redactEntries' do. Their index keys stay, removed with the
 * entries by the retention sweep. An entry redacted already holds nothing more of it: left as it is.
 */
export function redactMentions(env: StoreEnv, tenant: Tenant, id: string, redaction: Redaction): void {
  const prefix = tenantPrefix(tenant);
  const log = env.db(AUDIT_LOG);
  // Read whole before writing, as redactEntries does.
  const keys = [...env.db(AUDIT_LOG_MENTIONS).getKeys(under([prefix, id]))] as string[][];
  for (const [, , entryKey] of keys) {
    const entry = log.get([prefix, entryKey]) as AuditEntry | undefined;
    if (entry !== undefined && entry.redacted === undefined) log.putSync([prefix, entryKey], redacted(entry, id, redaction));
  }
}

/** The entry without what it recorded of customer `id`: no body, no path value naming it other than by id; marked. */
function redacted(entry: AuditEntry, id: string, redaction: Redaction): AuditEntry {
  return { ...entry, path: redactedPath(entry.path, entry.operation, id), body: null, body_truncated: false, redacted: entry.redacted ?? redaction };
}
