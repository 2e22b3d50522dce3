/**
 * A customer's delete erases what the audit log recorded of it
 * (docs/audit-log.md, Erasure), in the delete's transaction: the entries of
 * the customer (`customer:<id>`), of its cards (`card:<number>`: the number
 * identifies the person too, so they move under `customer:<id>`), of its
 * associations (`association:<customer>:<associate>`, either side) and the
 * merges of the customers merged with it (their entries target the old
 * customer, and their body names the new one), and the entries of other
 * records whose request named it (`audit_log_mentions`: a redeem, a play, a
 * transfer by `customer_code`).
 */
import { AssociationStore } from '../associations/store.js';
import { redactEntries, redactMentions } from '../audit/erase.js';
import type { Redaction } from '../audit/log.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { cardIds } from './cards.js';

const MERGES: ReadonlySet<string> = new Set(['merges.transfer', 'merges.transfer_new']);

/** What a customer's delete at `at` marks its entries with (its own entry too). */
export const customerDeleted = (at: string): Redaction => ({ at, reason: 'customer_deleted' });

/** Inside the delete's transaction, before its records are removed (the cards and associations name the entries). */
export function eraseFromAuditLog(env: StoreEnv, tenant: Tenant, id: string, at: string): void {
  const redaction = customerDeleted(at);
  const own = `customer:${id}`;
  redactEntries(env, tenant, own, id, redaction);
  redactMentions(env, tenant, id, redaction);
  for (const card of cardIds(env, tenant, id)) redactEntries(env, tenant, `card:${card}`, id, redaction, { retarget: own });
  const associations = new AssociationStore(env);
  const pairs = new Set<string>();
  const merged = new Set<string>();
  for (const association of [...associations.ofCustomer(tenant, id), ...associations.asAssociate(tenant, id)]) {
    pairs.add(`association:${association.customer_id}:${association.associate_customer_id}`);
    const other = association.customer_id === id ? association.associate_customer_id : association.customer_id;
    if (association.merge_id !== undefined && other !== id) merged.add(other);
  }
  for (const pair of pairs) redactEntries(env, tenant, pair, id, redaction);
  for (const other of merged) redactEntries(env, tenant, `customer:${other}`, id, redaction, { only: (entry) => MERGES.has(entry.operation) });
}
