import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreEnv } from './env.js';
import { allocateId } from './ids.js';
import { idKey, tenantPrefix } from './keys.js';
import { paginate, type Page } from './paginate.js';
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
