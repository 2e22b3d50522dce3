/** Reads a list operation to its end through its cursor, as a client does (common rule 4; docs/http.md, Pagination). */
import { expect } from 'vitest';
import type { Client } from './server.js';

export interface ListedPage {
  data: any[];
  next_token_starts_after?: string;
}

/**
 * Every page GET `path` answers for `query` (from its `starting_after` when it has one), from the first to the one
 * without a token; each must be a 200. A cursor that never ends fails after 1,000 pages.
 */
export async function everyListedPage(client: Client, path: string, query: Record<string, string> = {}): Promise<ListedPage[]> {
  const pages: ListedPage[] = [];
  let after = query.starting_after;
  for (let page = 0; page < 1000; page++) {
    const res = await client.get(path, { query: { ...query, ...(after === undefined ? {} : { starting_after: after }) } });
    expect(res.status, `${path} ${JSON.stringify(query)}: ${res.text}`).toBe(200);
    pages.push(res.body);
    after = res.body.next_token_starts_after ?? undefined;
    if (after === undefined) return pages;
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/** Every item of a list read (`{data, next_token_starts_after}`), page after page of `perPage`. */
export async function everyPage(client: Client, path: string, query: Record<string, string> = {}, perPage = 100): Promise<any[]> {
  return (await everyListedPage(client, path, { ...query, per_page: String(perPage) })).flatMap((page) => page.data);
}
