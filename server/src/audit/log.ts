/**
 * The audit log's store (docs/audit-log.md): `audit_log` [tenant,
 * newest-first key] -> AuditEntry. The key part is INT64_MAX minus the
 * entry's id (ids grow per tenant, allocated in the change's transaction), so
 * key order is newest first for the list, and a tenant's oldest entries are
 * at the end of its range for the retention sweep. `audit_log_targets`
 * [tenant, target, newest-first key] -> '' indexes the entries that have a
 * target, written and removed with them, so a target's entries (the
 * `target` filter, a customer's export) are read without the others.
 * `audit_log_mentions` [tenant, customer id, newest-first key] -> '' indexes
 * the entries whose request named a customer other than their target (a
 * redeem's, a play's `customer_code`), so its delete redacts them without
 * reading the log (erase.ts).
 */
import { canonicalJson } from '../http/json.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { Key, StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { newestFirstKey, tenantPrefix, under } from '../store/keys.js';
import { decodeCursor, notIssued, paginate, type KeyOrdered, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import type { AuditEntryResponse } from '../wire/types.js';
import type { AuditContext } from './context.js';

export const AUDIT_LOG = 'audit_log';
export const AUDIT_LOG_TARGETS = 'audit_log_targets';
export const AUDIT_LOG_MENTIONS = 'audit_log_mentions';
/** Written inside any write transaction (the witness): opened with the store. */
export const AUDIT_DATABASES = [AUDIT_LOG, AUDIT_LOG_TARGETS, AUDIT_LOG_MENTIONS];

/**
 * The longest target the list is filtered by: a target is a kind (at most 23 characters, `custom_event_definition`),
 * a colon and an id or a path value (at most KEY_TEXT_MAX, http/params.ts). A longer filter is refused, as a long
 * code is: it becomes part of an LMDB key, whose size lmdb-js bounds.
 */
export const TARGET_MAX = 300;

/** A request body longer than this (UTF-16 units of its canonical JSON) is cut, and `body_truncated` set. */
const MAX_BODY_LENGTH = 16 * 1024;

export type Actor = AuditEntryResponse['actor'];

/** Why and when an entry lost what it recorded of a person (erase.ts). */
export type Redaction = NonNullable<AuditEntryResponse['redacted']>;

/**
 * An entry as stored: the answer's fields, the id an int64 decimal string; `redacted` absent until an erasure;
 * `mentions`, not answered, the ids of the customers the request named besides its target (their index keys, which
 * the retention sweep removes with the entry).
 */
export type AuditEntry = Omit<AuditEntryResponse, 'id' | 'redacted'> & { id: string; redacted?: Redaction; mentions?: string[] };

/** Field names whose values are never recorded (customers' passwords and tokens, any secret). */
const SECRET = /password|secret|token/i;
export const REDACTED = '[redacted]';

/**
 * A URL's userinfo (`https://user:pass@host/`, a webhook's basic-auth credentials), in any field: up to the last
 * `@` of the authority, as a URL parser takes it.
 */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

function redact(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(USERINFO, `$1${REDACTED}@`);
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
  const { redaction } = context;
  // The target's customer is found through its own index already.
  const mentions = [...(context.mentions ?? [])].filter((id) => `customer:${id}` !== context.target);
  for (const tenant of context.tenants) {
    const entry: AuditEntry = {
      id: allocateId(env, tenant, AUDIT_LOG), at, company_id: tenant.companyId, environment: tenant.environment,
      actor: context.actor, operation: context.operation, method: context.method, path: context.path, target: context.target,
      ...(redaction === undefined
        ? { body: truncated ? text.slice(0, MAX_BODY_LENGTH) : text, body_truncated: truncated }
        : { body: null, body_truncated: false, redacted: redaction }),
      status: 'committed',
      ...(mentions.length === 0 ? {} : { mentions }),
    };
    const prefix = tenantPrefix(tenant);
    const key = newestFirstKey(entry.id);
    env.db(AUDIT_LOG).putSync([prefix, key], entry);
    if (entry.target !== null) env.db(AUDIT_LOG_TARGETS).putSync(targetKey(prefix, entry.target, key), '');
    for (const id of mentions) env.db(AUDIT_LOG_MENTIONS).putSync(mentionKey(prefix, id, key), '');
  }
}

/** The index key of an entry with a target: [tenant, target, the entry's newest-first key]. */
export const targetKey = (tenant: string, target: string, entryKey: string): Key[] => [tenant, target, entryKey];

/** The index key of an entry whose request named customer `id` besides its target: [tenant, id, the entry's newest-first key]. */
export const mentionKey = (tenant: string, id: string, entryKey: string): Key[] => [tenant, id, entryKey];

/** An entry as GET /audit_log answers it. */
export const auditEntryView = ({ mentions: _, ...entry }: AuditEntry) => ({ ...entry, id: wireInt(entry.id), redacted: entry.redacted ?? null });

/** The key prefix of a tenant's entries, newest first. */
const entriesOf = (tenant: Tenant) => [tenantPrefix(tenant)];

/** An entry's key part: INT64_MAX − id as 19 digits. */
const ENTRY_KEY = /^\d{19}$/;

/** Which entries a page reads: every one, a target's, or those whose request named a customer besides their target. */
export type EntrySelection = { target: string } | { mentioning: string } | undefined;

/**
 * A page of the tenant's entries, newest first; a selection is read through its index (a target's, a customer's
 * mentions). Either way a page token is an entry's key, so the same token goes on in a filtered list and the
 * other; any other key is refused (a forged key part put after the target could exceed what lmdb-js encodes).
 */
export function pageOfEntries<T>(env: StoreEnv, tenant: Tenant, selection: EntrySelection, page: PageRequest, toItem: (entry: AuditEntry) => T | undefined): Page<T> {
  const prefix = entriesOf(tenant);
  if (page.startingAfter !== undefined) {
    const [, part, ...rest] = decodeCursor(page.startingAfter, { name: AUDIT_LOG, prefix });
    if (typeof part !== 'string' || !ENTRY_KEY.test(part) || rest.length > 0) throw notIssued();
  }
  return paginate<AuditEntry, T>(selection === undefined ? env.db(AUDIT_LOG) : indexedEntries(env, selection), prefix, page, toItem);
}

/** A selection's entries as paginate reads a range of `audit_log`: the range and the keys are entry keys, [tenant, ...]. */
function indexedEntries(env: StoreEnv, selection: NonNullable<EntrySelection>): KeyOrdered {
  const [index, part] = 'target' in selection ? [AUDIT_LOG_TARGETS, selection.target] : [AUDIT_LOG_MENTIONS, selection.mentioning];
  const indexKey = ([tenant, ...rest]: Key[]): Key[] => [tenant, part, ...rest];
  return {
    // Named as the log itself: its tokens and the log's are one key space.
    name: AUDIT_LOG,
    *getRange({ start, end, reverse }) {
      for (const key of env.db(index).getKeys({ start: indexKey(start), end: indexKey(end), reverse })) {
        const [tenant, , entryKey] = key as string[];
        yield { key: [tenant, entryKey], value: env.db(AUDIT_LOG).get([tenant, entryKey]) };
      }
    },
  };
}

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
      const entry = value as AuditEntry;
      if (Date.parse(entry.at) >= before) break;
      db.removeSync(key);
      const [prefix, entryKey] = key as string[];
      if (entry.target !== null) env.db(AUDIT_LOG_TARGETS).removeSync(targetKey(prefix, entry.target, entryKey));
      for (const id of entry.mentions ?? []) env.db(AUDIT_LOG_MENTIONS).removeSync(mentionKey(prefix, id, entryKey));
      removed++;
    }
    return removed;
  });
}
