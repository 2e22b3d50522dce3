/** Following a list's page tokens to its end, as a client does (common rule 4). */
import { expect } from 'vitest';
import type { Client } from './server.js';

export interface ListedPage {
  data: any[];
  next_token_starts_after?: string;
}

/** Every page GET `path` answers for `query`, from the first to the one without a token (each must be a 200). */
export async function everyPage(client: Client, path: string, query: Record<string, string> = {}): Promise<ListedPage[]> {
  const pages: ListedPage[] = [];
  let after: string | undefined;
  do {
    const res = await client.get(path, { query: { ...query, ...(after === undefined ? {} : { starting_after: after }) } });
    expect(res.status, `${path} ${JSON.stringify(query)}: ${res.text}`).toBe(200);
    pages.push(res.body);
    after = res.body.next_token_starts_after;
  } while (after !== undefined);
  return pages;
}
