import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreEnv } from './env.js';
import { allocateId } from './ids.js';
import { idKey, tenantPrefix } from './keys.js';
import { limitScans, paginate, SCAN_LIMIT_DEFAULT, type Page } from './paginate.js';
import type { Tenant } from '../tenancy/types.js';

describe('cursor pagination and id allocation over LMDB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-store-'));
  let env: StoreEnv;
  const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };
  const other: Tenant = { companyId: 'acme', environment: 'production' };
  const prefix = () => [tenantPrefix(tenant), 'things'];

  beforeAll(async () => {
    env = openStore(dir);
    await env.transact(() => {
      for (const id of ['2', '10', '1', '9223372036854775807']) env.db('things').putSync([...prefix(), idKey(id)], { id });
      env.db('things').putSync([tenantPrefix(other), 'things', idKey('3')], { id: 'other' });
    });
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (startingAfter?: string, perPage = 2): Page<string> =>
    paginate<{ id: string }, string>(env.db('things'), prefix(), { startingAfter, perPage }, (v) => v.id);

  it('returns records of one tenant in numeric id order, with a token until the last page', () => {
    const first = read();
    expect(first.data).toEqual(['1', '2']);
    expect(first.next_token_starts_after).toBeTypeOf('string');
    const second = read(first.next_token_starts_after);
    expect(second.data).toEqual(['10', '9223372036854775807']);
    expect(second.next_token_starts_after).toBeUndefined();
  });

  it('neither repeats nor skips records when others are inserted between pages', async () => {
    const first = read();
    await env.transact(() => {
      env.db('things').putSync([...prefix(), idKey('15')], { id: '15' });
      env.db('things').putSync([...prefix(), idKey('0')], { id: 'early' });
    });
    const rest: string[] = [];
    let token = first.next_token_starts_after;
    while (token) {
      const page = read(token);
      rest.push(...page.data);
      token = page.next_token_starts_after;
    }
    expect(rest).toEqual(['10', '15', '9223372036854775807']);
  });

  it('refuses a token that is not one of this list', () => {
    expect(() => read('garbage')).toThrow(/starting_after/);
    const token = (...parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    expect(read(token('things', 2, ...prefix(), idKey('2'))).data[0]).toBe('10');
    // Another tenant's key, another database's, a longer prefix's (another filter value of an index), the old form.
    for (const forged of [
      token('things', 2, tenantPrefix(other), 'things', idKey('3')),
      token('others', 2, ...prefix(), idKey('2')),
      token('things', 3, ...prefix(), idKey('2'), 'x'),
      token(...prefix(), idKey('2')),
    ]) {
      expect(() => read(forged)).toThrow(/starting_after/);
    }
  });

  it('allocates increasing ids per tenant and sequence', async () => {
    const ids = await env.transact(() => [allocateId(env, tenant, 'merges'), allocateId(env, tenant, 'merges')]);
    const otherIds = await env.transact(() => [allocateId(env, other, 'merges')]);
    expect(ids).toEqual(['1', '2']);
    expect(otherIds).toEqual(['1']);
  });
});

describe('the bound on the records a page leaves out (LIST_SCAN_LIMIT)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-store-'));
  let env: StoreEnv;
  const prefix = ['acme/sandbox'];
  const IDS = Array.from({ length: 40 }, (_, i) => String(i + 1));

  beforeAll(async () => {
    env = openStore(dir);
    await env.transact(() => {
      for (const id of IDS) env.db('things').putSync([...prefix, idKey(id)], id);
    });
  });
  afterAll(async () => {
    // The bound is the process's (main.ts sets it once): the other files of this vitest process page with the default.
    limitScans(SCAN_LIMIT_DEFAULT);
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every kept record once, in order, whatever the bound, the page size, the direction and the filter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.boolean(), fc.subarray(IDS), (bound, perPage, reverse, kept) => {
        limitScans(bound);
        const keep = new Set(kept);
        const listed: string[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          let read = 0;
          const page = paginate<string, string>(env.db('things'), prefix, { startingAfter: token, perPage }, (id) => (read++, keep.has(id) ? id : undefined), reverse);
          // At most `bound` records left out, the page's items and the one that tells another page follows.
          expect(read).toBeLessThanOrEqual(bound + perPage + 1);
          expect(page.data.length).toBeLessThanOrEqual(perPage);
          listed.push(...page.data);
          token = page.next_token_starts_after;
          pages++;
        } while (token !== undefined && pages <= IDS.length + 1);
        expect(token).toBeUndefined();
        const wanted = IDS.filter((id) => keep.has(id));
        expect(listed).toEqual(reverse ? wanted.reverse() : wanted);
      }),
      { numRuns: 300 },
    );
  });

  it('ends a page at the bound with a token at the last record read, maybe with nothing found', () => {
    limitScans(3);
    const read = (startingAfter?: string) => paginate<string, string>(env.db('things'), prefix, { startingAfter, perPage: 10 }, (id) => (id === '2' || id === '9' ? id : undefined));
    const first = read();
    // 1 left out, 2 kept, 3 and 4 left out: 5 waits for the next page.
    expect(first.data).toEqual(['2']);
    const second = read(first.next_token_starts_after);
    expect(second).toMatchObject({ data: [] });
    expect(second.next_token_starts_after).toBeTypeOf('string');
    expect(read(second.next_token_starts_after).data).toEqual(['9']);
  });
});
