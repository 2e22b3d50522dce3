/**
 * The time windows of the protocol, with a clock under test control:
 * idempotency keys live 24 hours, duplicate suppression lasts 5 minutes.
 * (Over HTTP, idempotency.test.ts and duplicates.test.ts cover the rest.)
 */
import { describe, expect, it } from 'vitest';
import type { IdempotencyStore, StoredAnswer } from '../store/idempotency.js';
import type { Tenant } from '../tenancy/types.js';
import { DUPLICATE_WINDOW_MS, DuplicateSuppressor, ownedTarget } from './duplicates.js';
import { IDEMPOTENCY_TTL_MS, Idempotency } from './idempotency.js';
import type { Reply, TallyRequest } from './types.js';

const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };

class MemoryIdempotencyStore implements IdempotencyStore {
  readonly answers = new Map<string, StoredAnswer>();
  get(_tenant: Tenant, key: string) {
    return this.answers.get(key);
  }
  claim() {
    throw new Error('no work here writes');
  }
  async put(_tenant: Tenant, key: string, answer: StoredAnswer) {
    this.answers.set(key, answer);
  }
  async removeExpired(before: number) {
    let removed = 0;
    for (const [key, answer] of this.answers) {
      if (answer.created_at < before) {
        this.answers.delete(key);
        removed += 1;
      }
    }
    return removed;
  }
}

describe('idempotency keys expire after 24 hours', () => {
  it('replays within 24 hours and runs again after', async () => {
    let now = 1_000_000;
    const store = new MemoryIdempotencyStore();
    const idempotency = new Idempotency(store, () => now);
    let runs = 0;
    const work = async (): Promise<Reply> => ({ body: { run: ++runs } });
    const request = { tenant, key: 'k', operation: 'customers.create', params: '{}', query: '', body: '{}' };

    expect((await idempotency.run(request, work)).raw).toBe('{"run":1}');
    now += IDEMPOTENCY_TTL_MS - 1;
    expect((await idempotency.run(request, work)).raw).toBe('{"run":1}');
    now += 2;
    expect((await idempotency.run(request, work)).raw).toBe('{"run":2}');
  });

  it('sweeps expired answers from the store', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore();
    const idempotency = new Idempotency(store, () => now);
    await idempotency.run({ tenant, key: 'old', operation: 'o', params: '{}', query: '', body: '' }, async () => ({ body: {} }));
    now = IDEMPOTENCY_TTL_MS + 1;
    await idempotency.run({ tenant, key: 'new', operation: 'o', params: '{}', query: '', body: '' }, async () => ({ body: {} }));
    expect(await idempotency.sweep()).toBe(1);
    expect([...store.answers.keys()]).toEqual(['new']);
  });

  it('does not store server errors, so a retry can succeed', async () => {
    const store = new MemoryIdempotencyStore();
    const idempotency = new Idempotency(store, () => 0);
    const request = { tenant, key: 'k', operation: 'o', params: '{}', query: '', body: '' };
    await idempotency.run(request, async () => ({ status: 500, body: { code: 'server_error' } }));
    const retried = await idempotency.run(request, async () => ({ body: { ok: true } }));
    expect(retried.raw).toBe('{"ok":true}');
  });
});

describe('duplicate suppression lasts 5 minutes', () => {
  const request = (rawBody: string) =>
    ({ tenant, operation: 'customers.update', rawBody, query: new URLSearchParams('search_param=id') }) as unknown as TallyRequest;

  it('answers an identical change as the first within the window and runs it again after', async () => {
    let now = 0;
    const duplicates = new DuplicateSuppressor(() => now);
    let runs = 0;
    const work = async (): Promise<Reply> => ({ body: { run: ++runs } });
    expect((await duplicates.suppress(request('{"a":1}'), 'customer:1', work)).body).toEqual({ run: 1 });
    now += DUPLICATE_WINDOW_MS - 1;
    expect((await duplicates.suppress(request('{"a":1}'), 'customer:1', work)).body).toEqual({ run: 1 });
    now += 2;
    expect((await duplicates.suppress(request('{"a":1}'), 'customer:1', work)).body).toEqual({ run: 2 });
  });

  it('keeps targets apart and forgets old changes on sweep', async () => {
    let now = 0;
    const duplicates = new DuplicateSuppressor(() => now);
    let runs = 0;
    const work = async (): Promise<Reply> => ({ body: { run: ++runs } });
    await duplicates.suppress(request('{}'), 'customer:1', work);
    expect((await duplicates.suppress(request('{}'), 'customer:2', work)).body).toEqual({ run: 2 });
    now = DUPLICATE_WINDOW_MS + 1;
    duplicates.sweep();
    expect((await duplicates.suppress(request('{}'), 'customer:1', work)).body).toEqual({ run: 3 });
  });

  it('runs concurrent identical changes once', async () => {
    const duplicates = new DuplicateSuppressor(() => 0);
    let runs = 0;
    const work = async (): Promise<Reply> => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 10));
      return { body: { run: runs } };
    };
    const answers = await Promise.all([1, 2, 3].map(() => duplicates.suppress(request('{}'), 'customer:9', work)));
    expect(runs).toBe(1);
    expect(answers.map((a) => a.body)).toEqual([{ run: 1 }, { run: 1 }, { run: 1 }]);
  });

  it('does not remember a change whose owner was deleted while it ran, so sweeping the delete revives nothing', async () => {
    let now = 0;
    const duplicates = new DuplicateSuppressor(() => now);
    const card = ownedTarget('card:5', 'customer:1');
    let runs = 0;
    let release: () => void = () => undefined;
    const slow = async (): Promise<Reply> => {
      runs += 1;
      await new Promise<void>((r) => (release = r));
      return { body: { run: runs } };
    };
    // The owner's delete commits while the create is still answering: the create's record went with it.
    const first = duplicates.suppress(request('{}'), card, slow);
    duplicates.deleted(request(''), 'customer:1');
    now = 10;
    release();
    expect((await first).body).toEqual({ run: 1 });
    // The delete leaves the window before the create would have.
    now = DUPLICATE_WINDOW_MS + 5;
    duplicates.sweep();
    const second = duplicates.suppress(request('{}'), card, slow);
    release();
    expect((await second).body).toEqual({ run: 2 });
    // A change made after the delete is remembered.
    expect((await duplicates.suppress(request('{}'), card, slow)).body).toEqual({ run: 2 });
  });
});
