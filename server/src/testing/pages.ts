/** Reads a list operation to its end through its cursor (docs/http.md, Pagination). */
import { expect } from 'vitest';
import type { Client } from './server.js';

/**
 * Every item of a list read (`{data, next_token_starts_after}`), page after page of `perPage`, from the
 * `starting_after` of `query` when it has one. A cursor that never ends fails after 1,000 pages.
 */
export async function everyPage(client: Client, path: string, query: Record<string, string> = {}, perPage = 100): Promise<any[]> {
  const items: any[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const res = await client.get(path, { query: { ...query, per_page: String(perPage), ...(after === undefined ? {} : { starting_after: after }) } });
    expect(res.status, `${path} ${res.text}`).toBe(200);
    items.push(...res.body.data);
    after = res.body.next_token_starts_after ?? undefined;
    if (after === undefined) return items;
  }
  throw new Error(`${path}: more than 1000 pages`);
}
