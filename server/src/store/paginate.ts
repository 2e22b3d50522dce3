/**
 * Cursor pagination over one key range (common rule 4). Items are returned in
 * key order (or reverse key order); the cursor is the last key read, so a page never repeats or
 * skips a record when others are inserted concurrently. The token is opaque
 * (base64url of the list's name, its prefix length and the key), and absent on the last page.
 * A page reads at most `scanLimit` records that its filter leaves out (LIST_SCAN_LIMIT): a filter matching
 * little would otherwise read the whole range on the main thread, so the page ends there, with what it found
 * (maybe nothing) and a token at the last record read.
 */
import { invalidRequest } from '../http/errors.js';
import type { Key } from './env.js';
import { under } from './keys.js';

/** What a page is read from: an lmdb-js database, or one kind of customer entries (customer-entries.ts). */
export interface KeyOrdered {
  /** Names the key space in page tokens: a token of one key space is refused by another. */
  readonly name: string;
  getRange(range: { start: Key[]; end: Key[]; reverse?: boolean }): Iterable<{ key: Key; value: unknown }>;
}

export interface Page<T> {
  data: T[];
  next_token_starts_after?: string;
}

export interface PageRequest {
  /** The next_token_starts_after of the previous page, as sent back by the client. */
  startingAfter?: string;
  perPage: number;
}

/**
 * The list a token belongs to: what it reads (a database's name) and the fixed start of its keys (the tenant,
 * and an indexed filter's value). Lists computed in memory name themselves and their own key shape.
 */
export interface List {
  name: string;
  prefix: Key[];
}

/**
 * A page token: the list's name, its prefix length and the last key returned (which starts with the prefix),
 * so a token of one list, or of one filter value of an indexed list, is no position in another.
 */
export function encodeCursor(list: List, key: Key[]): string {
  return Buffer.from(JSON.stringify([list.name, list.prefix.length, ...key])).toString('base64url');
}

/**
 * Longest token accepted: the key of an issued token fits LMDB's 1,978-byte
 * key limit, so this (about 3 KB of key) leaves room for JSON's escapes while
 * keeping a forged key short enough for lmdb-js to encode as a range start.
 */
const MAX_TOKEN_LENGTH = 4096;

/** A key part a list issues: lists key records by strings and numbers only. */
const isKeyPart = (part: unknown) => typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part));

/** The answer to a page token the list did not issue. */
export const notIssued = () => invalidRequest('starting_after', 'is not a token returned by this list');

/** The key of a page token `list` issued; any other token (another list's, one issued before tokens named their list) is invalid_request. */
export function decodeCursor(token: string, { name, prefix }: List): Key[] {
  try {
    const parts = token.length <= MAX_TOKEN_LENGTH ? (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown) : undefined;
    if (Array.isArray(parts) && parts[0] === name && parts[1] === prefix.length) {
      const key = parts.slice(2);
      if (key.length > prefix.length && key.every(isKeyPart) && prefix.every((part, i) => key[i] === part)) return key as Key[];
    }
  } catch {
    // fall through to the error below
  }
  throw notIssued();
}

/**
 * Records a page may read and leave out before it answers (LIST_SCAN_LIMIT; README): 1,000 carts, the largest
 * records a list filters, took 14 to 17 ms of the main thread, as a full page of 100 unfiltered carts does
 * (docs/http.md, Pagination). Set once at start.
 */
export const SCAN_LIMIT_DEFAULT = 1000;
let scanLimit = SCAN_LIMIT_DEFAULT;

/** At start (main.ts): the bound every list of this process pages with; one server per process. */
export function limitScans(records: number): void {
  scanLimit = records;
}

/**
 * Reads one page of the records whose key starts with `prefix`. `keep`
 * filters records (filtered-out records do not count towards the page size,
 * but at most `scanLimit` of them are read: docs/http.md, Pagination).
 * `reverse`: the last key first (newest first, for keys in id order).
 */
export function paginate<V, T>(
  db: KeyOrdered,
  prefix: Key[],
  page: PageRequest,
  toItem: (value: V, key: Key[]) => T | undefined,
  reverse = false,
): Page<T> {
  const { start: first, end: last } = under(prefix);
  const list = { name: db.name, prefix };
  const start = page.startingAfter === undefined ? (reverse ? last : first) : decodeCursor(page.startingAfter, list);
  const data: T[] = [];
  // The last record read (returned or left out): where the next page starts.
  let position: Key[] | undefined;
  let leftOut = 0;
  let more = false;
  for (const { key, value } of db.getRange({ start, end: reverse ? first : last, reverse })) {
    const k = key as Key[];
    if (page.startingAfter !== undefined && position === undefined && sameKey(k, start)) continue;
    // Another record is there, unread: the next page reads it.
    if (leftOut === scanLimit) {
      more = true;
      break;
    }
    const item = toItem(value as V, k);
    if (item === undefined) {
      leftOut++;
      position = k;
      continue;
    }
    if (data.length === page.perPage) {
      more = true;
      break;
    }
    data.push(item);
    position = k;
  }
  return more && position ? { data, next_token_starts_after: encodeCursor(list, position) } : { data };
}

function sameKey(a: Key[], b: Key[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
