/**
 * The audit log's store (docs/audit-log.md): `audit_log` [tenant,
 * newest-first key] -> AuditEntry. The key part is INT64_MAX minus the
 * entry's id (ids grow per tenant, allocated in the change's transaction), so
 * key order is newest first for the list, and a tenant's oldest entries are
 * at the end of its range for the retention sweep.
 */
import { canonicalJson } from '../http/json.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { newestFirstKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { AuditEntryResponse } from '../wire/types.js';
import type { AuditContext } from './context.js';

export const AUDIT_LOG = 'audit_log';

/** A request body longer than this (UTF-16 units of its canonical JSON) is cut, and `body_truncated` set. */
const MAX_BODY_LENGTH = 16 * 1024;

export type Actor = AuditEntryResponse['actor'];

/** An entry as stored: the answer's fields, the id an int64 decimal string. */
export type AuditEntry = Omit<AuditEntryResponse, 'id'> & { id: string };

/** Field names whose values are never recorded (customers' passwords and tokens, any secret). */
const SECRET = /password|secret|token/i;
const REDACTED = '[redacted]';

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value !== 'object' || value === null) return value;
  // An absent option of a CLI command is undefined: left out, as JSON would.
  const fields = Object.entries(value).filter(([, field]) => field !== undefined);
  return Object.fromEntries(fields.map(([key, field]) => [key, SECRET.test(key) ? REDACTED : redact(field)]));
}

/** Inside `env.transact`, once its work has returned: the entry of the change it made, in each of the context's tenants. */
export function writeEntry(env: StoreEnv, context: AuditContext): void {
  const text = canonicalJson(redact(context.body));
  const truncated = text.length > MAX_BODY_LENGTH;
  const at = wireDatetime(new Date());
  for (const tenant of context.tenants) {
    const entry: AuditEntry = {
      id: allocateId(env, tenant, AUDIT_LOG), at, company_id: tenant.companyId, environment: tenant.environment,
      actor: context.actor, operation: context.operation, method: context.method, path: context.path, target: context.target,
      body: truncated ? text.slice(0, MAX_BODY_LENGTH) : text, body_truncated: truncated, status: 'committed',
    };
    env.db(AUDIT_LOG).putSync([tenantPrefix(tenant), newestFirstKey(entry.id)], entry);
  }
}

/** An entry as GET /audit_log answers it. */
export const auditEntryView = (entry: AuditEntry) => ({ ...entry, id: wireInt(entry.id) });

/** The key prefix of a tenant's entries, newest first. */
export const entriesOf = (tenant: Tenant) => [tenantPrefix(tenant)];

/**
 * Removes up to `limit` of the tenant's entries recorded before `before` (ms),
 * oldest first, in one transaction; returns how many (fewer than `limit`: none left).
 */
export function pruneEntries(env: StoreEnv, tenant: Tenant, before: number, limit: number): Promise<number> {
  return env.transact(() => {
    const db = env.db(AUDIT_LOG);
    const { start, end } = under(entriesOf(tenant));
    let removed = 0;
    for (const { key, value } of db.getRange({ start: end, end: start, reverse: true, limit })) {
      if (Date.parse((value as AuditEntry).at) >= before) break;
      db.removeSync(key);
      removed++;
    }
    return removed;
  });
}
