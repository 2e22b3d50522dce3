/**
 * Whether an update changes a record (campaigns, games, instant wins, webhook
 * subscriptions, customers): one that would store what is stored already writes nothing,
 * since a new campaign version moves the campaign_history_id and makes every
 * cart worker recompile the Company's program for no change.
 */
import { isDeepStrictEqual } from 'node:util';

/** Whether a record built from an update stores what `previous` stores (its write time and version aside). */
export function changesNothing(record: { updated_at: string }, previous: { updated_at: string; history_id?: string }): boolean {
  return isDeepStrictEqual({ ...record, updated_at: '', history_id: '' }, { ...previous, updated_at: '', history_id: '' });
}
