/**
 * Idempotency under every interleaving fast-check's scheduler tries: requests
 * with one key run the work once and all get its answer; requests with
 * different keys each run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdempotencyStore, StoredAnswer } from '../store/idempotency.js';
import type { Tenant } from '../tenancy/types.js';
import { Idempotency } from './idempotency.js';

const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };

/** A store whose writes complete when the scheduler says so. */
function scheduledStore(s: fc.Scheduler): IdempotencyStore {
  const answers = new Map<string, StoredAnswer>();
  return {
    get: (_t, key) => answers.get(key),
    claim: () => {
      throw new Error('no work here writes');
    },
    put: (_t, key, answer) => s.schedule(Promise.resolve()).then(() => void answers.set(key, answer)),
    removeExpired: async () => 0,
  };
}

describe('Idempotency-Key races (fast-check scheduler)', () => {
  it('runs the work once per key whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 8 }), async (s, keys) => {
        const idempotency = new Idempotency(scheduledStore(s), () => 0);
        const runs = new Map<string, number>();
        const answers = keys.map((key) =>
          idempotency.run({ tenant, key, operation: 'o', params: '{}', query: '', body: '{}' }, async () => {
            await s.schedule(Promise.resolve());
            const run = (runs.get(key) ?? 0) + 1;
            runs.set(key, run);
            return { body: { key, run } };
          }),
        );
        const replies = await s.waitFor(Promise.all(answers));
        for (const key of new Set(keys)) expect(runs.get(key)).toBe(1);
        replies.forEach((reply, i) => expect(reply.raw).toBe(JSON.stringify({ key: keys[i], run: 1 })));
      }),
    );
  });
});
