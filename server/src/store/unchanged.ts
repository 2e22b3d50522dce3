/**
 * Whether an update changes a record (campaigns, games, instant wins, webhook
 * subscriptions, customers, company data, ...): one that would store what is
 * stored already writes nothing, since a new campaign version moves the
 * campaign_history_id and makes every cart worker recompile the Company's
 * program for no change. It is judged before the transaction, on the record
 * as read then, so that none runs and the audit log records nothing
 * (docs/audit-log.md): a change committed after that read is one the update
 * came before.
 */
import { isDeepStrictEqual } from 'node:util';
import type { StoreEnv } from './env.js';

/** Whether a record built from an update stores what `previous` stores (its write time and version aside, when it has them). */
export function changesNothing(record: object, previous: object): boolean {
  return isDeepStrictEqual({ ...record, updated_at: '', history_id: '' }, { ...previous, updated_at: '', history_id: '' });
}

/**
 * An update of the record `read` finds (throwing when there is none) to what `updated` makes of it, unless that changes
 * nothing as read now (then no transaction): the record read again in one transaction, and `write` stores the update.
 */
export async function updateUnlessUnchanged<R extends object>(
  env: StoreEnv,
  read: () => R,
  updated: (current: R) => R,
  write: (current: R, next: R) => void,
): Promise<void> {
  const held = read();
  if (changesNothing(updated(held), held)) return;
  await env.transact(() => {
    const current = read();
    write(current, updated(current));
  });
}

/**
 * The `newId` of a record built only to be compared (changesNothing): allocates nothing. A part it numbers is new, so
 * a change: 0 is no id a sequence gives (allocateId starts at 1), and an id still, as the record's checks want.
 */
export const unnumbered = (): string => '0';
