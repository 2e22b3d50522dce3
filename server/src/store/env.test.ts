import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type StoreEnv } from './env.js';

describe('StoreEnv.transact', () => {
  let dir: string;
  let env: StoreEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tally-env-'));
    env = openStore(dir);
  });
  afterEach(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits every write of the work and returns its result', async () => {
    const db = env.db('things');
    const result = await env.transact(() => {
      db.putSync('a', 1);
      db.putSync('b', 2);
      return 'done';
    });
    expect(result).toBe('done');
    expect([db.get('a'), db.get('b')]).toEqual([1, 2]);
  });

  it('leaves no trace of a transaction that throws after writing', async () => {
    const db = env.db('things');
    await expect(
      env.transact(() => {
        db.putSync('a', 1);
        throw new Error('refused after the first write');
      }),
    ).rejects.toThrow('refused after the first write');
    expect(db.get('a')).toBeUndefined();
  });

  it('keeps the writes of concurrent transactions when one of them throws', async () => {
    const db = env.db('things');
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        env.transact(() => {
          db.putSync(`k${i}`, i);
          if (i === 1) throw new Error('second fails');
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([db.get('k0'), db.get('k1'), db.get('k2')]).toEqual([0, undefined, 2]);
  });

  it('opens again a database first opened by a transaction that threw', async () => {
    await expect(
      env.transact(() => {
        env.db('fresh').putSync('a', 1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(env.db('fresh').get('a')).toBeUndefined();
    await env.transact(() => env.db('fresh').putSync('b', 2));
    expect(env.db('fresh').get('b')).toBe(2);
  });

  it('runs afterCommit callbacks once the commit is readable, before transact resolves', async () => {
    const db = env.db('things');
    const seen: unknown[] = [];
    await env.transact(() => {
      db.putSync('a', 1);
      env.afterCommit(() => seen.push(db.get('a')));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([1]);
  });

  it('runs afterCommit callbacks of a transaction that throws, after its rollback', async () => {
    const db = env.db('things');
    const seen: unknown[] = [];
    await expect(
      env.transact(() => {
        db.putSync('a', 1);
        env.afterCommit(() => seen.push(db.get('a') ?? 'rolled back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(seen).toEqual(['rolled back']);
  });

  it('refuses afterCommit outside a transaction', () => {
    expect(() => env.afterCommit(() => undefined)).toThrow(/inside transact/);
  });

  it('collects values per transaction and prepares them after the work, inside the transaction', async () => {
    const db = env.db('things');
    const key = {};
    const collect = (item: string) => env.collect(key, (): string[] => [], (items) => db.putSync('items', [...items, String(db.get('a'))])).push(item);
    await env.transact(() => {
      collect('x');
      db.putSync('a', 1);
      collect('y');
    });
    expect(db.get('items')).toEqual(['x', 'y', '1']);
    // A work that throws prepares nothing, and leaves nothing for the next transaction.
    await expect(env.transact(() => {
      collect('lost');
      throw new Error('no');
    })).rejects.toThrow('no');
    await env.transact(() => collect('z'));
    expect(db.get('items')).toEqual(['z', '1']);
    expect(() => env.collect(key, () => [], () => undefined)).toThrow(/inside transact/);
  });
});
